#!/usr/bin/env python3
"""`onthemap status` as a whole process, next to a minimal C client and socat, measured in one run.

Uses hyperfine (no shell, warm-up runs first) and writes the figures into docs/benchmarks.md between
the markers for this section. Run through `make bench`, which builds release binaries and starts a
server and a daemon first.
"""
import json
import os
import subprocess
import sys
import tempfile

socket_path, onthemap, c_client, report = sys.argv[1:5]
runs = os.environ.get("BENCH_RUNS", "500")
commands = [
    ("C client (baseline)", f"{c_client} {socket_path}"),
    ("onthemap status", f"{onthemap} status --socket {socket_path}"),
    ("onthemap status --format waybar", f"{onthemap} status --format waybar --socket {socket_path}"),
    ("socat one-shot", f"sh -c \"printf '%s\\\\n' '{{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"method\\\":\\\"status\\\"}}' | socat - UNIX-CONNECT:{socket_path}\""),
]
with tempfile.NamedTemporaryFile(suffix=".json") as export:
    subprocess.run(
        ["hyperfine", "-N", "--warmup", "50", "--runs", runs, "--export-json", export.name, "--style", "basic"]
        + [command for _, command in commands[:3]],
        check=True, stdout=subprocess.DEVNULL)
    results = json.load(open(export.name))["results"]
    # socat needs a shell for its pipe; measured apart with the shell's own cost included.
    subprocess.run(
        ["hyperfine", "--warmup", "20", "--runs", str(min(int(runs), 200)), "--export-json", export.name, "--style", "basic",
         commands[3][1]], check=True, stdout=subprocess.DEVNULL)
    results += json.load(open(export.name))["results"]

def ms(seconds):
    return f"{seconds * 1000:.2f}"

baseline = results[0]["median"]
rows = []
for (name, _), result in zip(commands, results):
    times = sorted(result["times"])
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    rows.append(f"| {name} | {ms(result['median'])} | {ms(result['mean'])} | {ms(p99)} | {result['median'] / baseline:.2f}× |")

ratio = results[1]["median"] / baseline
verdict = "meets" if ratio <= 1.5 else f"misses by {ratio / 1.5:.2f}×"
table = "\n".join([
    "| command | median ms | mean ms | p99 ms | vs C |",
    "| --- | --- | --- | --- | --- |",
    *rows,
    "",
    f"`onthemap status` / C client = **{ratio:.2f}×** (target ≤ 1.5×: {verdict}).",
])
print(table)
open(report, "w").write(table + "\n")
