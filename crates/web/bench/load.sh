#!/usr/bin/env bash
# Load test of `ajedrecista serve` on loopback (docs/benchmarks.md): starts
# the release server, runs the client of examples/load.rs (64 concurrent
# games for 10 s, then a flood of new games), prints the server's memory.
# Usage: crates/web/bench/load.sh [GAMES] [SECONDS] [FLOOD]
set -euo pipefail
cd "$(dirname "$0")/../../.."
games=${1:-64}
seconds=${2:-10}
flood=${3:-10000}
cargo build --release --locked -p ajedrecista-cli
cargo build --release --locked -p ajedrecista-web --example load
tables=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
target/release/ajedrecista serve --addr "127.0.0.1:$port" --tables "$tables" 2>/dev/null &
server=$!
trap 'kill $server; rm -rf "$tables"' EXIT
sleep 1
rss() { awk '/^VmRSS|^VmHWM/ {printf "%s %s kB  ", $1, $2} END {print ""}' "/proc/$server/status"; }
echo "server memory at start: $(rss)"
target/release/examples/load "127.0.0.1:$port" "$games" "$seconds" "$flood"
echo "server memory at end:   $(rss)"
