#!/usr/bin/env bash
# Reproduces the fleet's figures of docs/benchmarks.md ("Fleet"), release builds, on loopback:
# one nats-server (JetStream, file store) on free ports, `node-rpc serve` with the large devnet
# of N_TXS txs and then live steps at LIVE_RATE containers a second, a primary
# `data-api serve --upstream ... --publish` following it, and replicas `--replica-of`:
#   0. a standalone node (no --publish) following the same node: the primary's baseline;
#   1. catch-up: the primary and replica A start together on the whole history; the primary's
#      ingest rate (start until /readyz is 200, nothing behind, every batch acknowledged) and
#      A's lag histogram over that time (`snowline_fleet_lag_seconds`: commit to readable);
#   2. apply rate: A stopped and removed, replica B started from an empty directory: the time
#      until it has applied every batch the primary had committed when B started (batches/s,
#      txs/s, and as a ratio to the primary's ingest);
#   3. live: B's lag histogram over LIVE_SECS of live steps (the difference of two scrapes);
#   4. serving: X balances of 5 addresses, P UTXOs of 5 addresses and a page of X blocks, from
#      replica B and from a standalone node (the primary's index, served without --publish and
#      without upstream), each under CONNS connections next to the plain hyper handler measured
#      in the same run, ROUNDS interleaved rounds;
#   5. raw RocksDB: every entry of B's index written with plain calls into a fresh RocksDB in as
#      many atomic batches as the stream carried (`raw-rewrite`, the ceiling of the apply rate).
# Every load run is bounded by a request count and seconds (rest-load checks every response's
# status); every wait is bounded. Needs curl, python3 and nats-server, and free disk in WORK_DIR
# for the node's store, two indexes (1.8 KB per tx each) and the stream (3.9 KB per tx) at
# once: about 3.5 GB for the large:300000 devnet, 10 GB for the 1M-tx one (plus 1.6 GB if the
# devnet is generated there); all removed at the end unless KEEP=1.
#
#   bench/fleet.sh [N_TXS=1000000] [WORK_DIR=/tmp/snowline-bench-fleet] [SECS=8] [CONNS=64]
#
# Environment: DEVNET_DIR=dir with containers.jsonl and genesis.json of the same devnet (default
# WORK_DIR/devnet-N_TXS, generated if absent: its txs are counted and its addresses loaded from
# it; node-rpc generates the same devnet itself to go on live); LIVE_RATE (default 10);
# LIVE_SECS (default 60); ROUNDS (default 2); PERF=FILE records a perf profile of replica B's
# apply (step 2) into FILE; API_BIN=PATH runs another data-api binary (a before/after pair);
# NO_BUILD=1 uses the release binaries already in
# CARGO_TARGET_DIR.
set -euo pipefail

N_TXS=${1:-1000000}
WORK=${2:-/tmp/snowline-bench-fleet}
SECS=${3:-8}
CONNS=${4:-64}
MAX_REQ=5000000
MAX_WAIT_SECS=3600
LIVE_RATE=${LIVE_RATE:-10}
LIVE_SECS=${LIVE_SECS:-60}
SECRET=5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
API_BIN=${API_BIN:-$REL/data-api}
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
# shellcheck source=fleet-lib.sh
source bench/fleet-lib.sh
build_bench
finish() {
  cleanup
  [ -n "${KEEP:-}" ] || rm -rf "$WORK/node" "$WORK/nats" "$WORK/primary" "$WORK/replica-a" "$WORK/replica-b" "$WORK/raw" "$WORK/standalone-follow"
}
trap finish EXIT

NATS_PORT=$(free_port)
NATS_MON=$(free_port)
NODE_PORT=$(free_port)
PRIMARY_PORT=$(free_port)
A_PORT=$(free_port)
B_PORT=$(free_port)
SOLO_PORT=$(free_port)
HELLO_PORT=$(free_port)
RAW_PORT=$(free_port)
NATS=nats://127.0.0.1:$NATS_PORT

devnet
FILE=$DEV/containers.jsonl
# The txs the primary derives: the generator's count of X and P txs (its log beside the devnet,
# or WORK/gen.log), else the file's X txs alone.
GEN_LINE=$({ cat "$DEV.log" "$WORK/gen.log" 2>/dev/null || true; } | grep -h '^wrote' | tail -1 || true)
if [[ $GEN_LINE =~ ^wrote\ ([0-9]+)\ X\ txs.*\ ([0-9]+)\ P\ txs ]]; then
  X_TXS=${BASH_REMATCH[1]}
  P_TXS=${BASH_REMATCH[2]}
else
  X_TXS=$(grep -c '"path":"X/tx"' "$FILE")
  P_TXS=0
fi
echo "devnet: $FILE; $X_TXS X txs and $P_TXS P txs"

scrape() { curl -s "http://127.0.0.1:$1/metrics" >"$2"; }
lag() { # before after label: p50/p99/max bucket of the lag histogram between two scrapes
  python3 - "$1" "$2" "$3" <<'PY'
import sys
def buckets(path):
    out = {}
    if path == "-":
        return out
    for line in open(path):
        if line.startswith("snowline_fleet_lag_seconds_bucket{le=\""):
            le, count = line[len("snowline_fleet_lag_seconds_bucket{le=\""):].split("\"} ")
            out[float(le) if le != "+Inf" else float("inf")] = int(float(count))
    return out
a, b = buckets(sys.argv[1]), buckets(sys.argv[2])
d = sorted((le, n - a.get(le, 0)) for le, n in b.items())
total = d[-1][1] if d else 0
def q(p):
    # histogram_quantile's rule: linear within the bucket the rank falls in.
    rank, prev_le, prev_n = p * total, 0.0, 0
    for le, n in d:
        if n >= rank:
            if le == float("inf"):
                return prev_le
            return prev_le + (le - prev_le) * (rank - prev_n) / max(n - prev_n, 1)
        prev_le, prev_n = le, n
    return prev_le
top = next((le for le, n in d if n == total), 0.0)
print(f"{sys.argv[3]}: {total} batches, lag p50 {q(0.5) * 1000:,.0f} ms, p99 {q(0.99) * 1000:,.0f} ms, "
      f"all within {top * 1000:,.0f} ms (histogram buckets 1.5x apart)")
PY
}
primary_settled() {
  ready "$PRIMARY_PORT" && [ "$(metric "$PRIMARY_PORT" snowline_ingest_behind_containers)" = 0 ] &&
    [ "$(pos "$PRIMARY_PORT")" -gt 0 ] && [ "$(metric "$PRIMARY_PORT" snowline_fleet_acked)" = "$(pos "$PRIMARY_PORT")" ]
}
at_least() { [ "$(pos "$1")" -ge "$2" ]; }

# NATS: one server with JetStream; batches over 8 MB go in parts, as in the tests and the demo.
rm -rf "$WORK/node" "$WORK/nats" "$WORK/primary" "$WORK/replica-a" "$WORK/replica-b" "$WORK/raw" "$WORK/standalone-follow"
start_nats "$WORK/nats" "$NATS_PORT" "$NATS_MON"
echo "nats-server $(nats-server --version | grep -o 'v[0-9][0-9.]*') on $NATS"

# The node: the same devnet, generated and loaded, then live.
"$REL/node-rpc" serve --data-dir "$WORK/node" --listen "127.0.0.1:$NODE_PORT" --network local \
  --devnet-txs "$N_TXS" --live-rate "$LIVE_RATE" --no-metering >"$WORK/node.log" 2>&1 &
NODE_PID=$!
PIDS+=($NODE_PID)
echo "node-rpc: generating and loading the devnet; $(load)"
for _ in $(seq 1 $((MAX_WAIT_SECS * 5))); do
  curl -s -o /dev/null "http://127.0.0.1:$NODE_PORT/" && break
  kill -0 "$NODE_PID" 2>/dev/null || { echo "node-rpc stopped; see $WORK/node.log" >&2; exit 1; }
  sleep 0.2
done
python3 - "$NODE_PORT" "$FILE" <<'PY'
import json, sys, urllib.request
ids = [json.loads(l)["id"] for l in open(sys.argv[2]) if '"path":"X/tx"' in l]
for txid in (ids[0], ids[-1]):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "avm.getTx", "params": {"txID": txid}}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/ext/bc/X", body, {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        if "result" not in json.load(r):
            sys.exit(f"node-rpc's devnet lacks tx {txid} of the file: not the same devnet")
print("node-rpc serves the file's devnet (its first and last X txs), live from now")
PY

serve_args=(--genesis devnet --devnet-txs "$N_TXS" --no-rate-limits --no-metering --token-secret "$SECRET")

# 0. A standalone node's ingest of the same history, the baseline of the primary's (which also
# journals and publishes every batch).
echo "== 0. a standalone node following the same node; $(load)"
START=$(now)
"$API_BIN" serve --data-dir "$WORK/standalone-follow" --listen "127.0.0.1:$SOLO_PORT" \
  --upstream "http://127.0.0.1:$NODE_PORT" "${serve_args[@]}" >"$WORK/standalone-follow.log" 2>&1 &
SOLO_PID=$!
PIDS+=($SOLO_PID)
solo_settled() { ready "$SOLO_PORT" && [ "$(metric "$SOLO_PORT" snowline_ingest_behind_containers)" = 0 ]; }
wait_for "$MAX_WAIT_SECS" "the standalone node to catch up" solo_settled
SOLO_SECS=$(secs_since "$START")
SOLO_CPU=$(awk -v t="$(cpu_ticks "$SOLO_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
echo "standalone: caught up after $SOLO_SECS s; CPU $SOLO_CPU s"
stop "$SOLO_PID"
rm -rf "$WORK/standalone-follow"

# 1. Catch-up: the primary and replica A together on the whole history.
echo "== 1. catch-up: primary and replica A start together; $(load)"
START=$(now)
"$API_BIN" serve --data-dir "$WORK/primary" --listen "127.0.0.1:$PRIMARY_PORT" \
  --upstream "http://127.0.0.1:$NODE_PORT" --publish "$NATS" "${serve_args[@]}" >"$WORK/primary.log" 2>&1 &
PRIMARY_PID=$!
PIDS+=($PRIMARY_PID)
"$API_BIN" serve --data-dir "$WORK/replica-a" --listen "127.0.0.1:$A_PORT" \
  --replica-of "$NATS" "${serve_args[@]}" >"$WORK/replica-a.log" 2>&1 &
A_PID=$!
PIDS+=($A_PID)
wait_for "$MAX_WAIT_SECS" "the primary to catch up" primary_settled
PRIMARY_SECS=$(secs_since "$START")
P0=$(pos "$PRIMARY_PORT")
wait_for "$MAX_WAIT_SECS" "replica A to apply batch $P0" at_least "$A_PORT" "$P0"
A_SECS=$(secs_since "$START")
scrape "$A_PORT" "$WORK/a-caught-up.metrics"
PRIMARY_CPU=$(awk -v t="$(cpu_ticks "$PRIMARY_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
A_CPU=$(awk -v t="$(cpu_ticks "$A_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
python3 -c "
t = $X_TXS + $P_TXS
print(f'primary: {t:,} txs (X and P) in $P0 batches, settled after $PRIMARY_SECS s: {t / $PRIMARY_SECS:,.0f} txs/s, {$P0 / $PRIMARY_SECS:.1f} batches/s; CPU $PRIMARY_CPU s')
print(f'  that is {$PRIMARY_CPU / $SOLO_CPU:.2f} of the CPU and {$PRIMARY_SECS / $SOLO_SECS:.2f} of the time of the standalone node')
print(f'replica A (beside it): batch $P0 applied after $A_SECS s; CPU $A_CPU s ({$A_CPU / $PRIMARY_CPU:.2f} of the primary\'s)')"
lag - "$WORK/a-caught-up.metrics" "replica A during the catch-up"
stop "$A_PID"
rm -rf "$WORK/replica-a"

# 2. Apply rate: replica B from an empty directory, to the batch the primary is at now.
P1=$(pos "$PRIMARY_PORT")
echo "== 2. apply rate: replica B from an empty directory to batch $P1; $(load)"
START=$(now)
"$API_BIN" serve --data-dir "$WORK/replica-b" --listen "127.0.0.1:$B_PORT" \
  --replica-of "$NATS" "${serve_args[@]}" >"$WORK/replica-b.log" 2>&1 &
B_PID=$!
PIDS+=($B_PID)
wait_for 600 "replica B to listen" curl -s -o /dev/null "http://127.0.0.1:$B_PORT/metrics"
B_LISTEN=$(secs_since "$START")
if [ -n "${PERF:-}" ]; then
  perf record -F 499 -g -p "$B_PID" -o "$PERF" >/dev/null 2>&1 &
  PERF_PID=$!
fi
wait_for "$MAX_WAIT_SECS" "replica B to apply batch $P1" at_least "$B_PORT" "$P1"
[ -n "${PERF:-}" ] && kill -INT "$PERF_PID" && wait "$PERF_PID" || true
B_SECS=$(secs_since "$START")
B_CPU=$(awk -v t="$(cpu_ticks "$B_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
STREAM_BYTES=$(du -sb "$WORK/nats/store" | cut -f1)
python3 -c "
t = $X_TXS + $P_TXS
print(f'replica B: $P1 batches in $B_SECS s from its start (listening after $B_LISTEN s): {t / $B_SECS:,.0f} txs/s, {$P1 / $B_SECS:.1f} batches/s, '
      f'{$PRIMARY_SECS / $B_SECS:.1f}x the primary\'s ingest rate; CPU $B_CPU s ({$PRIMARY_CPU / $B_CPU:.1f}x less than the primary\'s, {$B_CPU / $SOLO_CPU:.2f} of the standalone node\'s); stream {$STREAM_BYTES / 1e6:,.0f} MB on disk')"

# 3. Live: B's lag while the node goes on at LIVE_RATE containers a second, from the moment it
# has applied what the primary committed during its catch-up (older batches would count their
# wait in the stream).
P2=$(pos "$PRIMARY_PORT")
wait_for "$MAX_WAIT_SECS" "replica B to apply batch $P2" at_least "$B_PORT" "$P2"
echo "== 3. live: $LIVE_SECS s at $LIVE_RATE containers/s, from batch $P2; $(load)"
scrape "$B_PORT" "$WORK/b-live-0.metrics"
sleep "$LIVE_SECS"
scrape "$B_PORT" "$WORK/b-live-1.metrics"
lag "$WORK/b-live-0.metrics" "$WORK/b-live-1.metrics" "replica B, live"
echo "primary at batch $(pos "$PRIMARY_PORT"), replica B at $(pos "$B_PORT"); $(load)"

# 4. Serving: replica B against a standalone node on the primary's index. The node and the
# primary stop (no ingest competes with the load); B is restarted, so both nodes serve from a
# freshly opened store (RocksDB flushes the write-ahead log's tail at open; a node that has just
# written holds it in memtables), and stays connected to NATS.
echo "memtables before the restarts: replica B $(metric "$B_PORT" snowline_store_memtable_bytes) bytes, the primary $(metric "$PRIMARY_PORT" snowline_store_memtable_bytes)"
stop "$PRIMARY_PID" "$NODE_PID" "$B_PID"
"$API_BIN" serve --data-dir "$WORK/replica-b" --listen "127.0.0.1:$B_PORT" \
  --replica-of "$NATS" "${serve_args[@]}" >>"$WORK/replica-b.log" 2>&1 &
B_PID=$!
PIDS+=($B_PID)
PRIMARY_MB=$(($(du -sb "$WORK/primary/index" | cut -f1) / 1000000))
B_MB=$(($(du -sb "$WORK/replica-b/index" | cut -f1) / 1000000))
echo "on disk: the primary's index $PRIMARY_MB MB, replica B's $B_MB MB, the stream $((STREAM_BYTES / 1000000)) MB"
rm -rf "$WORK/node"
"$API_BIN" serve --data-dir "$WORK/primary" --listen "127.0.0.1:$SOLO_PORT" "${serve_args[@]}" \
  >"$WORK/standalone.log" 2>&1 &
SOLO_PID=$!
PIDS+=($SOLO_PID)
wait_http "http://127.0.0.1:$SOLO_PORT/v1/chains"
wait_http "http://127.0.0.1:$B_PORT/v1/chains"
python3 - "$DEV" "$WORK" "$B_PORT" "$SOLO_PORT" <<'PY'
import json, random, sys, urllib.request
dev, work, ports = sys.argv[1], sys.argv[2], sys.argv[3:]
N = "/v1/networks/local/blockchains"
g = json.load(open(f"{dev}/genesis.json"))
hrp_addrs = [k["address"].split("-", 1)[1] for k in g["keys"]]
rng = random.Random(1)
sets = [rng.sample(hrp_addrs, min(5, len(hrp_addrs))) for _ in range(1024)]
paths = {
    "x-balances": [f"{N}/x-chain/balances?addresses={','.join('X-' + a for a in s)}" for s in sets],
    "p-utxos": [f"{N}/p-chain/utxos?addresses={','.join('P-' + a for a in s)}&pageSize=100" for s in sets],
    "x-blocks": [f"{N}/x-chain/blocks?pageSize=10"],
}
for name, ps in paths.items():
    with open(f"{work}/{name}.paths", "w") as f:
        f.writelines(p + "\n" for p in ps)
# Both nodes answer the same bytes (the replica holds the primary's tables).
for name, ps in paths.items():
    bodies = []
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{ps[0]}") as r:
            bodies.append(r.read())
    if bodies[0] != bodies[1]:
        sys.exit(f"{name}: the replica and the standalone node answer differently")
first = {k: json.loads(urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}{v[0]}").read()) for k, v in paths.items()}
print(f"{len(hrp_addrs)} addresses, sets of 5; first answers, the same on both nodes: "
      f"{len(first['x-balances']['balances'].get('unlocked', []))} X unlocked balances, "
      f"{len(first['p-utxos']['utxos'])} P UTXOs, {len(first['x-blocks']['blocks'])} X blocks")
PY
start_ceiling
serving_header
for round in $(seq 1 "${ROUNDS:-2}"); do
  echo "round $round, $(load)"
  run "plain hyper handler (ceiling)" "$RAW_PORT" /v1/hello "$HELLO_PID"
  run "replica: X balances, 5 addresses" "$B_PORT" "@$WORK/x-balances.paths" "$B_PID"
  run "standalone: X balances, 5 addresses" "$SOLO_PORT" "@$WORK/x-balances.paths" "$SOLO_PID"
  run "replica: P UTXOs, 5 addresses" "$B_PORT" "@$WORK/p-utxos.paths" "$B_PID"
  run "standalone: P UTXOs, 5 addresses" "$SOLO_PORT" "@$WORK/p-utxos.paths" "$SOLO_PID"
  run "replica: X blocks, 10 a page" "$B_PORT" "@$WORK/x-blocks.paths" "$B_PID"
  run "standalone: X blocks, 10 a page" "$SOLO_PORT" "@$WORK/x-blocks.paths" "$SOLO_PID"
done

# 5. Raw RocksDB: B's entries in as many batches as it applied, everything else stopped.
cleanup
PIDS=()
wait 2>/dev/null || true
rm -rf "$WORK/nats" "$WORK/primary"
echo "== 5. raw RocksDB writes of replica B's entries in $P1 batches; $(load)"
"$REL/examples/raw-rewrite" "$WORK/replica-b/index" "$WORK/raw" "" "$P1" | tee "$WORK/raw.log"
RAW_SECS=$(grep -o '[0-9.]* s (' "$WORK/raw.log" | grep -o '^[0-9.]*')
python3 -c "print(f'replica B applied at {$RAW_SECS / $B_SECS:.2f} of the raw write rate ($B_SECS s from its start vs $RAW_SECS s); the primary derived at {$RAW_SECS / $PRIMARY_SECS:.2f} of it')"
