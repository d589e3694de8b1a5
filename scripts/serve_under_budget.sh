# Sourced by the scripts that run `serve` under a budget of address space
# (memory_budget.sh, serve_memory.sh), after they set BIN: the budget,
# a scratch folder WORK, and the server, stopped and WORK removed on exit.
BUDGET_KB=$((1024 * 1024))
WORK=$(mktemp -d)
SERVER=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_server ERR ARGS...: `$BIN serve --addr 127.0.0.1:0 ARGS...` under
# the budget, its stderr into ERR; sets SERVER, and URL once the server
# says its address (empty when it has not within 10 s).
start_server() {
    local err=$1
    shift
    (
        ulimit -v "$BUDGET_KB"
        exec "$BIN" serve --addr 127.0.0.1:0 "$@"
    ) 2>"$err" &
    SERVER=$!
    URL=
    for _ in $(seq 100); do
        URL=$(grep -o 'http://[0-9.:]*' "$err" 2>/dev/null | head -1)
        [ -n "$URL" ] && break
        sleep 0.1
    done
}
