#!/usr/bin/env bash
# Reproduces the ICM metrics figures of docs/benchmarks.md ("ICM metrics"): MESSAGES messages
# between two synthetic chains, a block every SPACING seconds on each (the chain-icm synth_icm
# example, through the ICM deriver, which times the ingest), `metrics-api serve` over the store
# (a RocksDB secondary, --no-rate-limits), then under CONNS keep-alive connections for SECS
# seconds each:
#   1. a 30-day daily series (`/v2/icm/timeseries?timeInterval=day&startTimestamp=...`),
#   2. a 2,160-point hourly series (`timeInterval=hour&pageSize=2160`),
#   3. the summary (`/v2/icm/summary`: seven windows, all time included),
#   4. the framework's trivial route (rest-hello), the ceiling of the same run.
# Loopback only; every run is bounded by a request count and seconds.
#
#   bench/icm-metrics.sh [WORK_DIR=/tmp/snowline-bench-icm-metrics] [SECS=10] [CONNS=64]
#                        [MESSAGES=1000000] [SPACING=18]
#
# NO_BUILD=1 uses the release binaries already in REL (default CARGO_TARGET_DIR/release; another
# build's directory compares two versions: `metrics-api` and `examples/` under it).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
serving_args /tmp/snowline-bench-icm-metrics "$@"
MESSAGES=${4:-1000000}
SPACING=${5:-18}
API_PORT=19781
HELLO_PORT=19782
RAW_PORT=19783

REL=${REL:-$CARGO_TARGET_DIR/release}
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example synth_icm
  cargo build --release --workspace --example rest-hello --example rest-load
fi

if [ ! -d "$WORK/data-api/index" ]; then
  "$REL/examples/synth_icm" "$WORK/data-api" "$MESSAGES" 1000 "$SPACING"
fi
"$REL/metrics-api" serve --index-dir "$WORK/data-api" --data-dir "$WORK/metrics-api" \
  --listen "127.0.0.1:$API_PORT" --no-rate-limits >"$WORK/metrics-api.log" 2>&1 &
API_PID=$!
PIDS+=("$API_PID")
start_ceiling
wait_http "http://127.0.0.1:$API_PORT/healthz"

# The newest 30 days of the synthetic chains (block n at 1,700,000,000 + SPACING × n).
END=$((1700000000 + SPACING * MESSAGES / 2))
START=$((END - 30 * 86400))
DAILY="/v2/icm/timeseries?timeInterval=day&startTimestamp=$START&endTimestamp=$END"
HOURLY="/v2/icm/timeseries?timeInterval=hour&pageSize=2160"
SUMMARY="/v2/icm/summary"
count() { python3 -c 'import json,sys; r=json.load(sys.stdin)["results"]; print(len(r), "points,", sum(p["value"] for p in r), "messages")'; }
echo "daily: $(curl -s "http://127.0.0.1:$API_PORT$DAILY" | count)"
echo "hourly: $(curl -s "http://127.0.0.1:$API_PORT$HOURLY" | count)"
echo "summary: $(curl -s "http://127.0.0.1:$API_PORT$SUMMARY")"
serving_header
load
for round in 1 2; do
  echo "round $round"
  run "rest-hello /v1/hello (ceiling)" "$HELLO_PORT" /v1/hello
  run "30-day daily ICM series" "$API_PORT" "$DAILY" "$API_PID"
  run "2,160-point hourly ICM series" "$API_PORT" "$HOURLY" "$API_PID"
  run "ICM summary" "$API_PORT" "$SUMMARY" "$API_PID"
done
load
