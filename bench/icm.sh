#!/usr/bin/env bash
# Reproduces the ICM listing figures of docs/benchmarks.md ("ICM and Warp"): MESSAGES messages
# between two synthetic chains written by the chain-icm synth_icm example (through the ICM
# deriver, from v1 event logs) into a data-api store, `data-api serve` over it
# (--no-rate-limits), then under CONNS keep-alive connections for SECS seconds each:
#   1. the newest 10 messages (`/v1/icm/messages`),
#   2. 10 messages from one chain (`?sourceBlockchainId=43112`: the per-chain index),
#   3. a sender's messages (`/v1/icm/addresses/{address}/messages`: the per-address index),
#   4. one message by id,
#   5. the framework's trivial route (rest-hello), the ceiling of the same run.
# Loopback only; every run is bounded by a request count and seconds.
#
#   bench/icm.sh [WORK_DIR=/tmp/snowline-bench-icm] [SECS=10] [CONNS=64] [MESSAGES=200000]
#
# NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
serving_args /tmp/snowline-bench-icm "$@"
MESSAGES=${4:-200000}
API_PORT=19771
HELLO_PORT=19772
RAW_PORT=19773

REL=$CARGO_TARGET_DIR/release
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example synth_icm
  cargo build --release --workspace --example rest-hello --example rest-load
fi

if [ ! -d "$WORK/data/index" ]; then
  "$REL/examples/synth_icm" "$WORK/data" "$MESSAGES"
fi
"$REL/data-api" serve --data-dir "$WORK/data" --listen "127.0.0.1:$API_PORT" \
  --no-rate-limits >"$WORK/data-api.log" 2>&1 &
API_PID=$!
PIDS+=("$API_PID")
start_ceiling
wait_http "http://127.0.0.1:$API_PORT/healthz"

NEWEST="/v1/icm/messages"
CHAIN="/v1/icm/messages?sourceBlockchainId=43112"
SENDER="/v1/icm/addresses/0xa000000000000000000000000000000000000007/messages"
ID=$(curl -s "http://127.0.0.1:$API_PORT$NEWEST?pageSize=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["messages"][0]["messageId"])')
ONE="/v1/icm/messages/$ID"
for p in "$NEWEST" "$CHAIN" "$SENDER"; do
  echo "$p: $(curl -s "http://127.0.0.1:$API_PORT$p" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["messages"]), "messages")')"
done
serving_header
load
for round in 1 2; do
  echo "round $round"
  run "rest-hello /v1/hello (ceiling)" "$HELLO_PORT" /v1/hello
  run "newest 10 messages" "$API_PORT" "$NEWEST" "$API_PID"
  run "10 messages of one source chain" "$API_PORT" "$CHAIN" "$API_PID"
  run "10 messages of one sender" "$API_PORT" "$SENDER" "$API_PID"
  run "one message by id" "$API_PORT" "$ONE" "$API_PID"
done
load
