#!/usr/bin/env bash
# Reproduces every Data API figure of docs/benchmarks.md:
#   1. the stack (STEPS=stack): `GET /v1/chains/43112` on data-api with rate limits + metering on (a tier budget
#      that never refuses) and with --no-rate-limits --no-metering, next to rest-hello's plain
#      hyper handler and its trivial framework route, and with limits only / metering only, all
#      in the same run, three rounds interleaved;
#   2. the X-Chain history's ingest (STEPS=history): the devnet imported into node-rpc, then data-api following that node
#      from an empty data dir (wall time until /readyz is 200 and /metrics says 0 containers
#      behind; peak RSS = VmHWM of the data-api process);
#   3. the X-Chain history's serving, on the followed data: UTXO listings and balances of 5 addresses
#      (thousands of address sets taken from the data), and page 1 vs page 1,000 of one listing
#      (pageSize 100, spent included, over an address set with >= 100k UTXOs), and the latency
#      of a light request (a chain lookup) while UTXO listings load the server;
#   4. `data-api import` of the same file into another empty dir (/usr/bin/time -v).
# Loopback only; every load run is bounded by a request count and seconds (examples/rest-load.rs
# checks every response's status); every wait is bounded. The load generator and the servers
# share the machine's cores. Needs curl, python3 (stdlib) and GNU time (Debian `time`), and for
# the 1M-tx devnet about 4 GB free in WORK_DIR (node-rpc's store, the followed and imported ones).
#
#   bench/data-api.sh [N_TXS=1000000] [WORK_DIR=/tmp/snowline-bench-data-api] [SECS=10] [CONNS=64]
#
# Environment: DEVNET_DIR=dir with containers.jsonl (default WORK_DIR/devnet-N_TXS, generated if
# absent); PREFIX=N imports only the first N containers of the file; STEPS="stack history"
# (default), STEPS=stack or STEPS=history runs one part only; NO_BUILD=1 uses the release binaries already in
# CARGO_TARGET_DIR; ROUNDS=N runs the stack's interleaved rounds N times (default 3; more rounds
# of fewer SECS narrow the noise of a shared machine).
set -euo pipefail

N_TXS=${1:-1000000}
WORK=${2:-/tmp/snowline-bench-data-api}
SECS=${3:-10}
CONNS=${4:-64}
MAX_REQ=5000000
MAX_WAIT_SECS=3600
NODE_PORT=19750
API_PORT=19751     # data-api following node-rpc (history)
OPEN_PORT=19752    # data-api, --no-rate-limits --no-metering (stack)
METER_PORT=19753   # data-api, rate limits + metering on (stack)
LIMITS_PORT=19756  # data-api, rate limits on, --no-metering (stack)
USAGE_PORT=19757   # data-api, metering on, --no-rate-limits (stack)
HELLO_PORT=19754   # rest-hello: the framework's trivial route
RAW_PORT=19755     # rest-hello: a plain hyper handler

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
build_bench

# The devnet (generated once; see bench/node-rpc.sh and docs/devnet.md).
devnet
FILE=$DEV/containers.jsonl
if [ -n "${PREFIX:-}" ]; then
  head -n "$PREFIX" "$DEV/containers.jsonl" >"$WORK/prefix.jsonl"
  FILE=$WORK/prefix.jsonl
fi
echo "devnet file: $FILE, $(wc -l <"$FILE") containers"

STEPS=${STEPS:-stack history}

if [[ " $STEPS " == *" stack "* ]]; then
# 1. The stack: the cost of the Data API stack on its cheapest endpoint, and of limits + metering.
rm -rf "$WORK/open" "$WORK/meter" "$WORK/limits" "$WORK/usage"
"$REL/examples/rest-hello" "127.0.0.1:$HELLO_PORT" "127.0.0.1:$RAW_PORT" >"$WORK/hello.log" 2>&1 &
HELLO_PID=$!
PIDS+=($HELLO_PID)
"$REL/data-api" serve --data-dir "$WORK/open" --listen "127.0.0.1:$OPEN_PORT" \
  --no-rate-limits --no-metering >"$WORK/open.log" 2>&1 &
OPEN_PID=$!
PIDS+=($OPEN_PID)
"$REL/data-api" serve --data-dir "$WORK/meter" --listen "127.0.0.1:$METER_PORT" \
  --rate-limit anonymous=100000000/1000000000 >"$WORK/meter.log" 2>&1 &
METER_PID=$!
PIDS+=($METER_PID)
"$REL/data-api" serve --data-dir "$WORK/limits" --listen "127.0.0.1:$LIMITS_PORT" \
  --rate-limit anonymous=100000000/1000000000 --no-metering >"$WORK/limits.log" 2>&1 &
LIMITS_PID=$!
PIDS+=($LIMITS_PID)
"$REL/data-api" serve --data-dir "$WORK/usage" --listen "127.0.0.1:$USAGE_PORT" \
  --no-rate-limits >"$WORK/usage.log" 2>&1 &
USAGE_PID=$!
PIDS+=($USAGE_PID)
for p in $HELLO_PORT $RAW_PORT $OPEN_PORT $METER_PORT $LIMITS_PORT $USAGE_PORT; do
  wait_http "http://127.0.0.1:$p/"
done
echo "== stack: GET /v1/chains/43112, $CONNS connections, $SECS s each; $(nproc) cores shared by servers and load generator"
for round in $(seq 1 "${ROUNDS:-3}"); do
  echo "round $round, $(load)"
  run "plain hyper handler" $RAW_PORT /v1/hello $HELLO_PID
  run "rest-api trivial route" $HELLO_PORT /v1/hello $HELLO_PID
  run "data-api, no limits, no metering" $OPEN_PORT /v1/chains/43112 $OPEN_PID
  run "data-api, limits + metering" $METER_PORT /v1/chains/43112 $METER_PID
  run "data-api, limits only" $LIMITS_PORT /v1/chains/43112 $LIMITS_PID
  run "data-api, metering only" $USAGE_PORT /v1/chains/43112 $USAGE_PID
done
curl -s "http://127.0.0.1:$METER_PORT/metrics" | grep -E '^snowline_usage_events_(written|dropped)' || true
# Stop the stack's servers so they do not compete with the ingest below.
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
PIDS=()
fi

[[ " $STEPS " == *" history "* ]] || exit 0
# 2. The history's ingest. The upstream: node-rpc serving the devnet from its own imported store.
# Its store is kept between runs of this script when it was imported from the same file.
rm -rf "$WORK/follow" "$WORK/import"
echo "== history ingest; $(load)"
STAMP="$FILE $(stat -c '%s %Y' "$FILE")"
if [ "$(cat "$WORK/node.imported" 2>/dev/null)" != "$STAMP" ]; then
  rm -rf "$WORK/node" "$WORK/node.imported"
  /usr/bin/time -v "$REL/node-rpc" import --data-dir "$WORK/node" "$FILE" >"$WORK/node-import.log" 2>&1
  echo "$STAMP" >"$WORK/node.imported"
fi
echo "node-rpc import (the upstream's store): $(grep 'Elapsed (wall clock)' "$WORK/node-import.log" | awk '{print $NF}')"
"$REL/node-rpc" serve --source none --data-dir "$WORK/node" --listen "127.0.0.1:$NODE_PORT" >"$WORK/node.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$NODE_PORT/"
echo "following, $(load)"
START=$(date +%s.%N)
"$REL/data-api" serve --data-dir "$WORK/follow" --listen "127.0.0.1:$API_PORT" \
  --upstream "http://127.0.0.1:$NODE_PORT" --genesis devnet --devnet-txs "$N_TXS" --no-rate-limits >"$WORK/follow.log" 2>&1 &
API_PID=$!
PIDS+=($API_PID)
CAUGHT=""
for _ in $(seq 1 $((MAX_WAIT_SECS * 5))); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then
    CAUGHT=$(date +%s.%N)
    break
  fi
  kill -0 "$API_PID" 2>/dev/null || { echo "data-api stopped; see $WORK/follow.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$CAUGHT" ] || { echo "data-api did not catch up within $MAX_WAIT_SECS s" >&2; exit 1; }
FOLLOW_SECS=$(python3 -c "print(f'{$CAUGHT - $START:.1f}')")
FOLLOW_RSS_KB=$(awk '/VmHWM/ {print $2}' "/proc/$API_PID/status")
FOLLOW_CPU=$(awk -v t="$(cpu_ticks "$API_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
sleep 1.5 # the gauge is refreshed once a second
BEHIND=$(curl -s "http://127.0.0.1:$API_PORT/metrics" | awk '/^snowline_ingest_behind_containers/ {print $2}')
echo "data-api follow: /readyz 200 after $FOLLOW_SECS s, snowline_ingest_behind_containers $BEHIND, peak RSS $((FOLLOW_RSS_KB / 1024)) MiB, data-api CPU $FOLLOW_CPU s, $(load)"

# 3. The history's serving, on the followed data. Addresses: the outputs of random DAG-era txs and of
# random blocks, read from node-rpc; then every page of one listing walked to find page 1,000.
echo "== history serving; $(load)"
python3 - "$NODE_PORT" "$API_PORT" "$FILE" "$WORK" <<'PY'
import json, random, sys, urllib.parse, urllib.request
node, api, file, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
X = "/v1/networks/local/blockchains/x-chain"
def rpc(path, method, params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{node}{path}", body, {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)["result"]
def get(path):
    with urllib.request.urlopen(f"http://127.0.0.1:{api}{path}") as r:
        return json.load(r)
rng = random.Random(1)
addrs = set()
def outputs(tx):
    for o in tx.get("unsignedTx", tx).get("outputs", []):
        addrs.update(o.get("output", {}).get("addresses", []))
tx_ids = [json.loads(l)["id"] for l in open(file) if '"path":"X/tx"' in l]
for txid in rng.sample(tx_ids, min(200, len(tx_ids))):
    outputs(rpc("/ext/bc/X", "avm.getTx", {"txID": txid, "encoding": "json"})["tx"])
top = int(rpc("/ext/bc/X", "avm.getHeight", {})["height"])
for h in rng.sample(range(1, top + 1), min(100, top)):
    for tx in rpc("/ext/bc/X", "avm.getBlockByHeight", {"height": str(h), "encoding": "json"})["block"]["txs"]:
        outputs(tx)
addrs = sorted(addrs)
print(f"{len(addrs)} distinct addresses from 200 DAG-era txs and {min(100, top)} of {top} blocks")
sets = [",".join(rng.sample(addrs, 5)) for _ in range(4096)]
with open(f"{work}/utxos.paths", "w") as f:
    f.writelines(f"{X}/utxos?addresses={s}&pageSize=100\n" for s in sets)
with open(f"{work}/balances.paths", "w") as f:
    f.writelines(f"{X}/balances?addresses={s}\n" for s in sets)
n_utxos = sum(len(get(f"{X}/utxos?addresses={s}&pageSize=100")["utxos"]) for s in sets[:50])
print(f"UTXO listing: 4096 sets of 5 addresses, {n_utxos / 50:.0f} UTXOs per page on average (first 50 sets)")
# Page 1 vs page 1,000: an address set whose listing, spent included, holds >= 100,000 UTXOs
# (the size is estimated from a walk over 8 addresses); every page walked once, the token of
# page 1,000 kept.
def walk(k):
    query = f"{X}/utxos?addresses={','.join(addrs[:k])}&pageSize=100&includeSpent=true"
    token, pages, total, page1000 = None, 0, 0, None
    while pages < 100_000:
        v = get(query + (f"&pageToken={urllib.parse.quote(token)}" if token else ""))
        pages += 1
        total += len(v["utxos"])
        if pages == 999:
            page1000 = v.get("nextPageToken")
        token = v.get("nextPageToken")
        if not token:
            break
    print(f"{k} addresses: {total} UTXOs (spent included) in {pages} pages")
    return query, total, page1000
query, total, page1000 = walk(8)
if total < 100_000:
    query, total, page1000 = walk(min(64, len(addrs), -(-8 * 110_000 // max(total, 1))))
if total < 100_000 or not page1000:
    sys.exit("no address set of <= 64 addresses holds 100,000 UTXOs; use a bigger devnet")
with open(f"{work}/page1.path", "w") as f:
    f.write(query + "\n")
with open(f"{work}/page1000.path", "w") as f:
    f.write(query + f"&pageToken={urllib.parse.quote(page1000)}\n")
PY
echo "$(load); $CONNS connections, $SECS s each"
run "utxos, 5 addresses, pageSize 100" $API_PORT "@$WORK/utxos.paths" $API_PID
run "balances, 5 addresses" $API_PORT "@$WORK/balances.paths" $API_PID
for round in 1 2; do
  echo "round $round, $(load)"
  run "utxos page 1 (>=100k UTXOs)" $API_PORT "$(cat "$WORK/page1.path")" $API_PID
  run "utxos page 1000, same query" $API_PORT "$(cat "$WORK/page1000.path")" $API_PID
done
# A light request while heavy pages load the server: GET /v1/chains/43112 on 4 connections
# during UTXO listings on 60 (reads on the async workers would make it wait behind them).
"$REL/examples/rest-load" "127.0.0.1:$API_PORT" "@$WORK/utxos.paths" 60 "$MAX_REQ" "$SECS" >"$WORK/mixed-heavy.out" &
HEAVY=$!
sleep 1
printf '%-34s ' "chains/43112 under utxos load"
"$REL/examples/rest-load" "127.0.0.1:$API_PORT" /v1/chains/43112 4 "$MAX_REQ" $((SECS - 2))
wait $HEAVY
printf '%-34s %s\n' "  (the utxos load meanwhile)" "$(cat "$WORK/mixed-heavy.out")"

# The same file through `data-api import` into another empty data dir, the servers stopped.
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
PIDS=()
sleep 1
echo "== data-api import; $(load)"
/usr/bin/time -v "$REL/data-api" import --data-dir "$WORK/import" --genesis devnet --devnet-txs "$N_TXS" "$FILE" >"$WORK/import.log" 2>&1
IMPORT_WALL=$(grep 'Elapsed (wall clock)' "$WORK/import.log" | awk '{print $NF}')
IMPORT_RSS_KB=$(grep 'Maximum resident set size' "$WORK/import.log" | awk '{print $NF}')
IMPORT_LINE=$(grep '^data-api: imported' "$WORK/import.log")
echo "$IMPORT_LINE"
python3 - "$FOLLOW_SECS" "$IMPORT_WALL" "$IMPORT_RSS_KB" "$IMPORT_LINE" <<'PY'
import re, sys
follow, wall, rss_kb, line = float(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
# "holding N X-Chain and M P-Chain txs" (or "holding N txs" from builds without the P-Chain).
m = re.search(r"holding (\d+) (?:X-Chain and \d+ P-Chain )?txs", line)
if m is None:
    sys.exit(f"no tx count in the import's summary: {line!r}")
txs = int(m.group(1))
secs = sum(float(x) * 60**i for i, x in enumerate(reversed(wall.split(":"))))
print(f"X-Chain txs in the file: {txs}")
print(f"data-api follow: {txs} txs in {follow:.1f} s = {txs / follow:,.0f} txs/s end to end")
print(f"data-api import: {txs} txs in {secs:.1f} s = {txs / secs:,.0f} txs/s, peak RSS {rss_kb / 1024:,.0f} MiB")
PY

