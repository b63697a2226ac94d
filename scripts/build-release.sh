#!/usr/bin/env bash
# Builds the three release programs as they are installed and packaged:
# - onthemap-server and onthemapd with the Swift runtime linked in (--static-swift-stdlib), so they run
#   without a Swift toolchain (libc, libstdc++, libsystemd and libsqlite3 stay shared);
# - onthemap by scripts/build-client.sh, the way it is measured (static, linked in start-up order).
# Prints the three paths as shell assignments (ONTHEMAP_SERVER_BIN=…, ONTHEMAPD_BIN=…, ONTHEMAP_BIN=…),
# and writes the resolved dependencies to .build/dependencies.json.
# One scratch directory for the server and the daemon, the one `make bench` uses, so the second
# product and a later bench reuse the first one's compiled dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/swift-build-static.sh --product onthemap-server >&2
./scripts/swift-build-static.sh --product onthemapd >&2
bin="$(./scripts/swift-build-static.sh --show-bin-path)"
client="$(./scripts/build-client.sh)"
# What the three were built with, for the packages (/usr/share/doc/onthemap*/dependencies.json): every
# dependency is linked in, so a security fix in one means a rebuild. The checkouts' local paths left out.
swift package show-dependencies --format json | jq 'walk(if type == "object" then del(.path) else . end)' \
    >.build/dependencies.json
echo "ONTHEMAP_SERVER_BIN=$bin/onthemap-server"
echo "ONTHEMAPD_BIN=$bin/onthemapd"
echo "ONTHEMAP_BIN=$client"
