#!/usr/bin/env bash
# Installs the packages `make deb` built with dpkg -i on this machine (root), checks what a user
# meets first, and removes them again:
# - `--version` of the three installed programs is the version of the packages;
# - the programs carry no Swift runtime dependency (they run without a toolchain);
# - `systemd-analyze verify` accepts the installed units (with their man pages in place);
# - the installed server serves /healthz from a fresh database;
# - the installed daemon and client, release builds as users get them, log in to it and fetch a
#   list of several pages ending in a short one (a release-only crash once slipped past the debug
#   tests there).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="$(scripts/version.sh)"
ARCH="$(dpkg --print-architecture)"
OUT="${DEB_OUTPUT_DIR:-dist}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
scratch="$(mktemp -d)"
server_pid=""
daemon_pid=""
cleanup() {
    # `|| true`: under `set -e` a failed kill (the process died: what the checks look for) would
    # end the trap before the packages are purged.
    [ -n "$daemon_pid" ] && { kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; } || true
    [ -n "$server_pid" ] && { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; } || true
    $SUDO dpkg --purge onthemap onthemap-server >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT

$SUDO dpkg -i "$OUT/onthemap_${VERSION}_${ARCH}.deb" "$OUT/onthemap-server_${VERSION}_${ARCH}.deb"
for program in onthemap onthemapd onthemap-server; do
    printed="$("/usr/bin/$program" --version)"
    [ "$printed" = "$VERSION" ] || { echo "check-deb: $program --version printed '$printed', not $VERSION" >&2; exit 1; }
    if ldd "/usr/bin/$program" 2>&1 | grep -q libswift; then
        echo "check-deb: /usr/bin/$program needs the Swift runtime:" >&2; ldd "/usr/bin/$program" >&2; exit 1
    fi
    echo "ok: /usr/bin/$program --version = $printed"
    # What it was built with: the version of swift-nio it names is the one the package records.
    recorded="$(jq -r '[.. | objects | select(.identity? == "swift-nio") | .version][0]' \
        "/usr/share/doc/$( [ "$program" = onthemap-server ] && echo onthemap-server || echo onthemap )/dependencies.json")"
    named="$("/usr/bin/$program" --version --verbose | awk '$1 == "swift-nio" { print $2 }')"
    [ -n "$recorded" ] && [ "$named" = "$recorded" ] ||
        { echo "check-deb: $program --version --verbose names swift-nio '$named', the package records '$recorded'" >&2; exit 1; }
    echo "ok: /usr/bin/$program was built with swift-nio $named, as dependencies.json says"
done

# As root, verify would leave /run/systemd/systemd-units-load behind: give it a private /run/systemd.
$SUDO unshare --mount /bin/sh -c 'mount -t tmpfs tmpfs /run/systemd && exec systemd-analyze verify /lib/systemd/system/onthemap-server.service'
mkdir -m 700 "$scratch/runtime"
XDG_RUNTIME_DIR="$scratch/runtime" systemd-analyze --user verify /usr/lib/systemd/user/onthemapd.socket /usr/lib/systemd/user/onthemapd.service
echo "ok: systemd-analyze verify /lib/systemd/system/onthemap-server.service onthemapd.socket onthemapd.service"

/usr/bin/onthemap-server serve --create --db "$scratch/db.sqlite" --port 0 >"$scratch/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do
    grep -q "listening on" "$scratch/server.log" && break
    sleep 0.1
done
url="$(sed -n 's/.*listening on \(http[^ ]*\)\/v1$/\1/p' "$scratch/server.log")"
[ -n "$url" ] || { echo "check-deb: the installed server did not start:" >&2; cat "$scratch/server.log" >&2; exit 1; }
curl -fsS "$url/healthz"
echo "ok: the installed onthemap-server answers $url/healthz"

# 3,210 students: pages of 1,000 at skip 0, 1,000 and 2,000, then a short one of 210 (the demo
# account adds none); the daemon caches up to 5,000, so the short page ends the list.
/usr/bin/onthemap-server seed --db "$scratch/db.sqlite" --demo --count 3210 --bcrypt-cost 4 >/dev/null
mkdir -m 700 "$scratch/daemon"
XDG_STATE_HOME="$scratch/daemon/state" XDG_CACHE_HOME="$scratch/daemon/cache" XDG_CONFIG_HOME="$scratch/daemon/config" \
    /usr/bin/onthemapd --socket "$scratch/daemon/d.sock" --api-url "$url/v1" --cache-size 5000 >"$scratch/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 1 100); do grep -q "listening" "$scratch/daemon.log" && break; sleep 0.1; done
grep -q "listening" "$scratch/daemon.log" || { echo "check-deb: the installed onthemapd did not start:" >&2; cat "$scratch/daemon.log" >&2; exit 1; }
# The release daemon links the Swift runtime in, and runs Swift concurrency on its event loops only if
# SwiftNIO's take-over found the runtime's hook (scripts/swift-build-static.sh): otherwise it
# still serves, but wakes once a second while idle, and says so in its log.
if grep -q "could not be moved onto the event loops" "$scratch/daemon.log"; then
    echo "check-deb: the installed onthemapd did not take over Swift concurrency (its hook is not exported):" >&2
    cat "$scratch/daemon.log" >&2; exit 1
fi
echo "ok: the installed onthemapd runs Swift concurrency on its event loops"
export ONTHEMAP_SOCKET="$scratch/daemon/d.sock"
fetched="$( (echo onthemap-demo | /usr/bin/onthemap login --username demo@onthemap.example --password-stdin >/dev/null 2>&1 \
    && /usr/bin/onthemap students --refresh --limit 5000 --json | jq length) || true)"
if [ "$fetched" != 3210 ] || ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "check-deb: the installed daemon cached '$fetched' of 3210 students:" >&2; cat "$scratch/daemon.log" >&2; exit 1
fi
echo "ok: the installed onthemapd fetched 3210 students in 4 pages; the installed onthemap listed them"
