#!/usr/bin/env python3
"""The map's figures, each next to a baseline measured in the same run.

    bench_map.py BIN_DIR CLIENT TOOLS_DIR WORK_DIR REPORT.md

BIN_DIR holds release builds of onthemap-server, onthemapd and map-bench; CLIENT the release client
as installed (stripped); TOOLS_DIR the compiled C tools (rpc_load, status_client, canned_server). Run
through `make bench` (scripts/bench.sh).

What it measures:
  - issue 38's guard, `map` 200×60 with 10,000 pins ≤ 50 ms: the round trip on one connection
    (rpc_load), next to drawing alone (map-bench, in the daemon's code, no socket, no JSON) and to the
    C baseline sending the same reply bytes; 80×24 with 100 pins the same way;
  - `onthemap map` start to exit (hyperfine), next to `onthemap status` and the C status client;
  - `onthemap map -i`: a key to the end of the redrawn frame, on a pseudo-terminal;
  - the idle daemon's anonymous and file-backed memory before any map and after maps.
"""
import fcntl
import json
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time

import benchkit
from benchkit import EMAIL, PASSWORD, call, wait_for_socket

BIN, CLIENT, TOOLS, WORK, REPORT = sys.argv[1:6]
OUT = benchkit.Report()
say = OUT.say


ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
DRAWING_ROUNDS = int(os.environ.get("BENCH_MAP_ROUNDS", "400"))


def rpc_latency(sock_path, request, count):
    """rpc_load latency, ROUNDS times: the median of each figure."""
    runs = [benchkit.rpc_load(TOOLS, "latency", sock_path, request, count) for _ in range(ROUNDS)]
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


class Daemon(benchkit.Daemon):
    """The release onthemapd, started and listening."""

    def __init__(self, name, api, cache_size):
        super().__init__(WORK, f"{BIN}/onthemapd", name, api, cache_size)

    def start(self, notify_socket=None):
        super().start(notify_socket)
        if not notify_socket:
            wait_for_socket(self.socket)


def map_request(width, height):
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "map", "params": {"width": width, "height": height}})


def drawing():
    run = subprocess.run([f"{BIN}/map-bench", "--rounds", str(DRAWING_ROUNDS)], capture_output=True, text=True, check=True)
    values = dict(line.split() for line in run.stdout.splitlines())
    return {key: float(value) for key, value in values.items()}


def round_trips(small, large, drawn):
    say("## `map`: the round trip, next to drawing alone and to the same bytes sent by C")
    say()
    say("Round trip: `rpc_load latency`, one connection, requests in turn, against a daemon caching 100")
    say(f"(then 10,000) of the server's demo students; medians of {ROUNDS} runs. Drawing: `Benchmarks/MapBench`")
    say("(`map-bench`) draws the same size of map, the whole world in braille, in the daemon's code with no")
    say(f"socket and no JSON ({DRAWING_ROUNDS} rounds after a warm-up, a quarter of that for the large map). The C baseline")
    say("(`Benchmarks/c/canned_server.c`) sends the reply bytes the daemon sent, read from memory.")
    say()
    say("| map | pins in view | `map` round trip p50 ms | p99 ms | drawing alone p50 ms | C baseline, same bytes, p50 ms | reply bytes |")
    say("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for label, daemon, width, height, key, count in (("80×24, 100 pins", small, 80, 24, "80x24_100", 1000),
                                                     ("200×60, 10,000 pins", large, 200, 60, "200x60_10000", 100)):
        request = map_request(width, height)
        _, reply = call(daemon.socket, "map", {"width": width, "height": height})
        reply_file = os.path.join(WORK, f"map-{key}.reply")
        open(reply_file, "wb").write(reply)
        baseline_socket = os.path.join(WORK, f"map-{key}.sock")
        baseline = subprocess.Popen([f"{TOOLS}/canned_server", baseline_socket, reply_file, reply_file])
        try:
            wait_for_socket(baseline_socket)
            trip = rpc_latency(daemon.socket, request, count)
            floor = rpc_latency(baseline_socket, request, count)
        finally:
            baseline.kill()
            baseline.wait()
        draw = drawn[f"render_{key}_p50_us"]
        rows.append((trip, draw, floor))
        say(f"| {label} | {drawn[f'render_{key}_in_view']:.0f} | {trip['p50_us'] / 1000:.2f} | {trip['p99_us'] / 1000:.2f} "
            f"| {draw / 1000:.2f} | {floor['p50_us'] / 1000:.2f} | {len(reply):,} |")
    say()
    say(f"Names and pin numbers (`labels`, on by default) cost the 80×24 drawing "
        f"{drawn['render_80x24_100_p50_us'] - drawn['render_80x24_100_nolabels_p50_us']:.0f} µs: "
        f"{drawn['render_80x24_100_nolabels_p50_us']:.0f} µs without them.")
    say()
    (small_trip, small_draw, _), (large_trip, large_draw, large_floor) = rows
    OUT.guard(4, "`map` 200×60 with 10,000 pins ≤ 50 ms (p50)", large_trip["p50_us"] <= 50_000,
              f"{large_trip['p50_us'] / 1000:.1f} ms (p99 {large_trip['p99_us'] / 1000:.1f} ms)",
              f"drawing alone {large_draw / 1000:.1f} ms; C sending the same bytes {large_floor['p50_us'] / 1000:.1f} ms")
    OUT.target("`map` 80×24, 100 pins, p50 ≤ 2 ms", small_trip["p50_us"] <= 2000,
               f"{small_trip['p50_us'] / 1000:.2f} ms ({small_draw / 1000:.2f} ms drawing)")


def hyperfine(commands, env):
    out = os.path.join(WORK, "map-hyperfine.json")
    subprocess.run(["hyperfine", "-N", "--warmup", "10", "--runs", "100", "--export-json", out, *commands],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return [result["median"] * 1000 for result in json.load(open(out))["results"]]


def whole_command(daemon):
    say("## `onthemap map`, start to exit")
    say()
    env = dict(os.environ, ONTHEMAP_SOCKET=daemon.socket, LANG="C.UTF-8", XDG_CACHE_HOME=os.path.join(WORK, "client-cache"))
    env.pop("NO_COLOR", None)
    commands = [f"{CLIENT} map --width 80 --height 24", f"{CLIENT} status", f"{TOOLS}/status_client {daemon.socket}"]
    medians = hyperfine(commands, env)
    say("hyperfine, no shell, 10 warm-up runs then 100; the client as installed (release, the Swift runtime linked in,")
    say("stripped), output to a pipe, 100 students cached. The map has its names and pin numbers (the default);")
    say("its legend lists the 100 pins in view.")
    say()
    say("| command | median ms |")
    say("| --- | --- |")
    for name, median in zip(["`onthemap map --width 80 --height 24`", "`onthemap status` (baseline)",
                             "`Benchmarks/c/status_client` (baseline)"], medians):
        say(f"| {name} | {median:.2f} |")
    say()
    OUT.target("`onthemap map` whole command, with names, ≤ 20 ms", medians[0] <= 20, f"{medians[0]:.1f} ms")


def interactive(daemon, keys=40):
    """A key, then the time until the frame it causes has been written (its status line is last)."""
    say("## `onthemap map -i`: a key to the redrawn frame")
    say()
    env = dict(os.environ, ONTHEMAP_SOCKET=daemon.socket, LANG="C.UTF-8", TERM="xterm-256color",
               XDG_CACHE_HOME=os.path.join(WORK, "client-cache"))
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
        os.execve(CLIENT, [CLIENT, "map", "-i"], env)
    status_line = b"\x1b[25;1H\x1b[2K"

    def read_frame(deadline=10.0):
        data = b""
        end = time.perf_counter() + deadline
        while time.perf_counter() < end:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                data += os.read(fd, 1 << 16)
                # The status line (reverse video, then a reset) closes every frame.
                start = data.rfind(status_line)
                if start >= 0 and data.find(b"\x1b[0m", start) >= 0:
                    return data
        raise RuntimeError("no frame")

    try:
        read_frame()
        time.sleep(0.3)
        while select.select([fd], [], [], 0.2)[0]:
            os.read(fd, 1 << 16)
        samples = []
        for index in range(keys):
            key = b"+" if index % 2 == 0 else b"-"
            start = time.perf_counter()
            os.write(fd, key)
            read_frame()
            samples.append((time.perf_counter() - start) * 1000)
        os.write(fd, b"q")
        os.waitpid(pid, 0)
    except BaseException:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        raise
    median = statistics.median(samples)
    say(f"On a pseudo-terminal 80×25 (a 80×24 map), `+` and `-` in turn, {keys} keys: from writing the key to")
    say(f"reading the end of the new frame (a `map` round trip, painting, writing ~6 KB): median **{median:.1f} ms**,")
    say(f"p90 {sorted(samples)[int(len(samples) * 0.9)]:.1f} ms, fastest {min(samples):.1f} ms.")
    say()
    OUT.target("interactive redraw after a key ≤ 16 ms", median <= 16, f"{median:.1f} ms")


def memory(api):
    say("## Memory")
    say()
    daemon = Daemon("map-memory", api, 100)
    daemon.start()
    call(daemon.socket, "login", {"username": EMAIL, "password": PASSWORD})
    time.sleep(1)
    pid = daemon.process.pid
    rows = [("idle, logged in, no map drawn yet", benchkit.status_kib(pid, "RssAnon"), benchkit.status_kib(pid, "RssFile"))]
    call(daemon.socket, "map", {"width": 80, "height": 24})
    time.sleep(1)
    rows.append(("idle after one 80×24 map", benchkit.status_kib(pid, "RssAnon"), benchkit.status_kib(pid, "RssFile")))
    for _ in range(50):
        call(daemon.socket, "map", {"width": 200, "height": 60, "fit": "pins"})
        call(daemon.socket, "map", {"width": 120, "height": 40, "near": "Berlin"})
    time.sleep(2)
    rows.append(("idle after 100 more maps (200×60, 120×40 zoomed)", benchkit.status_kib(pid, "RssAnon"), benchkit.status_kib(pid, "RssFile")))
    daemon.stop()
    say("RSS of one daemon (100 students cached), from `/proc/PID/status`: anonymous memory is the daemon's own;")
    say("file-backed is pages of the executable, which includes the embedded map (418 KB, read in place).")
    say()
    say("| state | RssAnon KiB | RssFile KiB |")
    say("| --- | --- | --- |")
    for name, anon, file in rows:
        say(f"| {name} | {anon:,} | {file:,} |")
    say()
    added = rows[1][1] - rows[0][1]
    OUT.target("map data adds ≤ 1 MiB anonymous memory to the idle daemon", added <= 1024,
               f"+{added} KiB after a map, +{rows[2][1] - rows[0][1]} KiB after 101")


def main():
    server, api = benchkit.start_server(BIN, WORK, "map-bench")
    small = Daemon("map-small", api, 100)
    large = Daemon("map-large", api, 10000)
    try:
        drawn = drawing()
        for daemon in (small, large):
            daemon.start()
            call(daemon.socket, "login", {"username": EMAIL, "password": PASSWORD})
        round_trips(small, large, drawn)
        whole_command(small)
        interactive(small)
        small.stop()
        large.stop()
        memory(api)
    finally:
        small.stop()
        large.stop()
        server.terminate()
        server.wait()
    OUT.write(REPORT)


if __name__ == "__main__":
    main()
