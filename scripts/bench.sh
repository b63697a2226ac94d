#!/usr/bin/env bash
# `make bench`: release builds, the real server, daemon and client, each figure next to a baseline
# measured in the same run. Prints the figures and rewrites docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
command -v hyperfine >/dev/null && command -v taskset >/dev/null || {
    apt-get install -y --no-install-recommends hyperfine gcc util-linux \
        || sudo apt-get install -y --no-install-recommends hyperfine gcc util-linux
}

echo "==> release builds"
# The three programs as installed (scripts/build-release.sh), and the benchmarks' own.
eval "$(./scripts/build-release.sh)"
swift build -c release --product geocoder-bench
./scripts/swift-build-static.sh --product map-bench
./scripts/swift-build-static.sh --product nio-canned-server
BIN="$(swift build -c release --show-bin-path)"
WORK="$(mktemp -d)"
trap 'kill $(cat "$WORK"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$WORK"' EXIT
for tool in status_client canned_server rpc_load; do
    gcc -O2 -Wall -o "$WORK/$tool" "Benchmarks/c/$tool.c"
done
# Measured as installed: symbols stripped (`install -s`).
install -s "$ONTHEMAP_BIN" "$WORK/onthemap"
CLIENT="$WORK/onthemap"

echo "==> the daemon: round trip, throughput, memory, READY, geocoder, scaling"
mkdir -p "$WORK/daemon"
python3 Benchmarks/bench_daemon.py "$BIN" "$WORK" "$WORK/daemon" "$WORK/daemon.md"

echo "==> onthemap status, whole process"
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
python3 Benchmarks/bench_client.py "$WORK/d.sock" "$CLIENT" "$WORK/status_client" "$WORK/client.md"

echo "==> the map: drawing, round trips, onthemap map, map -i, memory"
python3 Benchmarks/bench_map.py "$BIN" "$CLIENT" "$WORK" "$WORK" "$WORK/map.md"

echo "==> the offline geocoder"
python3 Benchmarks/bench_geocoder.py "$BIN/geocoder-bench" Benchmarks/geocoder/queries.tsv "$WORK/geocoder.md"

echo "==> sizes: the programs and the packages (xz, as make deb builds them)"
make deb >"$WORK/debs.txt"
# shellcheck disable=SC2046
python3 scripts/binary-sizes.py "$BIN/onthemapd" "$BIN/onthemap-server" "$CLIENT" --deb $(grep '\.deb$' "$WORK/debs.txt") \
    >"$WORK/sizes.md" 2>"$WORK/sizes.md.verdicts"

echo "==> the web page in Chromium"
ONTHEMAP_SERVER_BIN="$BIN/onthemap-server" ./scripts/bench-web.sh >/dev/null

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
# The server's section (scripts/bench-server.sh) is kept as it is: it is measured by its own script.
sed -n '/<!-- server-bench:start -->/,/<!-- server-bench:end -->/p' docs/benchmarks.md >"$WORK/server-section.md" || true
# So is the web page's, just written by scripts/bench-web.sh.
sed -n '/<!-- web-bench:start -->/,/<!-- web-bench:end -->/p' docs/benchmarks.md >"$WORK/web-section.md" || true
# And the replicas under CPU quotas (scripts/bench-server-quota.sh, root only).
sed -n '/<!-- server-quota-bench:start -->/,/<!-- server-quota-bench:end -->/p' docs/benchmarks.md >"$WORK/quota-section.md" || true
{
    echo "# Benchmarks"
    echo
    echo "Produced by \`make bench\` (\`scripts/bench.sh\`) on $(date -u +%Y-%m-%d), on a machine with"
    echo "$(nproc) cores ($CPU), $(uname -sr). Release builds: the server and daemon with the static Swift"
    echo "stdlib, the client fully static (\`-static-executable\`), linked in start-up order and stripped. Machines like this are noisy:"
    echo "compare the ratios, measured side by side in one run, not the absolute times."
    echo
    echo "## Targets"
    echo
    echo "| target | measured | |"
    echo "| --- | --- | --- |"
    cat "$WORK/daemon.md.verdicts" "$WORK/client.md.verdicts" "$WORK/geocoder.md.verdicts" "$WORK/map.md.verdicts" \
        "$WORK/sizes.md.verdicts"
    echo
    echo "The baselines are written for the purpose: \`Benchmarks/c/canned_server.c\` answers each request"
    echo "line with the bytes the daemon itself sent for it (one thread, epoll); \`Benchmarks/NIOCannedServer\`"
    echo "does the same with SwiftNIO alone; \`Benchmarks/c/status_client.c\` sends \`status\` and prints the"
    echo "reply; \`Benchmarks/c/rpc_load.c\` drives all the servers alike."
    echo
    echo "# The daemon"
    echo
    cat "$WORK/daemon.md"
    echo "# \`onthemap status\`, start to exit"
    echo
    echo "hyperfine, no shell, warm-up runs first, in 5 alternating rounds. The baseline is"
    echo "\`Benchmarks/c/status_client.c\`. socat runs under \`sh -c\` (it needs the pipe), so its figure includes a shell."
    echo "Each binary is first dropped from the page cache and run once, so its pages are cached as after a"
    echo "reboot: how they were cached moves the figure by ~10% (Benchmarks/analysis.md)."
    echo "Page faults: minor faults per run, counted by the kernel for the reaped process. The client is the"
    echo "release build as installed (\`--static-swift-stdlib\`, stripped)."
    echo
    cat "$WORK/client.md"
    echo
    echo "# The offline geocoder"
    echo
    cat "$WORK/geocoder.md"
    echo
    echo "# The map"
    echo
    echo "\`Benchmarks/bench_map.py\` and \`Benchmarks/MapBench\` (\`map-bench\`); release builds as above, against"
    echo "\`onthemap-server\` seeded with 10,000 demo students."
    echo
    cat "$WORK/map.md"
    echo
    cat "$WORK/sizes.md"
    echo
    cat Benchmarks/analysis.md
    if [ -s "$WORK/server-section.md" ]; then echo; cat "$WORK/server-section.md"; fi
    if [ -s "$WORK/quota-section.md" ]; then echo; cat "$WORK/quota-section.md"; fi
    if [ -s "$WORK/web-section.md" ]; then echo; cat "$WORK/web-section.md"; fi
} >docs/benchmarks.md
echo "==> wrote docs/benchmarks.md"
