#!/usr/bin/env python3
"""Where the bytes of the release programs and packages go.

Usage: scripts/binary-sizes.py PROGRAM... [--deb FILE.deb ...] [--report REPORT.md]
PROGRAM is a release build as linked (with its symbol table); it is measured as installed too (a
stripped copy, as scripts/install.sh strips). Prints a Markdown section for docs/benchmarks.md; with
--report, writes it to REPORT.md and the guards and targets to REPORT.md.guards and .targets, as the
bench scripts do (Benchmarks/benchkit.py): issue 38's `onthemapd` installed ≤ 50 MiB and
`onthemap` .deb ≤ 20 MiB, each next to the server (which keeps full Foundation), and issue 31's
each .deb ≤ 30 MB.

The breakdown reads the ELF sections (`size -A`) and the symbols (`nm -S`): the embedded gazetteer
and world map (sections of their own), code, unwind tables and Swift's metadata; and how much of
each of the toolchain's Foundation libraries was linked in, by the names each static library
defines (ICU's data is one symbol, `icudtNN_dat`).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MB = 1024 * 1024
DAEMON_INSTALLED_GUARD_MIB = 50
CLIENT_DEB_GUARD_MIB = 20
DEB_TARGET_MIB = 30
# The toolchain's Foundation, part by part (its static archives, `--static-swift-stdlib`). A symbol
# counts for the first part that defines it, and not at all when the standard library does too (the
# same generic specialisation is emitted by many modules): FoundationEssentials and the C shims and
# collections it is built on first, so what a later part adds is what it alone brings.
FOUNDATION_PARTS = [
    ("FoundationEssentials", ["libFoundationEssentials.a", "lib_FoundationCShims.a", "lib_FoundationCollections.a"]),
    ("Foundation, CoreFoundation", ["libFoundation.a", "libCoreFoundation.a"]),
    ("FoundationInternationalization", ["libFoundationInternationalization.a"]),
    ("ICU code", ["lib_FoundationICU.a"]),
    ("FoundationNetworking, FoundationXML", ["libFoundationNetworking.a", "libFoundationXML.a"]),
]


def sections(path):
    """{section name: size} from `size -A`."""
    out = subprocess.run(["size", "-A", path], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] != "Total" and parts[1].isdigit():
            found[parts[0]] = int(parts[1])
    return found


def symbol_sizes(path):
    """{name: size} of the symbols path defines (an archive's members together)."""
    out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            found[parts[3]] = int(parts[1], 16)
    return found


def toolchain_static_libraries():
    """The folder of the toolchain's static Swift libraries (swift_static/linux)."""
    info = json.loads(subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True, check=True).stdout)
    return os.path.join(os.path.dirname(info["paths"]["runtimeResourcePath"]), "swift_static", "linux")


def foundation_parts():
    """[(part, the names only it defines)], in FOUNDATION_PARTS' order."""
    static = toolchain_static_libraries()
    seen = set(symbol_sizes(os.path.join(static, "libswiftCore.a")))
    parts = []
    for name, archives in FOUNDATION_PARTS:
        names = set()
        for archive in archives:
            if os.path.exists(os.path.join(static, archive)):
                names |= set(symbol_sizes(os.path.join(static, archive)))
        parts.append((name, names - seen))
        seen |= names
    return parts


def foundation_bytes(symbols, parts):
    """{part: bytes of the program's symbols that part defines}, ICU's data apart."""
    found = {name: sum(size for symbol, size in symbols.items() if symbol in names and not ICU_DATA.fullmatch(symbol))
             for name, names in parts}
    found["ICU data"] = sum(size for symbol, size in symbols.items() if ICU_DATA.fullmatch(symbol))
    return found


ICU_DATA = re.compile(r"icudt\d+_dat")


def stripped_size(path):
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "program")
        shutil.copy(path, copy)
        subprocess.run(["strip", copy], check=True)
        return os.path.getsize(copy)


def mb(n):
    return f"{n / MB:.1f}"


def main(argv):
    programs, debs, report = [], [], None
    arguments = iter(argv)
    target = programs
    for arg in arguments:
        if arg == "--deb":
            target = debs
        elif arg == "--report":
            report = next(arguments)
        else:
            target.append(arg)
    parts_of_foundation = foundation_parts()
    out = ["## Sizes: where the bytes go", ""]
    out.append("`scripts/binary-sizes.py` on the release builds above and on the packages `make deb` built from them")
    out.append("(xz). \"installed\" is the program stripped as `make install` strips it; the parts are its sections")
    out.append("(`size -A`). MiB throughout.")
    out.append("")
    out.append("| program | as built | installed | gazetteer | world map | code (.text) | read-only data | unwind (.eh_frame*) | Swift metadata | debug sections |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    installed, foundation = {}, {}
    for path in programs:
        name = os.path.basename(path)
        parts = sections(path)
        foundation[name] = foundation_bytes(symbol_sizes(path), parts_of_foundation)
        installed[name] = stripped_size(path)
        gazetteer = parts.get(".onthemap.gazetteer", 0)
        world = sum(v for k, v in parts.items() if k.startswith(".onthemap.world") or k.startswith(".onthemap.labels"))
        unwind = sum(v for k, v in parts.items() if k.startswith(".eh_frame") or k == ".gcc_except_table")
        metadata = sum(v for k, v in parts.items() if k.startswith("swift5_") or k.startswith(".swift"))
        debug = sum(v for k, v in parts.items() if k.startswith(".debug"))
        out.append(
            f"| `{name}` | {mb(os.path.getsize(path))} | {mb(installed[name])} | {mb(gazetteer)} | {mb(world)} "
            f"| {mb(parts.get('.text', 0))} | {mb(parts.get('.rodata', 0))} | {mb(unwind)} | {mb(metadata)} | {mb(debug)} |")
    out.append("")
    out.append("How much of the toolchain's Foundation each program links: the sizes of its symbols that each part's")
    out.append("static libraries define and the standard library does not (code and data; a part is counted")
    out.append("only for what the parts before it do not define; ICU's data is its one `icudtNN_dat` symbol).")
    out.append("")
    columns = [name for name, _ in parts_of_foundation] + ["ICU data"]
    out.append("| program | " + " | ".join(columns) + " |")
    out.append("| --- |" + " ---: |" * len(columns))
    for name, parts in foundation.items():
        out.append(f"| `{name}` | " + " | ".join(mb(parts.get(column, 0)) for column in columns) + " |")
    guards, targets = [], []
    daemon, server = installed.get("onthemapd"), installed.get("onthemap-server")
    if daemon is not None:
        left = foundation["onthemapd"]
        server_icu = sum(foundation.get("onthemap-server", {}).get(part, 0) for part in ("ICU code", "ICU data"))
        icu = left.get("ICU code", 0) + left["ICU data"]
        beyond = sum(size for part, size in left.items() if part not in ("FoundationEssentials", "ICU code", "ICU data"))
        guards.append(
            f"7\t| `onthemapd` installed ≤ {DAEMON_INSTALLED_GUARD_MIB} MiB | {mb(daemon)} MiB (ICU left: {mb(icu)} MiB; Foundation "
            f"beyond FoundationEssentials: {mb(beyond)} MiB; FoundationEssentials {mb(left['FoundationEssentials'])} MiB) "
            f"| `onthemap-server` {mb(server or 0)} MiB (ICU {mb(server_icu)} MiB) | "
            f"{'met' if daemon <= DAEMON_INSTALLED_GUARD_MIB * MB else '**missed**'} |")
    if debs:
        out.append("")
        out.append("| package | .deb | installed size |")
        out.append("| --- | ---: | ---: |")
        sizes = {}
        for deb in debs:
            size = os.path.getsize(deb)
            package = os.path.basename(deb).split("_")[0]
            sizes[package] = size
            installed_size = subprocess.run(["dpkg-deb", "-f", deb, "Installed-Size"], capture_output=True, text=True).stdout.strip()
            out.append(f"| `{os.path.basename(deb)}` | {mb(size)} | {int(installed_size) / 1024:.1f} |")
            # Issue 31's target; issue 38's guard for the client's package (below) is tighter.
            if package != "onthemap":
                targets.append(f"| `{package}` .deb ≤ {DEB_TARGET_MIB} MiB | {mb(size)} MiB | {'met' if size <= DEB_TARGET_MIB * MB else '**missed**'} |")
        if "onthemap" in sizes:
            guards.append(
                f"7\t| `onthemap` .deb ≤ {CLIENT_DEB_GUARD_MIB} MiB | {mb(sizes['onthemap'])} MiB | "
                f"`onthemap-server` .deb {mb(sizes.get('onthemap-server', 0))} MiB | "
                f"{'met' if sizes['onthemap'] <= CLIENT_DEB_GUARD_MIB * MB else '**missed**'} |")
    text = "\n".join(out) + "\n"
    print(text, end="")
    if report:
        open(report, "w").write(text)
        open(report + ".guards", "w").write("".join(line + "\n" for line in guards))
        open(report + ".targets", "w").write("".join(line + "\n" for line in targets))
    else:
        for line in guards + targets:
            print(line, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
