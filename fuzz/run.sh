#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) each, from its seed corpus
# (fuzz/corpus/T, read only) and a scratch corpus in fuzz/target. Installs
# the nightly toolchain if missing. Builds the targets as
# `cargo fuzz build --sanitizer none --debug-assertions` does (cargo-fuzz
# 0.13's flags, written out here so that CI need not compile cargo-fuzz
# itself; `cargo fuzz run T` works on the same targets). Runs as many
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
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | tail -n +2)
fi
# libFuzzer's coverage instrumentation, as cargo-fuzz sets it. Safe Rust:
# no address sanitizer (about twice the executions a second); debug
# assertions on, so overflows are found. `--target` keeps the flags off
# build scripts and proc macros.
triple=$(rustc +nightly -vV | sed -n 's/^host: //p')
coverage=(
    -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing
    -Cllvm-args=-simplifycfg-branch-fold-threshold=0 -Cllvm-args=-sanitizer-coverage-stack-depth
    -Cdebug-assertions -Ccodegen-units=1
)
RUSTFLAGS="${coverage[*]}" cargo +nightly build --release \
    --config 'profile.release.debug="line-tables-only"' \
    --target "$triple" $(printf -- '--bin %s ' "${targets[@]}")
export bin_dir="target/$triple/release"
mkdir -p target/logs
# One target: its libFuzzer log under target/logs, its summary (or, on a
# crash, the end of the log) printed at once when it ends.
run_target() {
    local target=$1 scratch="target/corpus/$1" log="target/logs/$1.log"
    mkdir -p "$scratch" "artifacts/$target"
    if ! "$bin_dir/$target" -artifact_prefix="artifacts/$target/" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        ${FUZZ_ARGS:-} "$scratch" "corpus/$target" >"$log" 2>&1; then
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
