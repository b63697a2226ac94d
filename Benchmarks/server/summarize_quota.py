"""Turns scripts/bench-server-quota.sh's results (replicas, workload, wrk JSON with CPU ticks) into its
section of docs/benchmarks.md, with issue 28's scaling targets checked against the figures."""
import json
import sys
from datetime import datetime, timezone

results_path, duration, quota, connections, pool, cores, load, ticks_per_second, cgroup_kind = sys.argv[1:10]
ticks = float(ticks_per_second)
rows = {}
for line in open(results_path):
    replicas, workload, data = line.rstrip("\n").split("\t", 2)
    rows[(int(replicas), workload)] = json.loads(data)

NAMES = {"get": "GET", "poll": "GET, 304", "mix": "mix"}
out = []
w = out.append
w("## Scale under CPU quotas: one, two and three replicas\n")
w(f"Produced by `scripts/bench-server-quota.sh` on {datetime.now(timezone.utc):%Y-%m-%d}, {cores} cores, everything on")
w(f"this one machine (load average {load} just before the runs, other engineers' builds included).")
w(f"Each replica runs in a CPU control group of its own (cgroup {cgroup_kind}) limited to **{quota}% of one")
w(f"core**, with `--threads 1 --pool-size {pool}`, so that the replicas are what limits the rate and wrk,")
w("nginx and PostgreSQL have the rest of the machine; all behind nginx (docs/deploy/nginx-onthemap.conf")
w(f"with one, two or three server lines), on one PostgreSQL 15. wrk: 2 threads, {connections} connections,")
w(f"{duration} s per run after a 2 s warm-up. **GET** = `GET /v1/StudentLocation?limit=100&order=-updatedAt`")
w("(the cached list); **GET, 304** = the same with the list's `If-None-Match`, as a polling daemon sends it;")
w("**mix** = a login, a POST and a PUT in turns over 50 accounts (bcrypt cost 4, writes open). CPU per")
w("request is the CPU time the replicas (all of them) and PostgreSQL's backends used during the run,")
w("divided by its requests; \"throttled\" counts the quota periods in which a replica used all of its")
w("share (the quota, not the machine, was the limit); \"idle\" is the machine's idle CPU during the run.\n")
w("| workload | replicas | requests/s | vs 1 | p50 ms | p99 ms | errors | replica CPU µs/req | PostgreSQL CPU µs/req | nginx CPU µs/req | throttled | idle |")
w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for workload in ("get", "poll", "mix"):
    one = rows.get((1, workload))
    for replicas in (1, 2, 3):
        data = rows.get((replicas, workload))
        if not data:
            continue
        requests = max(data["requests"], 1)
        per = lambda key: 1e6 * data[key] / ticks / requests  # noqa: E731
        ratio = f"{data['rps'] / one['rps']:.2f}×" if one else ""
        idle = 100 * data["idle_ticks"] / ticks / float(data["seconds"]) / int(cores)
        w(f"| {NAMES[workload]} | {replicas} | {data['rps']:,.0f} | {ratio} | {data['p50_ms']:.1f} | {data['p99_ms']:.1f} | "
          f"{data['errors']} | {per('replica_ticks'):.0f} | {per('pg_ticks'):.0f} | {per('nginx_ticks'):.0f} | "
          f"{data['throttled']} | {idle:.0f}% |")
w("")
w("| target (issue 28) | figure | verdict |")
w("| --- | --- | --- |")
for workload in ("mix", "get"):
    one = rows.get((1, workload))
    for replicas, target in ((2, 1.8), (3, 2.5)):
        data = rows.get((replicas, workload))
        if one and data:
            ratio = data["rps"] / one["rps"]
            w(f"| {replicas} replicas ≥ {target}× one ({NAMES[workload]}) | {ratio:.2f}× "
              f"({data['rps']:,.0f} vs {one['rps']:,.0f} requests/s) | {'met' if ratio >= target else 'NOT met'} |")
errors = sum(data["errors"] for data in rows.values())
w(f"| no errors | {errors} errors | {'met' if errors == 0 else 'NOT met'} |")
w("")
print("\n".join(out))
