#!/usr/bin/env python3
"""The map's figures, each next to a baseline measured in the same run.

    bench_map.py BIN_DIR CLIENT TOOLS_DIR WORK_DIR REPORT.md

BIN_DIR holds release builds of onthemap-server, onthemapd and map-bench; CLIENT the installed
client (scripts/build-client.sh); TOOLS_DIR the compiled C tools (rpc_load, status_client). Run
through `make bench` (scripts/bench.sh).

What it measures:
  - drawing inside the daemon's process (map-bench): 80×24 with 100 pins, 200×60 with 10,000;
  - the `map` round trip on one connection (rpc_load) for both, next to `status` on the same daemon;
  - `onthemap map` start to exit (hyperfine), next to `onthemap status` and the C status client;
  - `onthemap map -i`: a key to the end of the redrawn frame, on a pseudo-terminal;
  - the idle daemon's anonymous and file-backed memory before any map, after maps, and start to READY.
"""
import fcntl
import json
import os
import pty
import select
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

import benchkit
from benchkit import EMAIL, PASSWORD, call, wait_for_socket

BIN, CLIENT, TOOLS, WORK, REPORT = sys.argv[1:6]
OUT = benchkit.Report()
say, verdict = OUT.say, OUT.verdict


def rpc_latency(sock_path, request, count):
    run = subprocess.run([f"{TOOLS}/rpc_load", "latency", sock_path, request, str(count)], capture_output=True, text=True,
                         check=True)
    output = run.stdout.split()
    return {output[i]: float(output[i + 1]) for i in range(0, len(output), 2)}


class Daemon(benchkit.Daemon):
    """The release onthemapd, started and listening."""

    def __init__(self, name, api, cache_size):
        super().__init__(WORK, f"{BIN}/onthemapd", name, api, cache_size)

    def start(self, notify_socket=None):
        super().start(notify_socket)
        if not notify_socket:
            wait_for_socket(self.socket)


def start_server():
    return benchkit.start_server(BIN, WORK, "map-bench")


def map_request(width, height):
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "map", "params": {"width": width, "height": height}})


def drawing():
    run = subprocess.run([f"{BIN}/map-bench", "--rounds", "400"], capture_output=True, text=True, check=True)
    values = dict(line.split() for line in run.stdout.splitlines())
    return {key: float(value) for key, value in values.items()}


def round_trips(small, large, drawn):
    say("## `map`: drawing, and the round trip next to `status`")
    say()
    say("Drawing: `Benchmarks/MapBench` (`map-bench`) draws the whole world in braille in the daemon's code,")
    say("with no socket and no JSON, 400 rounds after a warm-up (100 for the large map). Round trip: `rpc_load")
    say("latency`, one connection, requests in turn, against a daemon caching 100 (then 10,000) of the")
    say("server's demo students; `status` on the same daemon is the baseline (answered from the event loop).")
    say()
    say("| map | pins in view | drawing p50 µs | p90 µs | `map` round trip p50 µs | p99 µs | reply bytes | `status` p50 µs | map / status |")
    say("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for label, daemon, width, height, key, count in (("80×24, 100 pins", small, 80, 24, "80x24_100", 2000),
                                                     ("200×60, 10,000 pins", large, 200, 60, "200x60_10000", 200)):
        _, reply = call(daemon.socket, "map", {"width": width, "height": height})
        size = len(reply)
        status = rpc_latency(daemon.socket, '{"jsonrpc":"2.0","id":1,"method":"status"}', 5000)
        trip = rpc_latency(daemon.socket, map_request(width, height), count)
        rows.append((label, drawn[f"render_{key}_p50_us"], trip["p50_us"]))
        say(f"| {label} | {drawn[f'render_{key}_in_view']:.0f} | {drawn[f'render_{key}_p50_us']:.0f} "
            f"| {drawn[f'render_{key}_p90_us']:.0f} | {trip['p50_us']:.0f} | {trip['p99_us']:.0f} | {size:,} "
            f"| {status['p50_us']:.1f} | {trip['p50_us'] / status['p50_us']:.0f}× |")
    say()
    say(f"Names and pin numbers (`labels`, on by default) cost the 80×24 drawing "
        f"{drawn['render_80x24_100_p50_us'] - drawn['render_80x24_100_nolabels_p50_us']:.0f} µs: "
        f"{drawn['render_80x24_100_nolabels_p50_us']:.0f} µs without them.")
    say()
    (small_label, small_draw, small_trip), (large_label, large_draw, large_trip) = rows
    verdict("`map` 80×24, 100 pins, p50 ≤ 2 ms in the daemon", small_trip <= 2000,
            f"{small_trip / 1000:.2f} ms round trip ({small_draw / 1000:.2f} ms drawing)")
    verdict("`map` 200×60, 10,000 pins, p50 ≤ 20 ms", large_trip <= 20000,
            f"{large_trip / 1000:.1f} ms round trip ({large_draw / 1000:.1f} ms drawing)")


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
    verdict("`onthemap map` whole command, with names, ≤ 20 ms", medians[0] <= 20, f"{medians[0]:.1f} ms")


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
    verdict("interactive redraw after a key ≤ 16 ms", median <= 16, f"{median:.1f} ms")


def memory_and_ready(api):
    say("## Memory and start-up")
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
    verdict("map data adds ≤ 1 MiB anonymous memory to the idle daemon", added <= 1024,
            f"+{added} KiB after a map, +{rows[2][1] - rows[0][1]} KiB after 101")

    times = []
    for _ in range(10):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "notify")
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            listener.bind(path)
            listener.settimeout(10)
            start = time.perf_counter()
            daemon.start(notify_socket=path)
            while "READY=1" not in listener.recv(4096).decode().split("\n"):
                pass
            times.append((time.perf_counter() - start) * 1000)
            listener.close()
            daemon.stop()
    median = statistics.median(times)
    say(f"Start to `READY=1` on `NOTIFY_SOCKET` (session and 100 students persisted), 10 starts: median **{median:.1f} ms**,")
    say(f"fastest {min(times):.1f} ms, slowest {max(times):.1f} ms.")
    say()
    verdict("daemon start to READY ≤ 50 ms (with the map built in)", median <= 50, f"{median:.1f} ms")


def main():
    server, api = start_server()
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
        memory_and_ready(api)
    finally:
        small.stop()
        large.stop()
        server.terminate()
        server.wait()
    OUT.write(REPORT)


if __name__ == "__main__":
    main()
