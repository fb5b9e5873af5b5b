#!/usr/bin/env bash
# A new replica from the stream against one from a checkpoint in the fleet's object store, on
# the same data: one nats-server (JetStream, file store) and `node-rpc serve` with the large
# devnet of N_TXS txs (no live steps) on free loopback ports; a primary `data-api serve
# --upstream ... --publish` ingests it all and is stopped (SIGTERM); `data-api checkpoint --to`
# publishes its index to the bucket (wall, CPU and peak memory from /usr/bin/time); then replica A
# starts from an empty directory and applies the whole stream, and replica B starts with
# `--bootstrap-from nats://...` (fetch, check, rename, then the stream after the checkpoint):
# each one's start to the primary's position, its CPU and its peak memory (VmHWM). Finally both
# replicas' `digest` must equal the primary's. Release binaries; load average printed with each
# step (CPU times are the steadier figures on a shared machine).
#
# bench/fleet-checkpoint.sh [N_TXS (100000)] [WORK_DIR (/tmp/snowline-bench-fleet-checkpoint)]
# Needs nats-server, curl and python3; about 1 GB of disk per 100,000 txs. NO_BUILD=1 skips the
# build; everything is removed at the end unless KEEP=1.
set -euo pipefail

N_TXS=${1:-100000}
WORK=${2:-/tmp/snowline-bench-fleet-checkpoint}
SECRET=5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=${REL:-$CARGO_TARGET_DIR/release}
cd "$(dirname "$0")/.."
mkdir -p "$WORK"
source bench/lib.sh
# shellcheck source=fleet-lib.sh
source bench/fleet-lib.sh
[ -n "${NO_BUILD:-}" ] || cargo build --release -p data-api -p node-rpc --bins
finish() {
  cleanup
  wait 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$WORK/node" "$WORK/nats" "$WORK/primary" "$WORK/replica-a" "$WORK/replica-b"
}
trap finish EXIT

cpu_secs() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$1/stat"; }
peak_mb() { awk '/^VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
mb() { du -sm "$1" | cut -f1; }

NATS_PORT=$(free_port); NATS_MON=$(free_port); NODE_PORT=$(free_port)
P_PORT=$(free_port); A_PORT=$(free_port); B_PORT=$(free_port)
NATS=nats://127.0.0.1:$NATS_PORT
rm -rf "$WORK/nats" "$WORK/node" "$WORK/primary" "$WORK/replica-a" "$WORK/replica-b"
start_nats "$WORK/nats" "$NATS_PORT" "$NATS_MON"
"$REL/node-rpc" serve --data-dir "$WORK/node" --listen "127.0.0.1:$NODE_PORT" --network local \
  --devnet-txs "$N_TXS" --no-metering >"$WORK/node.log" 2>&1 &
PIDS+=($!)
echo "node-rpc: generating and loading the large:$N_TXS devnet; $(load)"
wait_for 3600 "node-rpc" curl -s -o /dev/null "http://127.0.0.1:$NODE_PORT/"
common=(--no-rate-limits --no-metering --token-secret "$SECRET")

echo "== primary: ingest and publish everything; $(load)"
START=$(now)
"$REL/data-api" serve --data-dir "$WORK/primary" --listen "127.0.0.1:$P_PORT" \
  --upstream "http://127.0.0.1:$NODE_PORT" --genesis devnet --devnet-txs "$N_TXS" \
  --publish "$NATS" "${common[@]}" >"$WORK/primary.log" 2>&1 &
P_PID=$!
PIDS+=($P_PID)
settled() {
  ready "$P_PORT" && [ "$(metric "$P_PORT" snowline_ingest_behind_containers)" = 0 ] &&
    [ "$(pos "$P_PORT")" -gt 0 ] && [ "$(metric "$P_PORT" snowline_fleet_acked)" = "$(pos "$P_PORT")" ]
}
wait_for 3600 "the primary" settled
POS=$(pos "$P_PORT")
echo "primary: batch $POS after $(secs_since "$START") s; CPU $(cpu_secs $P_PID) s"
stop $P_PID
echo "primary's index: $(mb "$WORK/primary/index") MB; stream and buckets on disk: $(mb "$WORK/nats/store") MB"

echo "== checkpoint --to (the stopped primary's index to the bucket); $(load)"
/usr/bin/time -f "checkpoint --to: %e s wall, %U s user + %S s system CPU, peak memory %M KB" \
  "$REL/data-api" checkpoint --data-dir "$WORK/primary" --to "$NATS" 2>&1 | tail -2
echo "stream and buckets on disk now: $(mb "$WORK/nats/store") MB"

replica() { # name port extra...: a replica started, timed to the primary's position, stopped
  local name=$1 port=$2 start pid
  shift 2
  start=$(now)
  "$REL/data-api" serve --data-dir "$WORK/$name" --listen "127.0.0.1:$port" --replica-of "$NATS" \
    "${common[@]}" "$@" >"$WORK/$name.log" 2>&1 &
  pid=$!
  PIDS+=($pid)
  caught_up() { [ "$(pos "$port")" = "$POS" ]; }
  wait_for 3600 "$name" caught_up
  echo "$name: at batch $POS after $(secs_since "$start") s (applied $(metric "$port" snowline_fleet_batches) batches); CPU $(cpu_secs $pid) s; peak memory $(peak_mb $pid) MB"
  stop $pid
  echo "$name's index: $(mb "$WORK/$name/index") MB"
}
echo "== replica A from an empty directory (the whole stream); $(load)"
replica replica-a "$A_PORT"
echo "== replica B from the bucket's checkpoint; $(load)"
replica replica-b "$B_PORT" --bootstrap-from "$NATS"
grep -h "index started from" "$WORK/replica-b.log" || true

want=$("$REL/data-api" digest --data-dir "$WORK/primary")
for r in replica-a replica-b; do
  [ "$("$REL/data-api" digest --data-dir "$WORK/$r")" = "$want" ] || { echo "$r's tables differ from the primary's" >&2; exit 1; }
done
echo "both replicas' digests equal the primary's; $(load)"
