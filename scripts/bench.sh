#!/usr/bin/env bash
# `make bench`: release builds, a real server and daemon with demo data, and each figure next to a
# baseline measured in the same run. Rewrites docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
command -v hyperfine >/dev/null || { apt-get install -y --no-install-recommends hyperfine gcc || sudo apt-get install -y hyperfine gcc; }

echo "==> release builds (static Swift stdlib)"
swift build -c release --static-swift-stdlib --product onthemap-server
swift build -c release --static-swift-stdlib --product onthemapd
# The client is linked fully static (-static-executable): it starts in about half the time.
swift build -c release --product onthemap --scratch-path .build-static -Xswiftc -static-executable
BIN="$(swift build -c release --show-bin-path)"
CLIENT="$(swift build -c release --scratch-path .build-static --show-bin-path)/onthemap"
WORK="$(mktemp -d)"
trap 'kill $(cat "$WORK"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$WORK"' EXIT
gcc -O2 -o "$WORK/status_client" Benchmarks/c/status_client.c
# Measured as installed: symbols stripped (`install -s`).
install -s "$CLIENT" "$WORK/onthemap"
CLIENT="$WORK/onthemap"

"$BIN/onthemap-server" seed --db "$WORK/db.sqlite" --demo >/dev/null
"$BIN/onthemap-server" serve --db "$WORK/db.sqlite" --port 0 --log-level error >"$WORK/server.out" 2>&1 &
echo $! >"$WORK/server.pid"
for _ in $(seq 1 100); do grep -q "listening on" "$WORK/server.out" && break; sleep 0.05; done
API="$(sed -n 's/.*listening on //p' "$WORK/server.out")"
export XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache" XDG_CONFIG_HOME="$WORK/config"
"$BIN/onthemapd" --socket "$WORK/d.sock" --api-url "$API" --log-level error >"$WORK/daemon.out" 2>&1 &
echo $! >"$WORK/daemon.pid"
for _ in $(seq 1 100); do [ -S "$WORK/d.sock" ] && break; sleep 0.05; done
echo onthemap-demo | "$CLIENT" login --socket "$WORK/d.sock" --username demo@onthemap.example --password-stdin

echo "==> onthemap status, whole process"
python3 Benchmarks/bench_client.py "$WORK/d.sock" "$CLIENT" "$WORK/status_client" "$WORK/client.md"

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
{
    echo "# Benchmarks"
    echo
    echo "Produced by \`make bench\` (\`scripts/bench.sh\`) on $(date -u +%Y-%m-%d), on a machine with"
    echo "$(nproc) cores ($CPU). Release builds: the server and daemon with the static Swift stdlib, the"
    echo "client fully static (\`-static-executable\`) and stripped. Machines like this are noisy:"
    echo "compare the ratios, measured side by side in one run, not the absolute times."
    echo
    echo "## \`onthemap status\`, start to exit"
    echo
    echo "hyperfine, no shell, 50 warm-up runs. The baseline is \`Benchmarks/c/status_client.c\`: connect, send"
    echo "the same request, print the reply. socat runs under \`sh -c\` (it needs the pipe), so its figure"
    echo "includes a shell."
    echo
    cat "$WORK/client.md"
    echo
    cat Benchmarks/client-analysis.md
} >docs/benchmarks.md
echo "==> wrote docs/benchmarks.md"
