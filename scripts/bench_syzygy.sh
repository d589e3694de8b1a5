#!/usr/bin/env bash
# Side by side: `ajedrecista solve` against Syzygy's generator (rtbgen,
# rtbgenp with -g: generate, no compression, nothing saved), each with the
# subtables of every table already on disk, whole process under
# /usr/bin/time, alternated A B A B; prints seconds and peak memory of each
# run, the best of each and the ratios (ours / theirs).
#
#   scripts/bench_syzygy.sh PEER_BIN_DIR [TABLE...]
#
# PEER_BIN_DIR holds rtbgen and rtbgenp, built from Syzygy's public source
# outside this repository (docs/benchmarks.md says how). Tables default to
# KPPvK KRPvKR KQPvKQ KQRvKR. Work folders go under ${BENCH_DIR:-target/bench-syzygy}.
# With BEFORE=PATH (an ajedrecista binary of an earlier commit), each run
# times it too, alternated with this checkout's (before, ours, theirs), and
# the table adds it with the ratio ours / before.
set -euo pipefail
cd "$(dirname "$0")/.."

peer=${1:?usage: scripts/bench_syzygy.sh PEER_BIN_DIR [TABLE...]}
shift
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(KPPvK KRPvKR KQPvKQ KQRvKR)
runs=${RUNS:-2}
work=$(realpath -m "${BENCH_DIR:-target/bench-syzygy}")
ours_dir=$work/ours
theirs_dir=$work/theirs
mkdir -p "$ours_dir" "$theirs_dir"

cargo build --release --locked -q -p ajedrecista-cli
ours=$PWD/target/release/ajedrecista

has_pawns() { [[ $1 == *P* ]]; }
peer_tool() { if has_pawns "$1"; then echo "$peer/rtbgenp"; else echo "$peer/rtbgen"; fi; }

# Syzygy names a table with the stronger side first.
syzygy_name() {
    local white=${1%%v*} black=${1#*v}
    local order=KQRBNP
    key() { local s=$1 k=""; for ((i = 1; i < ${#s}; i++)); do k+=$(expr index "$order" "${s:i:1}"); done; echo "$k"; }
    if [ ${#white} -lt ${#black} ] || { [ ${#white} -eq ${#black} ] && [[ $(key "$white") > $(key "$black") ]]; }; then
        echo "${black}v${white}"
    else
        echo "$1"
    fi
}

# The tables in ours' folder that a capture or a promotion of the table may
# lead into, smallest first: fewer men, or as many with fewer pawns (so
# another table measured may be one, as KQRvKR is KRPvKR's; the folder may
# hold more than one table's subtables, so this can list a few too many).
# What both programs need on disk: ours builds them itself; Syzygy's are
# generated and saved in RTBPATH.
subtables() {
    "$ours" solve "$1" --tables "$ours_dir" --json >/dev/null
    (cd "$ours_dir" && ls -- *.standard.ajt) | sed 's/\.standard\.ajt$//' |
        awk '{ men = gsub(/[KQRBNP]/, "&"); pawns = gsub(/P/, "P"); print men, pawns, $0 }' |
        awk -v men="$(echo "$1" | tr -cd KQRBNP | wc -c)" -v pawns="$(echo "$1" | tr -cd P | wc -c)" \
            '$1 < men || ($1 == men && $2 < pawns)' |
        sort -k1,1n -k2,2n -k3 | cut -d' ' -f3 || true
}

echo "== subtables" >&2
for table in "${tables[@]}"; do
    for sub in $(subtables "$table"); do
        name=$(syzygy_name "$sub")
        [[ $name == KvK ]] && continue
        if [ ! -e "$theirs_dir/$name.rtbw" ]; then
            (cd "$theirs_dir" && RTBPATH=$theirs_dir "$(peer_tool "$name")" -t 2 "$name" >/dev/null)
        fi
    done
done

measure() { # command... -> "seconds KiB"; a failing command stops the bench with its output
    local report output
    report=$(mktemp)
    output=$(mktemp)
    if ! /usr/bin/time -f "%e %M" -o "$report" "$@" >"$output" 2>&1; then
        echo "failed: $*" >&2
        tail -5 "$output" >&2
        exit 1
    fi
    tail -1 "$report"
    rm -f "$report" "$output"
}

printf '%-8s %-6s %10s %12s\n' table prog seconds "peak MiB" >&2
summary=()
for table in "${tables[@]}"; do
    name=$(syzygy_name "$table")
    best_ours="" best_theirs="" best_before=""
    for ((r = 0; r < runs; r++)); do
        if [ -n "${BEFORE:-}" ]; then
            rm -f "$ours_dir/$table.standard.ajt"
            read -r s k < <(measure "$BEFORE" solve "$table" --tables "$ours_dir")
            printf '%-8s %-6s %10s %12.1f\n' "$table" before "$s" "$(echo "$k / 1024" | bc -l)" >&2
            best_before=$(printf '%s\n%s %s\n' "$best_before" "$s" "$k" | sort -n | sed '/^$/d' | head -1)
        fi
        rm -f "$ours_dir/$table.standard.ajt"
        read -r s k < <(measure "$ours" solve "$table" --tables "$ours_dir")
        printf '%-8s %-6s %10s %12.1f\n' "$table" ours "$s" "$(echo "$k / 1024" | bc -l)" >&2
        best_ours=$(printf '%s\n%s %s\n' "$best_ours" "$s" "$k" | sort -n | sed '/^$/d' | head -1)
        read -r s k < <(cd "$theirs_dir" && RTBPATH=$theirs_dir measure "$(peer_tool "$name")" -g -t 2 "$name")
        printf '%-8s %-6s %10s %12.1f\n' "$table" theirs "$s" "$(echo "$k / 1024" | bc -l)" >&2
        best_theirs=$(printf '%s\n%s %s\n' "$best_theirs" "$s" "$k" | sort -n | sed '/^$/d' | head -1)
    done
    summary+=("$table $best_ours $best_theirs ${best_before:-- -}")
done

echo
printf '| table | ajedrecista solve | %s | ratio (time, memory) |\n' "Syzygy -g -t 2"
printf '|---|---:|---:|---:|\n'
for row in "${summary[@]}"; do
    read -r table os ok ts tk _ <<<"$row"
    printf '| %s | %s s, %.0f MiB | %s s, %.1f MiB | %.2fx, %.2fx |\n' "$table" "$os" "$(echo "$ok / 1024" | bc -l)" \
        "$ts" "$(echo "$tk / 1024" | bc -l)" "$(echo "$os / $ts" | bc -l)" "$(echo "$ok / $tk" | bc -l)"
done
if [ -n "${BEFORE:-}" ]; then
    echo
    printf '| table | before (%s) | ajedrecista solve | ratio ours / before (time, memory) |\n' "$BEFORE"
    printf '|---|---:|---:|---:|\n'
    for row in "${summary[@]}"; do
        read -r table os ok ts tk bs bk <<<"$row"
        printf '| %s | %s s, %.1f MiB | %s s, %.1f MiB | %.3fx, %.3fx |\n' "$table" "$bs" "$(echo "$bk / 1024" | bc -l)" \
            "$os" "$(echo "$ok / 1024" | bc -l)" "$(echo "$os / $bs" | bc -l)" "$(echo "$ok / $bk" | bc -l)"
    done
fi
