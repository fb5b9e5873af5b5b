#!/usr/bin/env bash
# Reproduces the metrics API's serving figures of docs/benchmarks.md ("Metrics"): a synthetic
# chain's metrics (DAYS days, a block a minute) written by the chain-metrics synth_store example
# into a data-api-shaped store, `metrics-api serve` over it (a RocksDB secondary,
# --no-rate-limits), then under CONNS keep-alive connections for SECS seconds each:
#   1. a 30-day daily txCount (`/v2/chains/43114/metrics/txCount?timeInterval=day&...`),
#   2. a 2,160-point hourly txCount (`timeInterval=hour&pageSize=2160`),
#   3. the framework's trivial route (rest-hello), the ceiling of the same run.
# Loopback only; every run is bounded by a request count and seconds.
#
#   bench/metrics-api.sh [WORK_DIR=/tmp/snowline-bench-metrics] [SECS=10] [CONNS=64] [DAYS=120]
#
# NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
serving_args /tmp/snowline-bench-metrics "$@"
DAYS=${4:-120}
API_PORT=19761
HELLO_PORT=19762
RAW_PORT=19763

REL=$CARGO_TARGET_DIR/release
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example synth_store
  cargo build --release --workspace --example rest-hello --example rest-load
fi

if [ ! -d "$WORK/data-api/index" ]; then
  "$REL/examples/synth_store" "$WORK/data-api" "$DAYS" 60 5 20000 43114
fi
"$REL/metrics-api" serve --index-dir "$WORK/data-api" --data-dir "$WORK/metrics-api" \
  --listen "127.0.0.1:$API_PORT" --no-rate-limits >"$WORK/metrics-api.log" 2>&1 &
API_PID=$!
PIDS+=("$API_PID")
start_ceiling
wait_http "http://127.0.0.1:$API_PORT/healthz"

# The newest 30 days of the synthetic chain (it starts at 2023-11-14 00:00 UTC's day).
END=$((1700000000 + DAYS * 86400))
START=$((END - 30 * 86400))
DAILY="/v2/chains/43114/metrics/txCount?timeInterval=day&startTimestamp=$START&endTimestamp=$END"
HOURLY="/v2/chains/43114/metrics/txCount?timeInterval=hour&pageSize=2160"
echo "daily: $(curl -s "http://127.0.0.1:$API_PORT$DAILY" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["results"]), "points")')"
echo "hourly: $(curl -s "http://127.0.0.1:$API_PORT$HOURLY" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["results"]), "points")')"
load
for round in 1 2; do
  echo "round $round"
  run "rest-hello /v1/hello (ceiling)" "$HELLO_PORT" /v1/hello
  run "30-day daily txCount" "$API_PORT" "$DAILY" "$API_PID"
  run "2,160-point hourly txCount" "$API_PORT" "$HOURLY" "$API_PID"
done
load
