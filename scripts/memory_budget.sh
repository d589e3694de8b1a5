#!/usr/bin/env bash
# The memory budget (issue 29): every command and every web endpoint, run
# under `ulimit -v` of 1 GiB against hostile inputs, ends with a result or
# one line of error: no abort on allocation (134), no panic (101), no hang
# (a time-out), no thread of the server left stuck. About 13 s.
#
#   bash scripts/memory_budget.sh [BINARY]   (default target/debug/ajedrecista)
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-target/debug/ajedrecista}")
WAIT=30
source scripts/serve_under_budget.sh
FAILED=0
CASES=0

# case NAME CODES SCRIPT: runs SCRIPT (bash, $B the binary) under the
# budget and a time-out; its exit code must be one of CODES, and an exit 2
# must say one line on stderr.
case_() {
    local name=$1 codes=$2 script=$3
    CASES=$((CASES + 1))
    (
        ulimit -v "$BUDGET_KB"
        export B="$BIN" AJEDRECISTA_TABLES="$WORK/tables"
        cd "$WORK"
        exec timeout -k 5 "$WAIT" bash -c "$script"
    ) >"$WORK/out" 2>"$WORK/err"
    local code=$?
    local lines
    lines=$(wc -l <"$WORK/err")
    local verdict=ok
    if ! [[ " $codes " == *" $code "* ]]; then
        verdict="exit $code, expected one of: $codes"
    elif [ "$code" = 2 ] && [ "$lines" != 1 ]; then
        verdict="exit 2 with $lines lines on stderr"
    fi
    if [ "$verdict" = ok ]; then
        printf '  ok    %-58s exit %s\n' "$name" "$code"
    else
        FAILED=$((FAILED + 1))
        printf '  FAIL  %-58s %s\n' "$name" "$verdict"
        sed 's/^/        /' "$WORK/err" | head -5
    fi
}

echo "== memory budget: $BUDGET_KB KiB of address space, $WAIT s a case ($BIN)"
mkdir -p "$WORK/tables" "$WORK/fifo"
"$BIN" solve KRvK --tables "$WORK/tables" >/dev/null || exit 1
mkfifo "$WORK/fifo/KRvK.standard.ajt" "$WORK/tables/KQvK.standard.ajt"
KRK='8/8/8/3k4/8/8/1R6/K7 w - - 0 1'
printf '00. БП  01. 00\n' >"$WORK/loop.txt"
printf 'VO SP %.0s' $(seq 100) >"$WORK/keys.txt"
: >"$WORK/empty.txt"
printf '[Event "?"]\n[White "Mu\xf1oz"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n' >"$WORK/latin1.pgn"
yes '7k/7Q/6K1/8/8/8/8/8 b - - 0 1' | head -n 50000 >"$WORK/limit.fen"
yes '7k/7Q/6K1/8/8/8/8/8 b - - 0 1' | head -n 200000 >"$WORK/many.fen"
ZEROS=1200000000 # more than the budget: held whole, a line would abort

echo "-- commands"
case_ "probe --epd - --json | head -1 (20 000 lines)" 0 \
    'yes "'"$KRK"'" | head -n 20000 | $B probe --epd - --json | head -1; exit ${PIPESTATUS[2]}'
case_ "probe --epd, a byte-order mark first" 0 \
    'printf "\xef\xbb\xbf%s\n" "'"$KRK"'" | $B probe --epd -'
case_ "probe of a FIFO named as a table" 0 '$B probe "'"$KRK"'" --tables fifo'
case_ "solve of a FIFO named as a table" 0 '$B solve KQvK'
case_ "solve KQRRBvK --fixed-king all (137 GB)" 2 '$B solve KQRRBvK --fixed-king all'
case_ "audit torres --starts machine --json" 0 '$B audit torres --starts machine --json'
case_ "selfplay perfect from move 4294967294" 0 \
    '$B selfplay perfect --fen "8/8/8/3k4/8/8/1R6/K7 w - - 0 4294967294" | grep -q "4294967296\. "'
case_ "code --popeye /dev/zero" 2 '$B code --popeye /dev/zero'
case_ "code of an illegal fairy position" 2 '$B code "*n7/8/1K6/8/8/8/8/8 b"'
case_ "classify /dev/zero" 2 '$B classify /dev/zero'
case_ "classify of 50 000 mates --json (the limit)" 0 '$B classify limit.fen --json >/dev/null'
case_ "classify of 200 000 lines --json" 2 '$B classify many.fen --json'
case_ "classify of a PGN with a Latin-1 byte" 0 '$B classify latin1.pgn --json'
case_ "enumerate KQQQQQvK" 2 '$B enumerate KQQQQQvK'
case_ "enumerate K and 5 000 grasshoppers" 2 '$B enumerate "K$(printf "G%.0s" $(seq 5000))vK"'
case_ "enumerate KGGGGvK" 2 '$B enumerate KGGGGvK'
case_ "mk61 keys --keys /dev/zero" 2 '$B mk61 keys --keys /dev/zero'
case_ "mk61 keys --program /dev/zero" 2 '$B mk61 keys --program /dev/zero --keys empty.txt'
case_ "mk61 keys --trace --json of an endless program | head" 0 \
    '$B mk61 keys --trace --json --program loop.txt --keys keys.txt | head -c 20000000 >/dev/null; exit ${PIPESTATUS[0]}'
case_ "uci: 1.2 GB without a newline" 0 "head -c $ZEROS /dev/zero | \$B uci"
case_ "play: 1.2 GB without a newline" 0 "head -c $ZEROS /dev/zero | \$B play"
case_ "mk61: 1.2 GB without a newline" 0 "head -c $ZEROS /dev/zero | \$B mk61"
case_ "play with a line that is not UTF-8, --pgn" 0 \
    'printf "d6\nKd5\n\xe9t\xe9\n" | $B play --pgn g.pgn && grep -q Kd5 g.pgn'

echo "-- serve"
start_server "$WORK/serve.err" --tables "$WORK/tables"
# request NAME STATUS CURL-ARGS...: the status wanted, and a JSON body.
request() {
    local name=$1 wanted=$2
    shift 2
    CASES=$((CASES + 1))
    local status
    status=$(curl -s -o "$WORK/body" -w '%{http_code}' --max-time "$WAIT" "$@")
    if [ "$status" = "$wanted" ] && head -c 1 "$WORK/body" | grep -q '[{[]'; then
        printf '  ok    %-58s %s\n' "$name" "$status"
    else
        FAILED=$((FAILED + 1))
        printf '  FAIL  %-58s %s, expected %s: %s\n' "$name" "$status" "$wanted" "$(head -c 200 "$WORK/body")"
    fi
}
KRK_Q='fen=8/8/8/3k4/8/8/1R6/K7%20w%20-%20-%200%201'
request "/api/probe" 200 "$URL/api/probe?$KRK_Q"
request "/api/probe of a FIFO named as a table (KQvK)" 200 "$URL/api/probe?fen=8/8/8/3k4/8/8/1Q6/K7%20w%20-%20-%200%201"
# 10 kB: a longer head (over 16 KiB) gets hyper's own 431, without a body.
request "/api/probe of a FEN of 10 kB" 414 "$URL/api/probe?fen=$(head -c 10000 /dev/zero | tr '\0' 8)"
request "/api/audit/torres?starts=machine" 200 "$URL/api/audit/torres?starts=machine"
request "/api/strategies" 200 "$URL/api/strategies"
request "POST /api/games, perfect from move 4294967294" 201 -H 'content-type: application/json' \
    -d '{"strategy":"perfect","fen":"8/8/8/3k4/8/8/1R6/K7 w - - 0 4294967294"}' "$URL/api/games"
request "POST /api/games, a body of 1 MB" 413 -H 'content-type: application/json' \
    --data-binary @<(head -c 1000000 /dev/zero | tr '\0' ' ') "$URL/api/games"
request "POST /api/games, content-length 2^63" 413 -H 'content-type: application/json' \
    -H 'content-length: 9223372036854775807' -d '{}' "$URL/api/games"
request "POST /api/games, a body that is not UTF-8" 400 -H 'content-type: application/json' \
    --data-binary $'{"strategy":"\xe9"}' "$URL/api/games"
request "POST /api/calculators" 201 -H 'content-type: application/json' -d '{}' "$URL/api/calculators"
CALC=$(grep -o '"id":"[^"]*"' "$WORK/body" | cut -d'"' -f4)
request "POST /api/calculators/ID/press, 4 kB of key name" 400 -H 'content-type: application/json' \
    -d "{\"key\":\"$(head -c 4000 /dev/zero | tr '\0' x)\"}" "$URL/api/calculators/$CALC/press"
# Presses of a running program, 32 at once, while a probe is asked.
request "POST /api/calculators (rook program)" 201 -H 'content-type: application/json' \
    -d '{"program":"rook"}' "$URL/api/calculators"
ROOK=$(grep -o '"id":"[^"]*"' "$WORK/body" | cut -d'"' -f4)
for _ in $(seq 32); do
    curl -s -o /dev/null --max-time "$WAIT" -H 'content-type: application/json' \
        -d '{"key":"SP"}' "$URL/api/calculators/$ROOK/press" &
done
request "/api/probe during 32 presses" 200 "$URL/api/probe?$KRK_Q"
wait $(jobs -p | grep -v "^$SERVER$") 2>/dev/null
CASES=$((CASES + 1))
if ! kill -0 "$SERVER" 2>/dev/null; then
    FAILED=$((FAILED + 1))
    echo "  FAIL  the server has ended: $(tail -2 "$WORK/serve.err")"
else
    STUCK=$(grep -lE 'fifo_open|pipe_read|pipe_wait' /proc/"$SERVER"/task/*/wchan 2>/dev/null | wc -l)
    PEAK=$(grep VmPeak /proc/"$SERVER"/status | awk '{print $2}')
    if [ "$STUCK" = 0 ]; then
        printf '  ok    %-58s %s\n' "no thread of the server waits on a FIFO" "peak $PEAK kB"
    else
        FAILED=$((FAILED + 1))
        echo "  FAIL  $STUCK threads of the server wait on a FIFO"
    fi
fi

echo "== memory budget: $CASES cases, $FAILED failed"
[ "$FAILED" = 0 ]
