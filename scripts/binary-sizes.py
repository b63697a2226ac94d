#!/usr/bin/env python3
"""Where the bytes of the release programs and packages go (issue 31, point 12).

Usage: scripts/binary-sizes.py PROGRAM... [--deb FILE.deb ...]
PROGRAM is a release build as linked (with its symbol table); it is measured as installed too (a
stripped copy, as scripts/install.sh strips). Prints a Markdown section for docs/benchmarks.md, and
a verdict line per package against the target (each .deb ≤ 30 MB).

The breakdown reads the ELF sections (`size -A`) and the largest symbols (`nm -S`): ICU's data (which
full Foundation links in: AsyncHTTPClient and NIOFoundationCompat import Foundation, so the daemon
and the server carry it even though our own modules use FoundationEssentials), the embedded
gazetteer and world map (sections of their own), code, unwind tables and Swift's metadata.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEB_TARGET_MB = 30
MB = 1024 * 1024


def sections(path):
    """{section name: size} from `size -A`."""
    out = subprocess.run(["size", "-A", path], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] != "Total" and parts[1].isdigit():
            found[parts[0]] = int(parts[1])
    return found


def icu_data_bytes(path):
    """The size of ICU's common data symbol (icudtNN_dat), 0 when not linked in."""
    out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True, text=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.fullmatch(r"icudt\d+_dat", parts[3]):
            total += int(parts[1], 16)
    return total


def stripped_size(path):
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "program")
        shutil.copy(path, copy)
        subprocess.run(["strip", copy], check=True)
        return os.path.getsize(copy)


def mb(n):
    return f"{n / MB:.1f}"


def main(argv):
    programs, debs = [], []
    target = programs
    for arg in argv:
        if arg == "--deb":
            target = debs
            continue
        target.append(arg)
    out = ["## Sizes: where the bytes go", ""]
    out.append("Produced by `scripts/binary-sizes.py` from the release builds (`make bench`). \"installed\" is the")
    out.append("program stripped as `make install` strips it; the parts are its sections (`size -A`) and ICU's")
    out.append("data symbol (`nm -S`). MB = MiB.")
    out.append("")
    out.append("| program | as built | installed | ICU data | gazetteer | world map | code (.text) | other read-only | unwind (.eh_frame*) | Swift metadata | debug sections |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in programs:
        parts = sections(path)
        icu = icu_data_bytes(path)
        gazetteer = parts.get(".onthemap.gazetteer", 0)
        world = sum(v for k, v in parts.items() if k.startswith(".onthemap.world") or k.startswith(".onthemap.labels"))
        text = parts.get(".text", 0)
        rodata = parts.get(".rodata", 0)
        unwind = sum(v for k, v in parts.items() if k.startswith(".eh_frame") or k == ".gcc_except_table")
        metadata = sum(v for k, v in parts.items() if k.startswith("swift5_") or k.startswith(".swift"))
        debug = sum(v for k, v in parts.items() if k.startswith(".debug"))
        out.append(
            f"| `{os.path.basename(path)}` | {mb(os.path.getsize(path))} | {mb(stripped_size(path))} | {mb(icu)} | "
            f"{mb(gazetteer)} | {mb(world)} | {mb(text)} | {mb(max(rodata - icu, 0))} | {mb(unwind)} | {mb(metadata)} | {mb(debug)} |")
    verdicts = []
    if debs:
        out.append("")
        out.append(f"| package | .deb | installed size | target ≤ {DEB_TARGET_MB} MB |")
        out.append("| --- | ---: | ---: | --- |")
        for deb in debs:
            size = os.path.getsize(deb)
            installed = subprocess.run(["dpkg-deb", "-f", deb, "Installed-Size"], capture_output=True, text=True).stdout.strip()
            ok = size <= DEB_TARGET_MB * MB
            name = os.path.basename(deb)
            out.append(f"| `{name}` | {mb(size)} | {int(installed) / 1024:.1f} | {'met' if ok else '**missed**'} |")
            verdicts.append(f"| `{name.split('_')[0]}` .deb ≤ {DEB_TARGET_MB} MB | {mb(size)} MB | {'met' if ok else '**missed**'} |")
    print("\n".join(out))
    for line in verdicts:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
