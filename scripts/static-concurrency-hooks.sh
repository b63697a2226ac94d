#!/usr/bin/env bash
# Prints the path of the Swift runtime's own concurrency hooks object (ConcurrencyHooks.cpp.o, taken
# out of the toolchain's static libswift_Concurrency.a into .build/static-runtime/), for a release
# build of onthemapd: `ONTHEMAP_CONCURRENCY_HOOKS_OBJECT="$(scripts/static-concurrency-hooks.sh)"`.
#
# Why: onthemapd runs Swift concurrency on its event loops through SwiftNIO's take-over, which finds
# the runtime's `swift_task_enqueueGlobal_hook` with dlsym. With the runtime linked in statically,
# swiftc links its archives with `--exclude-libs ALL`, which makes every symbol taken from an archive
# local, and no linker flag exports a local symbol (gold: "Cannot export local symbol"). The same
# object, linked as an object of the program (Package.swift adds it to onthemapd's link when this
# variable is set), is not from an archive: `-export-dynamic` exports its hooks, and the archive's copy
# is never pulled in. Nothing is re-implemented: it is the toolchain's object, byte for byte.
# Only for --static-swift-stdlib builds: with the shared runtime the hook is in libswift_Concurrency.so,
# and linking the object beside it fails ("protected symbol … is not defined locally"), so set the
# variable for those builds alone, never in a shell a debug build or `make test` inherits.
set -euo pipefail
cd "$(dirname "$0")/.."
resources="$(swiftc -print-target-info | jq -r .paths.runtimeResourcePath)"
archive="$(dirname "$resources")/swift_static/linux/libswift_Concurrency.a"
[ -f "$archive" ] || { echo "static-concurrency-hooks: no static Swift runtime at $archive" >&2; exit 1; }
out="$PWD/.build/static-runtime"
mkdir -p "$out"
# Extracted again only when the toolchain's archive changed, so a rebuild does not relink for nothing.
if [ ! -f "$out/ConcurrencyHooks.cpp.o" ] || [ "$archive" -nt "$out/ConcurrencyHooks.cpp.o" ]; then
    (cd "$out" && ar x "$archive" ConcurrencyHooks.cpp.o && touch ConcurrencyHooks.cpp.o)
fi
echo "$out/ConcurrencyHooks.cpp.o"
