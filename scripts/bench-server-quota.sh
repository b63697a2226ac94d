#!/usr/bin/env bash
# Scale under CPU quotas (issue 28, point 9): one, two and three onthemap-server replicas on one
# PostgreSQL behind nginx (docs/deploy/nginx-onthemap.conf with one, two or three server lines), each
# replica in a CPU control group of its own with a fixed quota, so that adding a replica adds capacity
# even on a machine whose cores wrk, nginx and PostgreSQL share. Side by side in one run: the GET of
# the newest pins, the conditional GET a polling daemon sends (304s), and the login + post + put mix.
# Reports requests/s, p50/p99, errors, and CPU per request of the replicas and of PostgreSQL's
# backends; writes its section of docs/benchmarks.md (between the server-quota-bench markers) and
# prints it. scripts/bench-server.sh runs it last; alone: scripts/bench-server-quota.sh.
#
# Needs root (it makes control groups: cgroup v1's cpu controller, or v2's cpu.max), wrk, nginx and
# PostgreSQL 15 (apt-get install wrk nginx postgresql). Settings: BENCH_DURATION (seconds per run,
# default 10), BENCH_REPLICA_QUOTA (per cent of one core per replica, default 15), BENCH_CONNECTIONS
# (default 64), BENCH_POOL (each replica's --pool-size, default 8), ONTHEMAP_SERVER_BIN (the server to
# measure; default: the release build, built if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DURATION="${BENCH_DURATION:-10}"
QUOTA="${BENCH_REPLICA_QUOTA:-15}"
CONNECTIONS="${BENCH_CONNECTIONS:-64}"
POOL="${BENCH_POOL:-8}"
ACCOUNTS=50
PGBIN=/usr/lib/postgresql/15/bin
for tool in wrk nginx "$PGBIN/initdb"; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install wrk nginx postgresql" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "run as root: the replicas' CPU quotas are control groups" >&2; exit 1; }

# The control groups: cgroup v1's cpu controller if mounted, else cgroup v2 with the cpu controller.
if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    CGROUP_KIND=v1
    CGROUP_PARENT=/sys/fs/cgroup/cpu/onthemap-bench-$$
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    CGROUP_KIND=v2
    CGROUP_PARENT=/sys/fs/cgroup/onthemap-bench-$$
    echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
else
    echo "no cgroup cpu controller (v1 /sys/fs/cgroup/cpu or v2 cpu.max) to set quotas with" >&2
    exit 1
fi
mkdir "$CGROUP_PARENT"
[ "$CGROUP_KIND" = v2 ] && echo +cpu >"$CGROUP_PARENT/cgroup.subtree_control"

# quota_group NAME: a control group limited to QUOTA% of one core; prints its directory.
quota_group() {
    local dir="$CGROUP_PARENT/$1"
    mkdir -p "$dir"
    if [ "$CGROUP_KIND" = v1 ]; then
        echo 100000 >"$dir/cpu.cfs_period_us"
        echo $((QUOTA * 1000)) >"$dir/cpu.cfs_quota_us"
    else
        echo "$((QUOTA * 1000)) 100000" >"$dir/cpu.max"
    fi
    echo "$dir"
}
# throttled DIR: periods in which the group used up its quota so far.
throttled() { awk '$1 == "nr_throttled" { print $2 }' "$1/cpu.stat"; }

# ONTHEMAP_SERVER_BIN: a release server built already (e.g. by make deb); else built here.
if [ -n "${ONTHEMAP_SERVER_BIN:-}" ]; then
    SERVER="$ONTHEMAP_SERVER_BIN"
else
    echo "==> release build" >&2
    swift build -c release --product onthemap-server >&2
    SERVER="$(swift build -c release --show-bin-path)/onthemap-server"
fi

WORK="$(mktemp -d)"
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -d "$WORK/pg" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
    # A group can be removed once its processes are gone.
    for dir in "$CGROUP_PARENT"/*/; do [ -d "$dir" ] && rmdir "$dir" 2>/dev/null || true; done
    rmdir "$CGROUP_PARENT" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_replica NAME [CGROUP]: `serve` on PostgreSQL (in the control group, if given); sets
# REPLICA_PORT and REPLICA_PID.
start_replica() {
    local log="$WORK/$1.log" group="${2:-}"
    local args=(serve --database "$PGURL" --port 0 --pool-size "$POOL" --threads 1 --log-level error --open-writes
        --trusted-proxy 127.0.0.1 --max-login-attempts-per-address 1000000000 --max-login-failures 1000000000)
    if [ -n "$group" ]; then
        # The shell joins the group, then becomes the server: every thread it starts is in it.
        sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$group" "$SERVER" "${args[@]}" >"$log" 2>&1 &
    else
        "$SERVER" "${args[@]}" >"$log" 2>&1 &
    fi
    REPLICA_PID=$!
    PIDS+=("$REPLICA_PID")
    for _ in $(seq 1 400); do
        grep -q "listening on" "$log" && break
        sleep 0.05
    done
    REPLICA_PORT="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/v1.*|\1|p' "$log" | head -1)"
    [ -n "$REPLICA_PORT" ] || { cat "$log" >&2; exit 1; }
}

echo "==> PostgreSQL 15 in $WORK/pg, 240 demo students, $ACCOUNTS accounts with a pin each" >&2
mkdir "$WORK/pg"
chown postgres "$WORK/pg"
runuser -u postgres -- "$PGBIN/initdb" -D "$WORK/pg" -U onthemap --auth=trust -E UTF8 --locale=C >/dev/null
PGPORT="$(free_port)"
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w \
    -o "-p $PGPORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
runuser -u postgres -- "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U onthemap bench
PGURL="postgres://onthemap@127.0.0.1:$PGPORT/bench"
SQLITE="$WORK/bench.sqlite"
"$SERVER" seed --db "$SQLITE" --demo --bcrypt-cost 4 >/dev/null
for n in $(seq 0 $((ACCOUNTS - 1))); do
    echo bench-password | "$SERVER" user add --db "$SQLITE" --email "bench$n@example.com" --first Bench \
        --last "$n" --password-stdin --bcrypt-cost 4 >/dev/null
done
"$SERVER" copy --from "$SQLITE" --to "$PGURL" >&2
start_replica setup
for n in $(seq 0 $((ACCOUNTS - 1))); do
    curl -sf -X POST "http://127.0.0.1:$REPLICA_PORT/v1/StudentLocation" -H 'Content-Type: application/json' \
        -d "{\"uniqueKey\":\"bench-key-$n\",\"firstName\":\"Bench\",\"lastName\":\"Mark $n\",\"mapString\":\"Start\",\"mediaURL\":\"https://example.com/$n\",\"latitude\":1.5,\"longitude\":2.5}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["objectId"])' >>"$WORK/pins.txt"
done
kill "$REPLICA_PID"; wait "$REPLICA_PID" 2>/dev/null || true

. "$ROOT/Benchmarks/server/cpu-ticks.sh"
NEWEST="/v1/StudentLocation?limit=100&order=-updatedAt"
RESULTS="$WORK/results.tsv"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"

# idle_ticks: the machine's idle time so far (all cores), from /proc/stat.
idle_ticks() { awk '$1 == "cpu" { print $5 + $6 }' /proc/stat; }

for replicas in 1 2 3; do
    echo "==> $replicas replica(s), each at $QUOTA% of a core" >&2
    REPLICA_PIDS=()
    GROUPS_USED=()
    UPSTREAM=""
    for r in $(seq 1 "$replicas"); do
        group="$(quota_group "r$replicas-$r")"
        start_replica "r$replicas-$r" "$group"
        REPLICA_PIDS+=("$REPLICA_PID")
        GROUPS_USED+=("$group")
        UPSTREAM+="    server 127.0.0.1:$REPLICA_PORT max_fails=1 fail_timeout=5s;\n"
    done
    # The shipped site, its two server lines replaced by this run's replicas.
    PROXY_PORT="$(free_port)"
    awk -v servers="$UPSTREAM" '
        /server 127\.0\.0\.1:8081/ { printf "%s", servers; next }
        /server 127\.0\.0\.1:8082/ { next }
        { print }' docs/deploy/nginx-onthemap.conf |
        sed "s|listen 80;|listen 127.0.0.1:$PROXY_PORT;|" >"$WORK/site-$replicas.conf"
    mkdir -p "$WORK/nginx-$replicas"
    cat >"$WORK/nginx-$replicas/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx-$replicas/nginx.pid;
error_log $WORK/nginx-$replicas/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx-$replicas;
    proxy_temp_path $WORK/nginx-$replicas;
    include $WORK/site-$replicas.conf;
}
CONF
    nginx -c "$WORK/nginx-$replicas/nginx.conf" -p "$WORK/nginx-$replicas" &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    sleep 0.5
    BASE="http://127.0.0.1:$PROXY_PORT"
    curl -sf "$BASE$NEWEST" -o /dev/null
    ETAG="$(curl -sfI "$BASE$NEWEST" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')"
    for workload in get poll mix; do
        case "$workload" in
            get) args=(-s "$ROOT/Benchmarks/server/report.lua" "$BASE$NEWEST") ;;
            poll) args=(-s "$ROOT/Benchmarks/server/report.lua" -H "If-None-Match: $ETAG" "$BASE$NEWEST") ;;
            mix) args=(-s "$ROOT/Benchmarks/server/mix.lua" "$BASE") ;;
        esac
        # Warm-up (caches, connections, the JIT-less but lazy bits), then the measured run.
        BENCH_DIR="$ROOT/Benchmarks/server" BENCH_ACCOUNTS=$ACCOUNTS BENCH_PINS="$WORK/pins.txt" \
            wrk -t2 -c"$CONNECTIONS" -d2s --timeout 10s "${args[@]}" >/dev/null
        replicas_before="$(cpu_ticks "${REPLICA_PIDS[@]}")"
        pg_before="$(cpu_ticks $(pgrep -f "postgres: onthemap bench" || true))"
        nginx_before="$(cpu_ticks "$NGINX_PID" $(pgrep -P "$NGINX_PID" || true))"
        idle_before="$(idle_ticks)"
        throttled_before=0
        for g in "${GROUPS_USED[@]}"; do throttled_before=$((throttled_before + $(throttled "$g"))); done
        line="$(BENCH_DIR="$ROOT/Benchmarks/server" BENCH_ACCOUNTS=$ACCOUNTS BENCH_PINS="$WORK/pins.txt" \
            wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s "${args[@]}" | grep '^{')"
        throttled_after=0
        for g in "${GROUPS_USED[@]}"; do throttled_after=$((throttled_after + $(throttled "$g"))); done
        printf '%s\t%s\t%s\n' "$replicas" "$workload" "$(python3 -c '
import json, sys
data = json.loads(sys.argv[1])
data.update(replica_ticks=int(sys.argv[2]), pg_ticks=int(sys.argv[3]), nginx_ticks=int(sys.argv[4]),
            idle_ticks=int(sys.argv[5]), throttled=int(sys.argv[6]))
print(json.dumps(data))' "$line" \
            "$(($(cpu_ticks "${REPLICA_PIDS[@]}") - replicas_before))" \
            "$(($(cpu_ticks $(pgrep -f "postgres: onthemap bench" || true)) - pg_before))" \
            "$(($(cpu_ticks "$NGINX_PID" $(pgrep -P "$NGINX_PID" || true)) - nginx_before))" \
            "$(($(idle_ticks) - idle_before))" \
            "$((throttled_after - throttled_before))")" | tee -a "$RESULTS" >&2
    done
    kill "$NGINX_PID" "${REPLICA_PIDS[@]}"
    wait "$NGINX_PID" "${REPLICA_PIDS[@]}" 2>/dev/null || true
done

python3 "$ROOT/Benchmarks/server/summarize_quota.py" "$RESULTS" "$DURATION" "$QUOTA" "$CONNECTIONS" "$POOL" \
    "$(nproc)" "$LOAD" "$(getconf CLK_TCK)" "$CGROUP_KIND" >"$WORK/section.md"
"$ROOT/scripts/bench-section.py" server-quota-bench "$WORK/section.md"
cat "$WORK/section.md"
