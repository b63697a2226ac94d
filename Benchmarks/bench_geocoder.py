#!/usr/bin/env python3
"""The offline geocoder on the query set: runs geocoder-bench and writes its figures as Markdown.

    bench_geocoder.py GEOCODER_BENCH QUERIES.tsv REPORT.md
"""
import subprocess
import sys

bench, queries, report = sys.argv[1:4]
output = subprocess.run([bench, "--queries", queries, "--rounds", "20"], check=True, capture_output=True, text=True).stdout
figures = dict(line.split(" ", 1) for line in output.strip().splitlines())
print(output)

accuracy = float(figures["accuracy_percent"])
junk = float(figures["junk_rejected_percent"])
p50, p99 = float(figures["p50_us"]), float(figures["p99_us"])
added = float(figures["rss_added_mib"])
lines = [
    f"{figures['queries']} queries from `Benchmarks/geocoder/queries.tsv` (expected coordinates entered by hand from",
    "Wikipedia, not from GeoNames); each is timed 20 times in the benchmark's own process.",
    "",
    "| figure | value |",
    "| --- | --- |",
    f"| places right (within 25 km; regions and countries by code) | {accuracy:.1f}% |",
    f"| &nbsp;&nbsp;localities | {figures['correct_locality']} |",
    f"| &nbsp;&nbsp;regions | {figures['correct_region']} |",
    f"| &nbsp;&nbsp;countries | {figures['correct_country']} |",
    f"| junk rejected | {junk:.1f}% ({figures['correct_junk']}) |",
    f"| time per query, p50 / p99 | {p50:.1f} µs / {p99:.1f} µs |",
    f"| loading and indexing on first use | {float(figures['load_ms']):.0f} ms |",
    f"| RSS added by loading | {added:.1f} MiB |",
    f"| RSS added, after all the timed queries | {float(figures['rss_added_after_queries_mib']):.1f} MiB |",
]
open(report, "w").write("\n".join(lines) + "\n")
verdicts = [
    ("geocoder ≥ 95% right", accuracy >= 95, f"{accuracy:.1f}%"),
    ("geocoder rejects 100% of junk", junk >= 100, f"{junk:.1f}%"),
    ("geocoder p50 ≤ 1 ms", p50 <= 1000, f"{p50:.1f} µs"),
    ("geocoder adds ≤ 30 MiB", added <= 30, f"{added:.1f} MiB"),
]
# Targets of earlier issues (scripts/bench.sh puts them in the page's second table).
open(report + ".targets", "w").write(
    "".join(f"| {name} | {detail} | {'met' if ok else '**missed**'} |\n" for name, ok, detail in verdicts))
