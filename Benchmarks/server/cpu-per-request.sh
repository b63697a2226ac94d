#!/usr/bin/env bash
# CPU time a server spends per request: runs wrk for DURATION seconds (default 8) at CONNECTIONS
# (default 256) against URL, and divides the CPU time the given processes used meanwhile (user +
# system, all threads, from /proc) by the requests wrk completed.
#   Benchmarks/server/cpu-per-request.sh URL PID...
# e.g. the server: ... "http://127.0.0.1:8080/v1/StudentLocation?limit=100&order=-updatedAt" "$(pgrep -f 'onthemap-server serve')"
#      nginx:      ... "http://127.0.0.1:8090/v1/StudentLocation" $(pgrep -f 'nginx: worker')
set -euo pipefail
url="$1"
shift
duration="${DURATION:-8}"
connections="${CONNECTIONS:-256}"
ticks_per_second="$(getconf CLK_TCK)"
. "$(dirname "$0")/cpu-ticks.sh"
before="$(cpu_ticks "$@")"
out="$(wrk -t2 -c"$connections" -d"${duration}s" "$url")"
after="$(cpu_ticks "$@")"
requests="$(awk '/requests in/ {print $1}' <<<"$out")"
rate="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
python3 -c "
ticks, per_second, requests = $((after - before)), $ticks_per_second, $requests
print(f'{float(\"$rate\"):,.0f} requests/s; CPU {ticks / per_second:.2f} s for {requests:,} requests: {ticks / per_second / requests * 1e6:.1f} µs a request')"
