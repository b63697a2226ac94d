#!/usr/bin/env bash
# Builds the three release programs as they are installed and packaged, in one release build with
# the Swift runtime linked in (--static-swift-stdlib), so they run without a Swift toolchain (libc,
# libstdc++, libsystemd and libsqlite3 stay shared).
# Prints the three paths as shell assignments (ONTHEMAP_SERVER_BIN=…, ONTHEMAPD_BIN=…, ONTHEMAP_BIN=…),
# and writes the resolved dependencies to .build/dependencies.json.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in onthemap-server onthemapd onthemap; do
    ./scripts/swift-build-static.sh --product "$product" >&2
done
bin="$(./scripts/swift-build-static.sh --show-bin-path)"
# What the three were built with, for the packages (/usr/share/doc/onthemap*/dependencies.json): every
# dependency is linked in, so a security fix in one means a rebuild. The checkouts' local paths left out.
swift package show-dependencies --format json | jq 'walk(if type == "object" then del(.path) else . end)' \
    >.build/dependencies.json
echo "ONTHEMAP_SERVER_BIN=$bin/onthemap-server"
echo "ONTHEMAPD_BIN=$bin/onthemapd"
echo "ONTHEMAP_BIN=$bin/onthemap"
