#!/usr/bin/env bash
# Reproduces the P-Chain figures of docs/benchmarks.md:
#   1. ingest: the devnet's P-Chain blocks (the P/block lines of a large devnet file) imported into
#      node-rpc, then data-api following that node from an empty data dir (wall time until /readyz
#      is 200; blocks/s and txs/s; peak RSS), and `data-api import` of the same lines;
#   2. serving, on the followed data: P-Chain balances of 5 addresses, rewards paid to 5
#      addresses, rewards by node, pending rewards by node, L1 validators, a P tx by hash, an
#      address's tx history (page of 25), listValidators (page of 100, each sortBy),
#      getNetworkDetails, the active staking txs of 5 addresses (listStaking) and getAvaxSupply,
#      each under CONNS connections, next to the plain hyper handler (the ceiling) measured in
#      the same run, interleaved over ROUNDS rounds.
# Loopback only; every load run is bounded by a request count and seconds (examples/rest-load.rs
# checks every response's status); every wait is bounded. Needs curl, python3 and GNU time.
#
#   bench/pchain.sh [N_TXS=1000000] [WORK_DIR=/tmp/snowline-bench-pchain] [SECS=8] [CONNS=64]
#
# Environment: DEVNET_DIR=dir with containers.jsonl (default WORK_DIR/devnet-N_TXS, generated if
# absent); NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR; ROUNDS=N (default 2).
set -euo pipefail

N_TXS=${1:-1000000}
WORK=${2:-/tmp/snowline-bench-pchain}
SECS=${3:-8}
CONNS=${4:-64}
MAX_REQ=5000000
MAX_WAIT_SECS=3600
NODE_PORT=19760
API_PORT=19761
HELLO_PORT=19762
RAW_PORT=19763

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
build_bench

# The devnet (generated once) and its P-Chain lines.
devnet
PFILE=$WORK/p-blocks.jsonl
grep '"path":"P/block"' "$DEV/containers.jsonl" >"$PFILE"
BLOCKS=$(wc -l <"$PFILE")
echo "P-Chain: $BLOCKS blocks from $DEV/containers.jsonl"

# 1. Ingest. The import first: it counts the P txs.
rm -rf "$WORK/import" "$WORK/follow" "$WORK/node"
/usr/bin/time -v "$REL/data-api" import --data-dir "$WORK/import" --genesis devnet --devnet-txs "$N_TXS" "$PFILE" \
  >"$WORK/import.log" 2>&1
TXS=$(grep -o 'and [0-9]* P-Chain txs' "$WORK/import.log" | grep -o '[0-9]*')
IMPORT_SECS=$(grep -o 'in [0-9.]* s' "$WORK/import.log" | tail -1 | grep -o '[0-9.]*')
echo "data-api import: $TXS P txs in $BLOCKS blocks, $IMPORT_SECS s ($(python3 -c "print(f'{$TXS / $IMPORT_SECS:,.0f}')") txs/s), peak RSS $(awk '/Maximum resident/ {print int($NF / 1024)}' "$WORK/import.log") MiB"
"$REL/node-rpc" import --data-dir "$WORK/node" "$PFILE" >"$WORK/node-import.log" 2>&1
"$REL/node-rpc" serve --source none --data-dir "$WORK/node" --listen "127.0.0.1:$NODE_PORT" >"$WORK/node.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$NODE_PORT/"
echo "following, $(load)"
START=$(date +%s.%N)
"$REL/data-api" serve --data-dir "$WORK/follow" --listen "127.0.0.1:$API_PORT" \
  --upstream "http://127.0.0.1:$NODE_PORT" --genesis devnet --devnet-txs "$N_TXS" --no-rate-limits --no-metering \
  >"$WORK/follow.log" 2>&1 &
API_PID=$!
PIDS+=($API_PID)
CAUGHT=""
for _ in $(seq 1 $((MAX_WAIT_SECS * 5))); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then
    CAUGHT=$(date +%s.%N)
    break
  fi
  kill -0 "$API_PID" 2>/dev/null || { echo "data-api stopped; see $WORK/follow.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$CAUGHT" ] || { echo "data-api did not catch up within $MAX_WAIT_SECS s" >&2; exit 1; }
python3 -c "
secs = $CAUGHT - $START
print(f'data-api follow: {secs:.1f} s, {$BLOCKS / secs:,.0f} blocks/s, {$TXS / secs:,.0f} txs/s')"
echo "peak RSS $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$API_PID/status") MiB, data-api CPU $(awk -v t="$(cpu_ticks "$API_PID")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }') s"

# 2. Serving. Addresses: the devnet's keys (as P- addresses); nodes: the proposers and stakers
# the data names; every path set checked to answer 200 with content before the load.
python3 - "$API_PORT" "$DEV" "$WORK" <<'PY'
import json, random, sys, urllib.request
api, dev, work = sys.argv[1], sys.argv[2], sys.argv[3]
N = "/v1/networks/local"
def get(path):
    with urllib.request.urlopen(f"http://127.0.0.1:{api}{path}") as r:
        return json.load(r)
g = json.load(open(f"{dev}/genesis.json"))
addrs = ["P-" + k["address"].split("-", 1)[1] for k in g["keys"]]
nodes = [n["nodeID"] for n in g["pGenesis"]["nodes"]]
rng = random.Random(1)
for a in addrs:
    for r in get(f"{N}/rewards?addresses={a}&pageSize=100")["historicalRewards"]:
        if r["nodeId"] not in nodes:
            nodes.append(r["nodeId"])
sets = [",".join(rng.sample(addrs, min(5, len(addrs)))) for _ in range(1024)]
txs = []
page = get(f"{N}/blockchains/p-chain/transactions?pageSize=100")
while len(txs) < 1000:
    txs += [t["txHash"] for t in page["transactions"]]
    if "nextPageToken" not in page:
        break
    page = get(f"{N}/blockchains/p-chain/transactions?pageSize=100&pageToken={page['nextPageToken']}")
sorts = ["blockIndex", "delegationCapacity", "timeRemaining", "delegationFee"]
paths = {
    "balances": [f"{N}/blockchains/p-chain/balances?addresses={s}" for s in sets],
    "rewards": [f"{N}/rewards?addresses={s}&pageSize=100" for s in sets],
    "rewards-node": [f"{N}/rewards?nodeIds={n}&pageSize=100" for n in nodes],
    "pending-node": [f"{N}/rewards:listPending?nodeIds={n}&pageSize=100" for n in nodes],
    "l1": [f"{N}/l1Validators?pageSize=100", f"{N}/l1Validators?pageSize=100&includeInactiveL1Validators=true"],
    "tx": [f"{N}/blockchains/p-chain/transactions/{t}" for t in txs],
    "history": [f"{N}/blockchains/p-chain/transactions?addresses={a}&pageSize=25" for a in addrs],
    "staking": [f"{N}/blockchains/p-chain/transactions:listStaking?addresses={s}&pageSize=25" for s in sets],
    "network": [N],
    "supply": ["/v1/avax/supply"],
}
for s in sorts:
    paths[f"validators-{s}"] = [f"{N}/validators?pageSize=100&sortBy={s}&sortOrder={o}" for o in ("desc", "asc")]
for name, ps in paths.items():
    with open(f"{work}/{name}.paths", "w") as f:
        f.writelines(p + "\n" for p in ps)
first = {k: get(v[0]) for k, v in paths.items()}
print(f"{len(addrs)} addresses, {len(nodes)} nodes; first answers: "
      f"{sum(len(v) for v in first['balances']['balances'].values())} balance entries, "
      f"{len(first['rewards']['historicalRewards'])} rewards, "
      f"{len(first['rewards-node']['historicalRewards'])} rewards of node 1, "
      f"{len(first['pending-node']['pendingRewards'])} pending of node 1, "
      f"{len(first['l1']['validators'])} L1 validators, {len(txs)} txs by hash, "
      f"{len(first['history']['transactions'])} txs in address 1's first page, "
      f"{len(first['validators-blockIndex']['validators'])} validators a page, "
      f"{len(first['staking']['transactions'])} staking txs of set 1")
PY
start_ceiling
serving_header
for round in $(seq 1 "${ROUNDS:-2}"); do
  echo "round $round, $(load)"
  run "plain hyper handler (ceiling)" $RAW_PORT /v1/hello $HELLO_PID
  run "P balances, 5 addresses" $API_PORT "@$WORK/balances.paths" $API_PID
  run "rewards, 5 addresses" $API_PORT "@$WORK/rewards.paths" $API_PID
  run "rewards by node" $API_PORT "@$WORK/rewards-node.paths" $API_PID
  run "pending rewards by node" $API_PORT "@$WORK/pending-node.paths" $API_PID
  run "L1 validators" $API_PORT "@$WORK/l1.paths" $API_PID
  run "P tx by hash" $API_PORT "@$WORK/tx.paths" $API_PID
  run "P tx history, 25 a page" $API_PORT "@$WORK/history.paths" $API_PID
  for s in blockIndex delegationCapacity timeRemaining delegationFee; do
    run "validators by $s, 100 a page" $API_PORT "@$WORK/validators-$s.paths" $API_PID
  done
  run "network details" $API_PORT "@$WORK/network.paths" $API_PID
  run "active staking txs, 5 addresses" $API_PORT "@$WORK/staking.paths" $API_PID
  run "AVAX supply" $API_PORT "@$WORK/supply.paths" $API_PID
done
