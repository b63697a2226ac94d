#!/usr/bin/env bash
# `swift build -c release --static-swift-stdlib "$@"`, as the release programs are built and measured
# (scripts/build-release.sh, make bench, scripts/bench-web.sh): the Swift runtime linked in, and
# onthemapd linked with the runtime's own concurrency hooks object.
#
# Why the object: onthemapd runs Swift concurrency on its event loops through SwiftNIO's take-over,
# which finds the runtime's `swift_task_enqueueGlobal_hook` with dlsym. With the runtime linked in
# statically, swiftc links its archives with `--exclude-libs ALL`, which makes every symbol taken from
# an archive local, and no linker flag exports a local symbol (gold: "Cannot export local symbol").
# The same object (ConcurrencyHooks.cpp.o, taken out of the toolchain's libswift_Concurrency.a into
# .build/static-runtime/), linked as an object of the program (Package.swift adds it to onthemapd's
# link when ONTHEMAP_CONCURRENCY_HOOKS_OBJECT is set), is not from an archive: `-export-dynamic`
# exports its hooks, and the archive's copy is never pulled in. Nothing is re-implemented: it is the
# toolchain's object, byte for byte.
# The variable is set for this build alone: with the shared runtime the hooks are in
# libswift_Concurrency.so, and linking the object beside it fails ("protected symbol … is not defined
# locally"), so a debug build or `make test` must never inherit it.
set -euo pipefail
cd "$(dirname "$0")/.."
resources="$(swiftc -print-target-info | jq -r .paths.runtimeResourcePath)"
archive="$(dirname "$resources")/swift_static/linux/libswift_Concurrency.a"
[ -f "$archive" ] || { echo "swift-build-static: no static Swift runtime at $archive" >&2; exit 1; }
hooks="$PWD/.build/static-runtime/ConcurrencyHooks.cpp.o"
mkdir -p "$(dirname "$hooks")"
# Extracted again only when the toolchain's archive changed, so a rebuild does not relink for nothing.
if [ ! -f "$hooks" ] || [ "$archive" -nt "$hooks" ]; then
    (cd "$(dirname "$hooks")" && ar x "$archive" ConcurrencyHooks.cpp.o && touch ConcurrencyHooks.cpp.o)
fi
ONTHEMAP_CONCURRENCY_HOOKS_OBJECT="$hooks" exec swift build -c release --static-swift-stdlib "$@"
