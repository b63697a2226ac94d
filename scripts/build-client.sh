#!/usr/bin/env bash
# Builds the release `onthemap` as it is installed and measured, and prints its path.
#
# - `-static-executable`: no dynamic loader and no libswiftCore.so to map and relocate; the client
#   starts in about half the time of one linked against the shared Swift libraries.
# - lld with `scripts/onthemap.order` (written by `scripts/client-symbol-order.py`): the code and data
#   `onthemap status` touches are laid out together, so start-up faults in a few pages instead of
#   pages spread over the whole executable. Names missing from the list (code changed since it was
#   written) are ignored by the linker: a stale list costs speed, never correctness, and so
#   `make bench` checks that the list is current (Tests/OnTheMapCLITests/ClientLinkOrderTests.swift).
# - `-function-sections`: each Swift function in a section of its own, so the order moves what
#   `status` runs and nothing else (a file's whole code was one section: six small functions of
#   ArgumentParser's brought 120 KB of it into the start-up region). The link map next to the
#   client tells the order script which sections it cannot split (the prebuilt libraries'); its
#   names are left mangled, as the order list spells them.
# - `-disable-concrete-type-metadata-mangled-name-accessors`: the metadata of a generic type
#   (`[String]`, the reply's `[(String, WireJSON)]`) is fetched through its accessor function instead
#   of by the runtime demangling its mangled name, once per type and process. Five such types on the
#   status path cost about 25 µs of a 0.9 ms run (1.13x the C client without the flag, 1.10x with).
# - ONTHEMAP_STATIC_CLIENT: the client keeps its own command line instead of linking the runtime's
#   /proc/self/maps scan, which runs before `main` (Sources/CClientStart/argv.c). Its C is compiled
#   with DWARF 4 debug information: Valgrind 3.19 (Debian 12) gives up on clang's DWARF 5, and
#   scripts/client-symbol-order.py runs the client under Valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$(swift build -c release --scratch-path .build-client --show-bin-path)"
FLAGS=(
    -Xswiftc -static-executable -Xswiftc -use-ld=lld
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xcc -DONTHEMAP_STATIC_CLIENT -Xcc -gdwarf-4
    -Xswiftc -Xfrontend -Xswiftc -function-sections
    -Xlinker --symbol-ordering-file="$PWD/scripts/onthemap.order" -Xlinker --no-warn-symbol-ordering
    -Xlinker -Map="$BIN/onthemap.map" -Xlinker --no-demangle
    "$@"
)
# SwiftPM does not recompile what it built before when these flags change (a build from before
# -function-sections kept its packages' whole-file sections): start over when they differ.
STAMP="$BIN/onthemap.flags"
if [ "$(cat "$STAMP" 2>/dev/null)" != "${FLAGS[*]}" ]; then
    rm -rf "$BIN" .build-client/build.db
fi
mkdir -p "$BIN"
# SwiftPM does not know the order file is an input of the link: remove the product so it relinks.
rm -f "$BIN/onthemap"
swift build -c release --product onthemap --scratch-path .build-client "${FLAGS[@]}" >&2
printf '%s' "${FLAGS[*]}" >"$STAMP"
echo "$BIN/onthemap"
