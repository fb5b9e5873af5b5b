#!/usr/bin/env bash
# Two data-api builds side by side on one devnet, for a before/after figure: each imports the
# devnet's containers (X, P and C) into a data dir of its own and serves it; then, for each
# endpoint, the two are loaded in turn (old, new; ROUNDS times) and each run prints the server's
# CPU time per request, which other processes on a shared machine disturb far less than req/s.
# Before the load, both must answer the first path of each set with the same JSON (page tokens
# aside: they are sealed per data dir). Endpoints: listValidators (100 a page, each sortBy but
# uptimePerformance, both orders), getNetworkDetails, getAvaxSupply, the active staking txs of
# 5 addresses, and getTxByHash on the X-Chain (its latest 1,000 txs) and the C-Chain (its atomic
# txs). Loopback only; every load run is bounded by a request count and seconds, every wait too.
#
#   bench/pair.sh OLD_DATA_API NEW_DATA_API [N_TXS=20000] [WORK_DIR=/tmp/snowline-bench-pair] [SECS=4] [CONNS=16]
#
# Environment: PROFILE=release (or debug: where devnet-gen and the rest-load example are taken
# from, built unless NO_BUILD is set); ROUNDS=2 (load rounds); IMPORTS=1 (import pairs);
# ENDPOINTS="validators-blockIndex ..." (a subset of the endpoints below); DEVNET_DIR=dir with
# containers.jsonl (default WORK_DIR/devnet-N_TXS, generated if absent).
set -euo pipefail

OLD_BIN=$(realpath "$1")
NEW_BIN=$(realpath "$2")
N_TXS=${3:-20000}
WORK=${4:-/tmp/snowline-bench-pair}
SECS=${5:-4}
CONNS=${6:-16}
MAX_REQ=5000000
OLD_PORT=19771
NEW_PORT=19772

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
PROFILE=${PROFILE:-release}
REL=$CARGO_TARGET_DIR/$PROFILE
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
if [ -z "${NO_BUILD:-}" ]; then
  flag=$([ "$PROFILE" = release ] && echo --release || true)
  cargo build $flag --workspace --bin devnet-gen --example rest-load
fi

devnet
FILE=$DEV/containers.jsonl
echo "devnet: $(wc -l <"$FILE") containers in $FILE"

# Each build imports the devnet into a fresh data dir of its own, old and new in turn, IMPORTS
# times (the cost of ingest, whole process); the last imports are served.
import_devnet() { # name binary
  local dir=$WORK/$1
  rm -rf "$dir"
  /usr/bin/time -f "%e s wall, %U s user, %S s system, %M KiB peak" \
    "$2" import --data-dir "$dir" --genesis devnet --devnet-txs "$N_TXS" "$FILE" >"$WORK/$1-import.log" 2>&1
  echo "$1 import: $(tail -1 "$WORK/$1-import.log")"
}
for _ in $(seq 1 "${IMPORTS:-1}"); do
  import_devnet old "$OLD_BIN"
  import_devnet new "$NEW_BIN"
done
serve() { # name binary port: serves the name's data dir; sets the variable PID_<name>
  local dir=$WORK/$1
  "$2" serve --data-dir "$dir" --listen "127.0.0.1:$3" --genesis devnet --devnet-txs "$N_TXS" \
    --no-rate-limits --no-metering >"$WORK/$1.log" 2>&1 &
  PIDS+=($!)
  printf -v "PID_$1" '%s' "$!"
  wait_http "http://127.0.0.1:$3/readyz"
}
serve old "$OLD_BIN" $OLD_PORT
serve new "$NEW_BIN" $NEW_PORT

python3 - "$OLD_PORT" "$NEW_PORT" "$DEV" "$WORK" <<'PY'
import json, random, sys, urllib.request
old, new, dev, work = sys.argv[1:5]
N = "/v1/networks/local"
def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as r:
        return json.load(r)
def ids(chain, field, want):
    out, page = [], get(new, f"{N}/blockchains/{chain}/transactions?pageSize=100")
    while len(out) < want:
        out += [t[field] for t in page["transactions"]]
        if "nextPageToken" not in page:
            break
        page = get(new, f"{N}/blockchains/{chain}/transactions?pageSize=100&pageToken={page['nextPageToken']}")
    return out[:want]
g = json.load(open(f"{dev}/genesis.json"))
addrs = ["P-" + k["address"].split("-", 1)[1] for k in g["keys"]]
rng = random.Random(1)
sets = [",".join(rng.sample(addrs, min(5, len(addrs)))) for _ in range(256)]
paths = {
    "network": [N],
    "supply": ["/v1/avax/supply"],
    "staking": [f"{N}/blockchains/p-chain/transactions:listStaking?addresses={s}&pageSize=25" for s in sets],
    "x-tx": [f"{N}/blockchains/x-chain/transactions/{t}" for t in ids("x-chain", "txHash", 1000)],
    "c-tx": [f"{N}/blockchains/c-chain/transactions/{t}" for t in ids("c-chain", "txHash", 1000)],
}
for s in ["blockIndex", "delegationCapacity", "timeRemaining", "delegationFee"]:
    paths[f"validators-{s}"] = [f"{N}/validators?pageSize=100&sortBy={s}&sortOrder={o}" for o in ("desc", "asc")]
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "nextPageToken"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
for name, ps in paths.items():
    assert ps, f"no paths for {name}"
    with open(f"{work}/{name}.paths", "w") as f:
        f.writelines(p + "\n" for p in ps)
    a, b = strip(get(old, ps[0])), strip(get(new, ps[0]))
    assert a == b, f"{name}: old and new answer {ps[0]} differently"
print("the same answers; " + ", ".join(f"{k}: {len(v)} paths" for k, v in paths.items()))
PY

read -r -a ENDPOINTS <<<"${ENDPOINTS:-validators-blockIndex validators-delegationCapacity \
validators-timeRemaining validators-delegationFee network supply staking x-tx c-tx}"
echo "== $CONNS connections, $SECS s a run, $(nproc) cores shared by the servers and the load generator"
for round in $(seq 1 "${ROUNDS:-2}"); do
  echo "round $round, $(load)"
  for e in "${ENDPOINTS[@]}"; do
    run "old $e" $OLD_PORT "@$WORK/$e.paths" "$PID_old"
    run "new $e" $NEW_PORT "@$WORK/$e.paths" "$PID_new"
  done
done
