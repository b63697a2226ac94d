#!/usr/bin/env bash
# The quick start: builds everything and starts the whole system locally with no internet:
# onthemap-server with demo data on a SQLite file, onthemapd against it, a login as the demo
# account, then `onthemap status` and `onthemap students`. Everything lives in ./run/.
# ONTHEMAP_DEMO_PORT picks the server's port (8080); ONTHEMAP_DEMO_BIN runs already built programs
# from that directory instead of building; ONTHEMAP_DEMO_DIR replaces ./run/ (the tests use both).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${ONTHEMAP_DEMO_PORT:-8080}"
RUN="${ONTHEMAP_DEMO_DIR:-$PWD/run}"
API="http://127.0.0.1:$PORT/v1"
export ONTHEMAP_SOCKET="$RUN/onthemapd.sock"
# The demo daemon keeps its session and cache under run/, away from a real installation's.
export XDG_STATE_HOME="$RUN/state" XDG_CACHE_HOME="$RUN/cache" XDG_CONFIG_HOME="$RUN/config"
mkdir -p "$RUN"

./scripts/install-deps.sh

if [ -n "${ONTHEMAP_DEMO_BIN:-}" ]; then
    BIN="$ONTHEMAP_DEMO_BIN"
else
    echo "==> building onthemap-server, onthemapd and onthemap (the first build takes several minutes)"
    swift build --product onthemap-server
    swift build --product onthemapd
    swift build --product onthemap
    BIN="$(swift build --show-bin-path)"
fi

# Whether the demo's server or daemon ($1) runs: its process is alive and answers. One killed just
# before is still alive while it stops, and no longer answers: it is waited for (10 s at most), then
# started again (the demo said "already running", and the login then failed).
running() {
    local pid
    [ -f "$RUN/$1.pid" ] && pid=$(cat "$RUN/$1.pid") || return 1
    local deadline=$((SECONDS + 10))
    while kill -0 "$pid" 2>/dev/null; do
        answers "$1" && return 0
        [ "$SECONDS" -lt "$deadline" ] || return 0 # alive and silent: the next step says what is wrong
        sleep 0.1
    done
    return 1
}

answers() {
    case $1 in
    server) (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null ;;
    # onthemap status exits 2 only when it cannot reach the daemon.
    daemon)
        local status=0
        "$BIN/onthemap" status >/dev/null 2>&1 || status=$?
        [ "$status" -ne 2 ]
        ;;
    esac
}

wait_for() {  # wait_for FILE TEXT PID: until FILE holds TEXT; fails when PID has exited first
    for _ in $(seq 1 400); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || break
        sleep 0.05
    done
    grep -q "$2" "$1" 2>/dev/null && return 0
    echo "gave up waiting for '$2' in $1:" >&2
    cat "$1" >&2
    return 1
}

echo "==> demo data in $RUN/onthemap.sqlite"
"$BIN/onthemap-server" seed --db "$RUN/onthemap.sqlite" --demo

if running server; then
    echo "==> onthemap-server already running on $API"
else
    echo "==> starting onthemap-server on $API"
    # Emptied here, not by the job's own redirection: that runs after the fork, and the wait below
    # could meet the last run's "listening" first.
    : >"$RUN/server.log"
    "$BIN/onthemap-server" serve --db "$RUN/onthemap.sqlite" --port "$PORT" >>"$RUN/server.log" 2>&1 &
    echo $! >"$RUN/server.pid"
    if ! wait_for "$RUN/server.log" "listening on" "$(cat "$RUN/server.pid")"; then
        rm -f "$RUN/server.pid"
        if grep -q "already in use" "$RUN/server.log"; then
            echo "Port $PORT is taken. Run the demo on another port, e.g.: ONTHEMAP_DEMO_PORT=9090 make demo" >&2
        fi
        exit 1
    fi
fi

if running daemon; then
    echo "==> onthemapd already running on $ONTHEMAP_SOCKET"
else
    echo "==> starting onthemapd on $ONTHEMAP_SOCKET"
    : >"$RUN/daemon.log"
    "$BIN/onthemapd" --socket "$ONTHEMAP_SOCKET" --api-url "$API" >>"$RUN/daemon.log" 2>&1 &
    echo $! >"$RUN/daemon.pid"
    wait_for "$RUN/daemon.log" "listening" "$(cat "$RUN/daemon.pid")" || { rm -f "$RUN/daemon.pid"; exit 1; }
fi

# How to start this daemon again, for the client's advice when it is down (`make demo-stop`): the
# client reads SOCKET.how-to-start. A daemon started by hand writes its own command line there
# (`onthemapd --socket ... --api-url ...`, without this shell's XDG folders); the demo's word replaces
# it once the daemon is up, and stays when the daemon stops.
again="make demo"
[ "$PORT" != 8080 ] && again="ONTHEMAP_DEMO_PORT=$PORT $again"
[ -n "${ONTHEMAP_DEMO_DIR:-}" ] && again="ONTHEMAP_DEMO_DIR=$(printf %q "$RUN") $again"
[ -n "${ONTHEMAP_DEMO_BIN:-}" ] && again="ONTHEMAP_DEMO_BIN=$(printf %q "$BIN") $again"
printf 'cd %q && %s\n' "$PWD" "$again" >"$ONTHEMAP_SOCKET.how-to-start"
# The folder as the closing words name it, and how to stop what runs there.
shown_run="$RUN"
[ "$RUN" = "$PWD/run" ] && shown_run=run
stop="make demo-stop"
[ -n "${ONTHEMAP_DEMO_DIR:-}" ] && stop="ONTHEMAP_DEMO_DIR=$(printf %q "$RUN") $stop"

# A daemon that is already logged in (a second `make demo`, or a restart that restored its saved
# session) needs no login: logging in again would only count against the server's login limit.
if "$BIN/onthemap" status --json 2>/dev/null | grep -q '"loggedIn":true'; then
    echo "==> onthemapd is already logged in (its saved session)"
else
    echo "==> logging in as demo@onthemap.example"
    echo "onthemap-demo" | "$BIN/onthemap" login --username demo@onthemap.example --password-stdin
fi

echo
echo "\$ onthemap status"
"$BIN/onthemap" status
echo
echo "\$ onthemap students --limit 10"
"$BIN/onthemap" students --limit 10

cat <<EOT

Running: onthemap-server (log $shown_run/server.log) and onthemapd (log $shown_run/daemon.log).
In a browser: ${API%/v1}/ (log in as demo@onthemap.example / onthemap-demo)
Try next, in this shell:
  export ONTHEMAP_SOCKET=$ONTHEMAP_SOCKET PATH=$BIN:\$PATH
  onthemap map                          (onthemap map -i: full screen; q quits)
  onthemap export --html $shown_run/students.html
  onthemap students --search berlin
  onthemap students --near "Paris" --limit 5
  onthemap geocode "München"
  onthemap post "Munich" https://example.com/me
  onthemap watch --format waybar        (Ctrl-C to stop)
The editors, from that shell (docs/EDITORS.md):
  nvim --cmd "set rtp+=$PWD/clients/nvim" -c OnTheMap
  emacs -nw -L $PWD/clients/emacs -l onthemap -f onthemap
Stop everything:  $stop
EOT
