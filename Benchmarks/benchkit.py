"""What the benchmark scripts share: the report they write, the daemon and server they start, and one
JSON-RPC call on the daemon's socket. Imported by the bench_*.py scripts (same folder)."""
import json
import os
import signal
import socket
import subprocess
import time

EMAIL, PASSWORD = "demo@onthemap.example", "onthemap-demo"


class Report:
    """Markdown lines printed as they come, and two tables' rows: issue 38's guards
    (`REPORT.guards`, each row led by the guard's number in the issue and a tab, so scripts/bench.sh
    can put the rows of several scripts in the issue's order) and the other targets still measured
    (`REPORT.targets`)."""

    def __init__(self):
        self.lines = []
        self.guards = []
        self.targets = []

    def say(self, line=""):
        print(line, flush=True)
        self.lines.append(line)

    @staticmethod
    def outcome(ok):
        return "met" if ok else "**missed**"

    def guard(self, number, name, ok, measured, baseline):
        """One of issue 38's guards: what it asks, the figure, the baseline measured in the same run."""
        self.guards.append(f"{number}\t| {name} | {measured} | {baseline} | {self.outcome(ok)} |")

    def target(self, name, ok, measured):
        """A target of an earlier issue, still measured here."""
        self.targets.append(f"| {name} | {measured} | {self.outcome(ok)} |")

    def write(self, path):
        with open(path, "w") as f:
            f.write("\n".join(self.lines) + "\n")
        for suffix, rows in ((".guards", self.guards), (".targets", self.targets)):
            with open(path + suffix, "w") as f:
                f.write("".join(row + "\n" for row in rows))


def percentile(values, fraction):
    """The value below which `fraction` of values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def status_kib(pid, field="VmRSS"):
    """A KiB figure of /proc/PID/status (VmRSS, RssAnon, RssFile…)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def call(sock_path, method, params=None, timeout=120):
    """One request on a new connection: (result, the reply's bytes). An error reply raises."""
    request = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        request["params"] = params
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(sock_path)
        s.sendall((json.dumps(request) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
    reply = json.loads(data)
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error']}")
    return reply["result"], data


def wait_for_socket(path, timeout=20):
    """Returns once something accepts a connection on path."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(path)
                return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"nothing listens on {path}")


class Daemon:
    """An onthemapd of its own: a home for its XDG folders under work, its socket there, quiet logs."""

    def __init__(self, work, program, name, api, cache_size=100, extra=()):
        self.home = os.path.join(work, name)
        os.makedirs(self.home, exist_ok=True)
        self.socket = os.path.join(self.home, "d.sock")
        self.env = dict(os.environ, XDG_STATE_HOME=f"{self.home}/state", XDG_CACHE_HOME=f"{self.home}/cache",
                        XDG_CONFIG_HOME=f"{self.home}/config", XDG_RUNTIME_DIR=f"{self.home}/runtime")
        for key in ("NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "ONTHEMAP_SOCKET"):
            self.env.pop(key, None)
        self.args = [program, "--socket", self.socket, "--api-url", api, "--cache-size", str(cache_size),
                     "--log-level", "error", *extra]
        self.process = None

    def start(self, notify_socket=None, wrap=lambda argv: argv):
        """Starts it (wrap: a command put in front, such as taskset); does not wait for the socket."""
        env = dict(self.env)
        if notify_socket:
            env["NOTIFY_SOCKET"] = notify_socket
        self.process = subprocess.Popen(wrap(self.args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self.process

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    @property
    def pid(self):
        return self.process.pid

    def login(self):
        call(self.socket, "login", {"username": EMAIL, "password": PASSWORD})


def start_server(bin_dir, work, name, count=10000):
    """onthemap-server on a new SQLite file of `count` demo students: (process, its API URL)."""
    db = os.path.join(work, f"{name}.sqlite")
    subprocess.run([f"{bin_dir}/onthemap-server", "seed", "--db", db, "--demo", "--count", str(count)], check=True,
                   stdout=subprocess.DEVNULL)
    out = open(os.path.join(work, f"{name}-server.out"), "w+")
    server = subprocess.Popen([f"{bin_dir}/onthemap-server", "serve", "--db", db, "--port", "0", "--log-level", "error"],
                              stdout=out, stderr=subprocess.STDOUT)
    for _ in range(400):
        out.seek(0)
        text = out.read()
        if "listening on" in text:
            return server, text.split("listening on", 1)[1].split()[0]
        time.sleep(0.025)
    raise RuntimeError("onthemap-server did not start")


def rpc_load(tools, *args):
    """Runs Benchmarks/c/rpc_load (built into tools) and returns its `key value` figures."""
    command = [f"{tools}/rpc_load", *map(str, args)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({run.returncode}): {run.stderr.strip()}")
    output = run.stdout.split()
    return {output[i]: float(output[i + 1]) for i in range(0, len(output), 2)}


def load_average():
    """The 1, 5 and 15 minute load averages, as `uptime` prints them."""
    return " ".join(open("/proc/loadavg").read().split()[:3])
