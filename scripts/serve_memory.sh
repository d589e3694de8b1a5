#!/usr/bin/env bash
# Issue 57, items 6 and 7: `serve` with KRPvKR's tables, under `ulimit -v`
# of 1 GiB, answers 400 sequential and then 64 concurrent probes of KRPvKR
# positions (scripts/random_krpkr.py), every one 200, and lives; then
# `solve KRPvKR --check 1000` ends under the same limit. Prints the
# server's peak of address space and resident memory.
#
#   bash scripts/serve_memory.sh TABLES [BINARY]   (default target/debug/ajedrecista)
#
# TABLES holds KRPvKR's file and those it reads (`ajedrecista solve KRPvKR
# --tables TABLES` writes them: minutes). Nothing is written there.
set -uo pipefail
cd "$(dirname "$0")/.."
TABLES=$(realpath "${1:?usage: serve_memory.sh TABLES [BINARY]}")
BIN=$(realpath "${2:-target/debug/ajedrecista}")
source scripts/serve_under_budget.sh
[ -f "$TABLES/KRPvKR.standard.ajt" ] || {
    echo "no KRPvKR.standard.ajt in $TABLES"
    exit 1
}
python3 scripts/random_krpkr.py 464 57 >"$WORK/fens"
start_server "$WORK/err" --tables "$TABLES"
[ -n "$URL" ] || {
    echo "FAIL  the server did not start"
    cat "$WORK/err"
    exit 1
}
export URL
probe() {
    curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 -G \
        --data-urlencode "fen=$1" "$URL/api/probe"
}
export -f probe
echo "== serve under $BUDGET_KB KiB of address space ($BIN, $URL)"
FAILED=0
# verdict NAME FILE COUNT: every one of COUNT answers in FILE is a 200.
verdict() {
    local got ok
    got=$(wc -l <"$2")
    ok=$(grep -c '^200$' "$2")
    if [ "$got" = "$3" ] && [ "$ok" = "$3" ] && kill -0 "$SERVER" 2>/dev/null; then
        printf '  ok    %-22s %s answers, all 200; the server lives\n' "$1" "$got"
    else
        FAILED=$((FAILED + 1))
        printf '  FAIL  %-22s %s answers of %s, %s of them 200; codes: %s\n' "$1" "$got" "$3" \
            "$ok" "$(sort "$2" | uniq -c | tr '\n' ' ')"
        sed 's/^/        /' "$WORK/err" | tail -3
    fi
}
start=$(date +%s.%N)
head -400 "$WORK/fens" | while IFS= read -r fen; do probe "$fen"; done >"$WORK/sequential"
verdict "400 sequential" "$WORK/sequential" 400
tail -64 "$WORK/fens" | xargs -d '\n' -P 64 -I{} bash -c 'probe "$1"' _ {} >"$WORK/concurrent"
verdict "64 concurrent" "$WORK/concurrent" 64
if [ -r "/proc/$SERVER/status" ]; then
    printf '  server: %s s; %s, %s\n' "$(echo "$(date +%s.%N) - $start" | bc | cut -c1-5)" \
        "$(grep VmPeak "/proc/$SERVER/status" | tr -s ' \t' ' ')" \
        "$(grep VmHWM "/proc/$SERVER/status" | tr -s ' \t' ' ')"
    kill "$SERVER"
fi
SERVER=
(
    ulimit -v "$BUDGET_KB"
    exec /usr/bin/time -f '%e s, %M KB peak resident' "$BIN" solve KRPvKR --tables "$TABLES" \
        --check 1000 --json
) >"$WORK/check" 2>"$WORK/err"
code=$?
if [ "$code" = 0 ] && grep -Eq '"disagreements": ?\[\]' "$WORK/check"; then
    printf '  ok    %-22s exit 0, no disagreement; %s\n' "solve --check 1000" "$(tail -1 "$WORK/err")"
else
    FAILED=$((FAILED + 1))
    printf '  FAIL  %-22s exit %s\n' "solve --check 1000" "$code"
    sed 's/^/        /' "$WORK/err" | tail -3
fi
echo "== $FAILED failed"
[ "$FAILED" = 0 ]
