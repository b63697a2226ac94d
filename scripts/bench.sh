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
# The three programs as installed (scripts/build-release.sh), and the benchmarks' own, from the same
# release build.
eval "$(./scripts/build-release.sh)"
for product in geocoder-bench map-bench nio-canned-server; do
    ./scripts/swift-build-static.sh --product "$product"
done
BIN="$(./scripts/swift-build-static.sh --show-bin-path)"
WORK="$(mktemp -d)"
trap 'kill $(cat "$WORK"/*.pid 2>/dev/null) 2>/dev/null || true; rm -rf "$WORK"' EXIT
for tool in status_client canned_server rpc_load; do
    gcc -O2 -Wall -o "$WORK/$tool" "Benchmarks/c/$tool.c" -lm
done
# Measured as installed: symbols stripped (`install -s`).
install -s "$ONTHEMAP_BIN" "$WORK/onthemap"
CLIENT="$WORK/onthemap"
# The machine is shared: the load average before each part goes into the page.
load() { printf '| %s | %s |\n' "$1" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$WORK/load.md"; }

echo "==> the daemon: round trips, 256 connections, idle, memory, READY, geocoder, scaling"
load "the daemon (\`bench_daemon.py\`)"
mkdir -p "$WORK/daemon"
python3 Benchmarks/bench_daemon.py "$BIN" "$WORK" "$WORK/daemon" "$WORK/daemon.md"

echo "==> onthemap status, whole process"
load "\`onthemap status\` (\`bench_client.py\`)"
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

echo "==> the map: round trips, drawing, onthemap map, map -i, memory"
load "the map (\`bench_map.py\`)"
python3 Benchmarks/bench_map.py "$BIN" "$CLIENT" "$WORK" "$WORK" "$WORK/map.md"

echo "==> the offline geocoder"
load "the geocoder (\`bench_geocoder.py\`)"
python3 Benchmarks/bench_geocoder.py "$BIN/geocoder-bench" Benchmarks/geocoder/queries.tsv "$WORK/geocoder.md"

echo "==> sizes: the programs and the packages (xz, as make deb builds them)"
make deb >"$WORK/debs.txt"
# shellcheck disable=SC2046
python3 scripts/binary-sizes.py "$BIN/onthemapd" "$BIN/onthemap-server" "$BIN/onthemap" --deb $(grep '\.deb$' "$WORK/debs.txt") \
    --report "$WORK/sizes.md"

echo "==> the web page in Chromium"
load "the web page (\`scripts/bench-web.sh\`)"
ONTHEMAP_SERVER_BIN="$BIN/onthemap-server" ./scripts/bench-web.sh >/dev/null
load "(after the last part)"

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
MEMORY="$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
COMMIT="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift Benchmarks scripts || echo ', with local changes')"
# The sections measured by their own scripts are kept as they are: the server's (scripts/bench-server.sh),
# the web page's (just written by scripts/bench-web.sh), the replicas under CPU quotas
# (scripts/bench-server-quota.sh, root only).
for section in server web server-quota; do
    sed -n "/<!-- $section-bench:start -->/,/<!-- $section-bench:end -->/p" docs/benchmarks.md >"$WORK/$section-section.md" || true
done
{
    echo "# Benchmarks"
    echo
    echo "Produced by \`make bench\` (\`scripts/bench.sh\`) on $(date -u +%Y-%m-%d) at $COMMIT, on a virtual"
    echo "machine with $(nproc) cores ($CPU) and $MEMORY, $(uname -sr), shared with other engineers'"
    echo "builds. Release programs from one \`swift build -c release --static-swift-stdlib\`"
    echo "(\`scripts/build-release.sh\`), the client a static executable; the client measured as installed (stripped). Every figure is measured"
    echo "next to its baseline in the same minutes, so a busy machine slows both; absolute times move with the"
    echo "load. Load average (1, 5 and 15 minutes) as each part began:"
    echo
    echo "| part | load average |"
    echo "| --- | --- |"
    cat "$WORK/load.md"
    echo
    echo "## Issue 38's guards"
    echo
    echo "| guard | measured | baseline, same run | |"
    echo "| --- | --- | --- | --- |"
    cat "$WORK/client.md.guards" "$WORK/daemon.md.guards" "$WORK/map.md.guards" "$WORK/sizes.md.guards" |
        sort -s -n -k1,1 | cut -f2-
    echo
    echo "The baselines are written for the purpose: \`Benchmarks/c/status_client.c\` sends \`status\` and prints"
    echo "the reply; \`Benchmarks/c/canned_server.c\` answers each request line with the bytes the daemon itself"
    echo "sent for it (one thread, epoll); \`Benchmarks/NIOCannedServer\` does the same with SwiftNIO alone (as"
    echo "information: the floor for any server on SwiftNIO); \`Benchmarks/c/rpc_load.c\` drives all the servers"
    echo "alike. The sizes' baseline is the server, which keeps full Foundation (GRDB and PostgresNIO use it)."
    echo
    echo "## Other targets, from earlier issues"
    echo
    echo "| target | measured | |"
    echo "| --- | --- | --- |"
    cat "$WORK/daemon.md.targets" "$WORK/map.md.targets" "$WORK/geocoder.md.targets" "$WORK/sizes.md.targets"
    echo
    echo "# The daemon"
    echo
    cat "$WORK/daemon.md"
    echo "# \`onthemap status\`, start to exit"
    echo
    echo "hyperfine, no shell, warm-up runs first, 5 rounds alternating the commands. The baseline is"
    echo "\`Benchmarks/c/status_client.c\`. socat runs under \`sh -c\` (it needs the pipe), so its figure includes"
    echo "a shell. Each binary is first dropped from the page cache and run once, so its pages are cached as"
    echo "after a reboot. Page faults: minor faults per run, counted by the kernel for the reaped process. The"
    echo "daemon answering is a release build caching the server's 100 newest demo students."
    echo
    cat "$WORK/client.md"
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
    cat "$WORK/sizes.md"
    echo
    cat Benchmarks/analysis.md
    for section in server server-quota web; do
        if [ -s "$WORK/$section-section.md" ]; then echo; cat "$WORK/$section-section.md"; fi
    done
} >docs/benchmarks.md
echo "==> wrote docs/benchmarks.md"
