#!/usr/bin/env bash
# The protocol needs no Swift: JSON-RPC lines over the socket with socat, read with jq.
#   ./onthemap-socat.sh status
#   ./onthemap-socat.sh students 5
#   ./onthemap-socat.sh watch
#   ./onthemap-socat.sh candidates   # where it looks for the daemon's socket, in order
set -euo pipefail
# The same order as onthemap (SocketPath.candidates, held to it by a test): $ONTHEMAP_SOCKET alone
# when set, else $XDG_RUNTIME_DIR/onthemap/ (when it is an absolute path), /run/user/$UID/onthemap/
# (cron, env -i and ssh set no XDG_RUNTIME_DIR), /tmp/onthemap-$UID/.
socket_candidates() {
    if [ -n "${ONTHEMAP_SOCKET:-}" ]; then
        printf '%s\n' "$ONTHEMAP_SOCKET"
        return
    fi
    local uid systemd
    uid=$(id -u)
    systemd="/run/user/$uid/onthemap/onthemapd.sock"
    case "${XDG_RUNTIME_DIR:-}" in
    /*) [ "$XDG_RUNTIME_DIR/onthemap/onthemapd.sock" != "$systemd" ] && printf '%s\n' "$XDG_RUNTIME_DIR/onthemap/onthemapd.sock" ;;
    esac
    printf '%s\n' "$systemd" "/tmp/onthemap-$uid/onthemapd.sock"
}

# The first candidate that is a socket.
find_socket() {
    if [ -n "${ONTHEMAP_SOCKET:-}" ]; then
        if [ ! -S "$ONTHEMAP_SOCKET" ]; then
            no_daemon "$ONTHEMAP_SOCKET"
        fi
        printf '%s\n' "$ONTHEMAP_SOCKET"
        return
    fi
    local uid candidate tried=()
    uid=$(id -u)
    while IFS= read -r candidate; do
        if [ -S "$candidate" ]; then
            # Only a socket of our own (or root's): another user's could be an impostor.
            owner=$(stat -c %u "$candidate")
            if [ "$owner" != "$uid" ] && [ "$owner" != 0 ]; then
                echo "refusing $candidate: it belongs to uid $owner, not to you" >&2
                exit 2
            fi
            printf '%s\n' "$candidate"
            return
        fi
        tried+=("$candidate")
    done < <(socket_candidates)
    no_daemon "${tried[@]}"
}

# Says that no daemon answers and what to do, then exits 2. The advice is the CLI's when it is
# installed: one advice for every client, from what this machine has (a user manager or none, the
# command line the daemon was last started with, its --api-url included). Without the CLI, that
# command line from beside the socket (SOCKET.how-to-start), as the CLI would give it.
no_daemon() {
    local advice hint candidate
    if command -v onthemap >/dev/null && ! advice=$(onthemap status 2>&1 >/dev/null) && [ -n "$advice" ]; then
        printf '%s\n' "${advice#onthemap: }" >&2
        exit 2
    fi
    for candidate in "$@"; do
        if [ -r "$candidate.how-to-start" ]; then
            # The file's first line, with no control character: it is printed to a terminal.
            hint=$(head -n 1 "$candidate.how-to-start" | tr -d '[:cntrl:]')
            [ -n "$hint" ] && break
        fi
    done
    if [ -n "${hint:-}" ]; then
        echo "cannot reach onthemapd. Start it again as it was started: \`$hint\`. Tried $*." >&2
    elif [ -n "${ONTHEMAP_SOCKET:-}" ]; then
        # The Neovim plugin's words without the CLI, for the same socket.
        echo "cannot reach onthemapd. Start one with \`onthemapd --socket $(shell_quote "$ONTHEMAP_SOCKET")\`. Tried $*." >&2
    else
        echo "cannot reach onthemapd. Start onthemapd: onthemapd(1) says how. Tried $*." >&2
    fi
    exit 2
}

# One word for a POSIX shell, to paste into a command: bare when made only of [A-Za-z0-9_./-], else in
# single quotes (a quote inside becomes '\''), as the editors print it; printf %q would use backslashes.
shell_quote() {
    case $1 in
    '' | *[!A-Za-z0-9_./-]*) printf "'%s'" "${1//\'/\'\\\'\'}" ;;
    *) printf '%s' "$1" ;;
    esac
}
if [ "${1:-}" = candidates ]; then
    socket_candidates
    exit 0
fi
SOCKET=$(find_socket)

rpc() {  # rpc METHOD [PARAMS-JSON]: prints the result, or the error on stderr (exit 1)
    local request
    request=$(jq -cn --arg method "$1" --argjson params "${2:-{\}}" '{jsonrpc:"2.0",id:1,method:$method,params:$params}')
    local reply
    reply=$(printf '%s\n' "$request" | socat -t 10 - "UNIX-CONNECT:$SOCKET")
    if jq -e 'has("error")' <<<"$reply" >/dev/null; then
        jq -r '.error.message' <<<"$reply" >&2
        return 1
    fi
    jq '.result' <<<"$reply"
}

case "${1:-status}" in
status)
    rpc status | jq -r '"logged in: \(.loggedIn)  students: \(.students.count)  stale: \(.students.stale)"'
    ;;
students)
    rpc students "{\"limit\":${2:-10}}" | jq -r '.students[] | "\(.firstName) \(.lastName)\t\(.mapString)\t\(.mediaURL)"'
    ;;
watch)
    # Subscribe, then print each notification's method as it arrives.
    { printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"subscribe"}'; sleep infinity; } |
        socat - "UNIX-CONNECT:$SOCKET" | jq --unbuffered -r 'select(.method) | "\(.method): \(.params | tostring | .[0:100])"'
    ;;
*)
    echo "usage: $0 status | students [N] | watch | candidates" >&2
    exit 64
    ;;
esac
