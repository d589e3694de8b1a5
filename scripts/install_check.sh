#!/usr/bin/env bash
# `cargo install` of the CLI into an empty folder, then run from a folder
# with no source tree: it plays El Ajedrecista's first move and writes the
# game's PGN, and serves the page, its script and `/api/strategies`. Exit
# 0 when all do.
#
#   scripts/install_check.sh [ROOT]   # ROOT: where to install (default: a
#                                     # temporary folder, removed after)
#
# The build reuses target/ (CARGO_TARGET_DIR), so a release build already
# made is not made again.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$scratch"' EXIT
root=${1:-$scratch/root}
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/target} \
    cargo install --path "$repo/crates/cli" --root "$root" --locked --quiet
bin=$root/bin/ajedrecista
cd "$scratch" # no source tree here
export AJEDRECISTA_TABLES=$scratch/tables
"$bin" --version

# A game: the black king placed on d6, the machine's reply, then quit
# (the game is written to its PGN on quit).
game=$(printf 'd6\nquit\n' | "$bin" play --pgn "$scratch/game.pgn" 2>&1) || true
grep -q 'Ra7' "$scratch/game.pgn" ||
    { echo "install_check: play wrote no game: $game" >&2; exit 1; }
echo "install_check: play wrote $(grep -c . "$scratch/game.pgn") lines of PGN"

"$bin" serve --addr 127.0.0.1:0 2>"$scratch/serve.log" &
server=$!
for _ in $(seq 100); do
    addr=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$scratch/serve.log" | head -1 || true)
    [ -n "$addr" ] && break
    sleep 0.1
done
[ -n "$addr" ] || { echo "install_check: serve did not start" >&2; cat "$scratch/serve.log" >&2; exit 1; }
curl -fsS "$addr" | grep -q 'src="/js/main.js"'
curl -fsS "${addr}js/main.js" | grep -q 'export async function start'
curl -fsS "${addr}api/strategies" | grep -q '"name":"torres"'
echo "install_check: serve at $addr answered the page, its script and /api/strategies"
