#!/usr/bin/env bash
# Builds and starts the whole system locally with no internet: onthemap-server on a demo SQLite
# database, then shows what it serves. State lives in ./run/ (delete it to start over).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${ONTHEMAP_DEMO_PORT:-8080}"
RUN_DIR="$PWD/run"
DB="$RUN_DIR/onthemap.sqlite"
API="http://127.0.0.1:$PORT/v1"
mkdir -p "$RUN_DIR"

./scripts/install-deps.sh

echo "==> building (the first build takes several minutes)"
swift build --product onthemap-server
BIN="$(swift build --show-bin-path)"

echo "==> seeding demo data into $DB"
"$BIN/onthemap-server" seed --db "$DB" --demo

if [ -f "$RUN_DIR/server.pid" ] && kill -0 "$(cat "$RUN_DIR/server.pid")" 2>/dev/null; then
    echo "==> onthemap-server already running (pid $(cat "$RUN_DIR/server.pid"))"
else
    echo "==> starting onthemap-server on $API"
    "$BIN/onthemap-server" serve --db "$DB" --port "$PORT" >"$RUN_DIR/server.out" 2>"$RUN_DIR/server.log" &
    echo $! >"$RUN_DIR/server.pid"
    for _ in $(seq 1 100); do
        grep -q "listening on" "$RUN_DIR/server.out" 2>/dev/null && break
        sleep 0.1
    done
    grep -q "listening on" "$RUN_DIR/server.out" || { cat "$RUN_DIR/server.log"; exit 1; }
fi

echo "==> logging in as the demo account"
curl -sf -X POST "$API/session" -H 'Content-Type: application/json' \
    -d '{"udacity":{"username":"demo@onthemap.example","password":"onthemap-demo"}}' | tail -c +6 | jq -c .account

echo "==> the 5 most recent students"
curl -sf "$API/StudentLocation?limit=5&order=-updatedAt" |
    jq -r '.results[] | "  \(.firstName) \(.lastName)  ·  \(.mapString)  ·  \(.mediaURL)"'

cat <<EOT

The server keeps running (pid $(cat "$RUN_DIR/server.pid"), log in $RUN_DIR/server.log).
Try:   curl -s '$API/StudentLocation?limit=3&order=-updatedAt' | jq .
Stop:  kill \$(cat $RUN_DIR/server.pid)
EOT
