#!/usr/bin/env python3
"""Puts a section into docs/benchmarks.md between its markers, replacing what was there (or at the end).

Usage: scripts/bench-section.py NAME SECTION.md
The markers are <!-- NAME:start --> and <!-- NAME:end -->. Used by the benchmark scripts that measure
on their own (bench-server.sh, bench-server-quota.sh, bench-web.sh); scripts/bench.sh keeps their
sections when it rewrites the file.
"""
import os
import sys

name, section_path = sys.argv[1:3]
path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")
section = open(section_path).read()
start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
text = open(path).read()
block = f"{start}\n{section}{end}\n"
if start in text:
    text = text[:text.index(start)] + block + text[text.index(end) + len(end) + 1:]
else:
    text = text.rstrip("\n") + "\n\n" + block
open(path, "w").write(text)
