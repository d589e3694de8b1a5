#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS (default 20) each, from its seed
# corpus (fuzz/corpus/T, read only) and a scratch corpus in fuzz/target.
# Installs cargo-fuzz and the nightly toolchain if missing. Runs as many
# targets at once as there are cores (FUZZ_JOBS overrides). A crash stops
# the run with libFuzzer's report and the input under fuzz/artifacts/T.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
# FUZZ_ARGS adds libFuzzer options, e.g. FUZZ_ARGS=-runs=10000000 for a
# long run that stops after ten million executions (or SECONDS).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"
shift || true
if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz
fi
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
# Safe Rust: no address sanitizer (about twice the executions a second);
# debug assertions on, so overflows are found.
export flags="--sanitizer none --debug-assertions"
cargo +nightly fuzz build $flags
mkdir -p target/logs
# One target: its libFuzzer log under target/logs, its summary (or, on a
# crash, the end of the log) printed at once when it ends.
run_target() {
    local target=$1 scratch="target/corpus/$1" log="target/logs/$1.log"
    mkdir -p "$scratch"
    if ! cargo +nightly fuzz run $flags "$target" "$scratch" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        ${FUZZ_ARGS:-} >"$log" 2>&1; then
        { tail -n 40 "$log"; echo "fuzz target $target failed: the input is under fuzz/artifacts/$target"; } >&2
        return 255 # xargs stops at once
    fi
    # One write, so that the summaries of targets run together do not mix.
    printf -- '-- %s (%s s)\n%s\n' "$target" "$seconds" \
        "$(grep -E '^(stat::(number_of_executed_units|peak_rss_mb)|Done [0-9]+ runs)' "$log" || true)"
}
export -f run_target
export seconds
# Each libFuzzer run uses one core.
jobs=${FUZZ_JOBS:-$(nproc)}
printf '%s\n' "${targets[@]}" |
    xargs -P "$jobs" -I{} bash -c 'run_target "$1"' _ {}
