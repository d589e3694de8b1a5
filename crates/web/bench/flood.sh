#!/usr/bin/env bash
# A probe's latency while 64 calculators press long keys at once (issue 29):
# 20 probes of a cached KRvK position with the server idle, then 20 while 64
# clients each press SP 30 times on a calculator with no program (each
# press runs the emulator to the run limit). Prints the median and the
# slowest probe of each, and how long one press takes in the flood.
# Usage: crates/web/bench/flood.sh [BINARY] (default target/release/ajedrecista)
set -uo pipefail
cd "$(dirname "$0")/../../.."
bin=${1:-target/release/ajedrecista}
port=$((20000 + RANDOM % 20000))
tables=$(mktemp -d)
"$bin" solve KRvK --tables "$tables" >/dev/null
"$bin" serve --addr "127.0.0.1:$port" --tables "$tables" 2>/dev/null &
server=$!
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tables"' EXIT
sleep 1
url=http://127.0.0.1:$port
probe_url="$url/api/probe?fen=8/8/8/3k4/8/8/1R6/K7%20w%20-%20-%200%201"
probes() {
    for _ in $(seq 20); do
        curl -s -o /dev/null -w '%{time_total}\n' "$probe_url"
    done | sort -n | awk '{t[NR] = $1} END {printf "median %.1f ms, slowest %.1f ms\n", t[int(NR / 2) + 1] * 1000, t[NR] * 1000}'
}
press() {
    curl -s -o /dev/null -H 'content-type: application/json' -d '{"key":"SP"}' \
        "$url/api/calculators/$1/press"
}
echo "probes, idle: $(probes)"
for _ in $(seq 64); do
    id=$(curl -s -H 'content-type: application/json' -d '{}' "$url/api/calculators" |
        grep -o '"id":"[^"]*"' | cut -d'"' -f4)
    (for _ in $(seq 30); do press "$id"; done) &
done
sleep 1
start=$(date +%s%N)
press "$id"
echo "one press in the flood: $(( ($(date +%s%N) - start) / 1000000 )) ms"
echo "probes, 64 calculators pressing: $(probes)"
kill "$server"
