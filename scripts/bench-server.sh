#!/usr/bin/env bash
# The server benchmark of issue 16, side by side in one run: GET the 100 newest pins and a
# login + post + put mix, at 64 and 256 connections (wrk), against nginx serving the same bytes as a
# static file (the floor), onthemap-server on SQLite, on PostgreSQL with one replica (direct, and
# behind nginx for a like-for-like comparison), and on PostgreSQL with two replicas behind nginx
# (docs/deploy/nginx-onthemap.conf, as shipped, with its ports replaced).
# Writes its section of docs/benchmarks.md (between the server-bench markers) and prints it, then runs
# scripts/bench-server-quota.sh (replicas under CPU quotas; BENCH_QUOTA=0 skips it).
# Needs: wrk, nginx, PostgreSQL 15 (apt-get install wrk nginx postgresql); run as root or as a user
# that can run initdb. BENCH_DURATION (seconds per run, default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DURATION="${BENCH_DURATION:-10}"
# PostgreSQL connections per replica (serve's --pool-size).
POOL="${BENCH_POOL:-20}"
ACCOUNTS=50
PGBIN=/usr/lib/postgresql/15/bin
for tool in wrk nginx "$PGBIN/initdb"; do
    command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install wrk nginx postgresql" >&2; exit 1; }
done

echo "==> release build" >&2
swift build -c release --product onthemap-server >&2
BIN="$(swift build -c release --show-bin-path)"
SERVER="$BIN/onthemap-server"

WORK="$(mktemp -d)"
chmod 755 "$WORK"
PIDS=()
AS_PG=()
if [ "$(id -u)" -eq 0 ]; then AS_PG=(runuser -u postgres --); fi
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -d "$WORK/pg" ] && "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_server LOGNAME ARGS…: starts `serve`, waits for its URL; sets SERVER_URL (…/v1) and SERVER_PID.
start_server() {
    local log="$WORK/$1.log"
    shift
    "$SERVER" serve --port "${PORT:-0}" --log-level error --open-writes \
        --max-login-attempts-per-address 1000000000 --max-login-failures 1000000000 "$@" >"$log" 2>&1 &
    SERVER_PID=$!
    PIDS+=("$SERVER_PID")
    for _ in $(seq 1 400); do
        grep -q "listening on" "$log" && break
        sleep 0.05
    done
    SERVER_URL="$(sed -n 's/.*listening on //p' "$log" | head -1)"
}
stop_server() { kill "$1"; wait "$1" 2>/dev/null || true; }

echo "==> data: 240 demo students, $ACCOUNTS accounts with a pin each" >&2
SQLITE="$WORK/bench.sqlite"
"$SERVER" seed --db "$SQLITE" --demo --bcrypt-cost 4 >/dev/null
for n in $(seq 0 $((ACCOUNTS - 1))); do
    echo bench-password | "$SERVER" user add --db "$SQLITE" --email "bench$n@example.com" --first Bench \
        --last "$n" --password-stdin --bcrypt-cost 4 >/dev/null
done
start_server setup --db "$SQLITE"
SETUP_URL="$SERVER_URL"
SETUP_PID="$SERVER_PID"
for n in $(seq 0 $((ACCOUNTS - 1))); do
    curl -sf -X POST "$SETUP_URL/StudentLocation" -H 'Content-Type: application/json' \
        -d "{\"uniqueKey\":\"bench-key-$n\",\"firstName\":\"Bench\",\"lastName\":\"Mark $n\",\"mapString\":\"Start\",\"mediaURL\":\"https://example.com/$n\",\"latitude\":1.5,\"longitude\":2.5}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["objectId"])' >>"$WORK/pins.txt"
done
mkdir -p "$WORK/static/v1"
curl -sf "$SETUP_URL/StudentLocation?limit=100&order=-updatedAt" -o "$WORK/static/newest.json"
stop_server "$SETUP_PID"
BYTES="$(stat -c %s "$WORK/static/newest.json")"

echo "==> PostgreSQL 15 in $WORK/pg" >&2
mkdir "$WORK/pg"
[ "${#AS_PG[@]}" -gt 0 ] && chown postgres "$WORK/pg"
"${AS_PG[@]}" "$PGBIN/initdb" -D "$WORK/pg" -U onthemap --auth=trust -E UTF8 --locale=C >/dev/null
PGPORT="$(free_port)"
"${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w \
    -o "-p $PGPORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
"${AS_PG[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U onthemap bench
PGURL="postgres://onthemap@127.0.0.1:$PGPORT/bench"
"$SERVER" copy --from "$SQLITE" --to "$PGURL" >&2

# nginx with one http{} block from a site file, on its own prefix.
start_nginx() {
    local name="$1" site="$2"
    mkdir -p "$WORK/$name"
    cat >"$WORK/$name/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $WORK/$name/nginx.pid;
error_log $WORK/$name/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $WORK/$name;
    proxy_temp_path $WORK/$name;
    include $site;
}
CONF
    nginx -c "$WORK/$name/nginx.conf" -p "$WORK/$name" &
    PIDS+=($!)
    NGINX_PIDS[$name]=$!
    sleep 0.5
}
declare -A NGINX_PIDS
stop_nginx() { kill "${NGINX_PIDS[$1]}"; wait "${NGINX_PIDS[$1]}" 2>/dev/null || true; }

FLOOR_PORT="$(free_port)"
cat >"$WORK/floor-site.conf" <<CONF
server {
    listen 127.0.0.1:$FLOOR_PORT;
    location /v1/StudentLocation { alias $WORK/static/newest.json; default_type application/json; }
}
CONF
start_nginx floor "$WORK/floor-site.conf"

RESULTS="$WORK/results.tsv"
# run LABEL WORKLOAD CONNECTIONS BASEURL
run() {
    local label="$1" workload="$2" connections="$3" base="$4" line
    if [ "$workload" = get ]; then
        line="$(BENCH_DIR="$ROOT/Benchmarks/server" wrk -t2 -c"$connections" -d"${DURATION}s" --timeout 10s \
            -s "$ROOT/Benchmarks/server/report.lua" "$base/StudentLocation?limit=100&order=-updatedAt" | grep '^{')"
    else
        line="$(BENCH_DIR="$ROOT/Benchmarks/server" BENCH_ACCOUNTS=$ACCOUNTS BENCH_PINS="$WORK/pins.txt" \
            wrk -t2 -c"$connections" -d"${DURATION}s" --timeout 10s -s "$ROOT/Benchmarks/server/mix.lua" "${base%/v1}" | grep '^{')"
    fi
    printf '%s\t%s\t%s\t%s\n' "$label" "$workload" "$connections" "$line" | tee -a "$RESULTS" >&2
}

. "$ROOT/Benchmarks/server/cpu-ticks.sh"
CPU_RESULTS="$WORK/cpu.tsv"
# cpu_run LABEL BASEURL: each kind of the mix's requests alone at 8 connections (few enough not to
# queue), and the CPU the server and PostgreSQL's backends spent per request.
cpu_run() {
    local label="$1" base="$2" kind server_before pg_before out requests
    for kind in 0 1 2; do
        server_before="$(cpu_ticks "$SERVER_PID")"
        pg_before="$(cpu_ticks $(pgrep -f "postgres: onthemap bench" || true))"
        out="$(BENCH_DIR="$ROOT/Benchmarks/server" BENCH_ACCOUNTS=$ACCOUNTS BENCH_PINS="$WORK/pins.txt" BENCH_ONLY=$kind \
            wrk -t2 -c8 -d5s --timeout 10s -s "$ROOT/Benchmarks/server/mix.lua" "${base%/v1}" | grep '^{')"
        requests="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["requests"])' "$out")"
        printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$kind" "$requests" \
            "$(($(cpu_ticks "$SERVER_PID") - server_before))" \
            "$(($(cpu_ticks $(pgrep -f "postgres: onthemap bench" || true)) - pg_before))" | tee -a "$CPU_RESULTS" >&2
    done
}

LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "==> runs of ${DURATION}s (load average before: $LOAD)" >&2
for c in 64 256; do run "nginx static file (floor)" get "$c" "http://127.0.0.1:$FLOOR_PORT/v1"; done

start_server sqlite --db "$SQLITE"
for w in get mix; do for c in 64 256; do run "SQLite" "$w" "$c" "$SERVER_URL"; done; done
cpu_run "SQLite" "$SERVER_URL"
stop_server "$SERVER_PID"
LOCKED_SQLITE="$(grep -c 'database is locked' "$WORK/sqlite.log" || true)"

start_server pg1 --database "$PGURL" --pool-size "$POOL"
for w in get mix; do for c in 64 256; do run "PostgreSQL, 1 replica" "$w" "$c" "$SERVER_URL"; done; done
cpu_run "PostgreSQL" "$SERVER_URL"
stop_server "$SERVER_PID"

start_server replicaA --database "$PGURL" --pool-size "$POOL" --trusted-proxy 127.0.0.1
A="$SERVER_URL"
A_HOST="${A#http://}"
# One replica behind the same nginx: the shipped config with the second server line removed.
ONE_PORT="$(free_port)"
sed -e "s|127.0.0.1:8081|${A_HOST%/v1}|; /127.0.0.1:8082/d; s|listen 80;|listen 127.0.0.1:$ONE_PORT;|" \
    docs/deploy/nginx-onthemap.conf >"$WORK/one-site.conf"
start_nginx one "$WORK/one-site.conf"
for w in get mix; do for c in 64 256; do run "PostgreSQL, 1 replica behind nginx" "$w" "$c" "http://127.0.0.1:$ONE_PORT/v1"; done; done
stop_nginx one

stop_server "$SERVER_PID"

# Two replicas on the same cores divide them (docs/DEPLOY.md, "Threads"), as one replica's
# threads would otherwise take turns with the other's.
THREADS=$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))
start_server replicaA2 --database "$PGURL" --pool-size "$POOL" --trusted-proxy 127.0.0.1 --threads "$THREADS"
A="$SERVER_URL"
A_HOST="${A#http://}"
start_server replicaB --database "$PGURL" --pool-size "$POOL" --trusted-proxy 127.0.0.1 --threads "$THREADS"
B="$SERVER_URL"
B_HOST="${B#http://}"
PROXY_PORT="$(free_port)"
sed -e "s|127.0.0.1:8081|${A_HOST%/v1}|; s|127.0.0.1:8082|${B_HOST%/v1}|; s|listen 80;|listen 127.0.0.1:$PROXY_PORT;|" \
    docs/deploy/nginx-onthemap.conf >"$WORK/replicas-site.conf"
start_nginx replicas "$WORK/replicas-site.conf"
for w in get mix; do for c in 64 256; do run "PostgreSQL, 2 replicas behind nginx" "$w" "$c" "http://127.0.0.1:$PROXY_PORT/v1"; done; done

python3 "$ROOT/Benchmarks/server/summarize.py" "$RESULTS" "$BYTES" "$DURATION" "$LOCKED_SQLITE" "$(nproc)" \
    "$LOAD" "$POOL" "$CPU_RESULTS" "$(getconf CLK_TCK)" "$THREADS" >"$WORK/section.md"
"$ROOT/scripts/bench-section.py" server-bench "$WORK/section.md"
cat "$WORK/section.md"

# Then the replicas under CPU quotas (one, two, three; root only: they are control groups).
if [ "${BENCH_QUOTA:-1}" = 1 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        "$ROOT/scripts/bench-server-quota.sh"
    else
        echo "SKIPPED: the replicas under CPU quotas (scripts/bench-server-quota.sh needs root for its control groups)" >&2
    fi
fi
