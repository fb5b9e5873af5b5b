#!/usr/bin/env bash
# Reproduces every node-rpc figure of docs/benchmarks.md:
#   1. generate a large devnet (devnet-gen, release) unless it exists,
#   2. time `node-rpc import` of it into an empty data dir (txs/s, peak RSS via /usr/bin/time -v),
#   3. serve the imported data and run examples/load.rs with 64 keep-alive connections against
#      index.getContainerByIndex, index.getContainerRange (1024), avm.getUTXOs (1024) and avm.getTx
#      (json), then against examples/hello.rs (a trivial JSON-RPC method and a plain hyper handler)
#      in the same run.
# Loopback only; every load run is bounded by a request count and seconds. The load generator and
# the servers share the machine's cores. Needs curl, python3 (stdlib) and GNU time (Debian `time`).
#
#   4. time `node-rpc follow` of the serving node (step 3's) into an empty data dir until its
#      X/block head is the upstream's (txs/s, follower and upstream CPU, follower peak RSS).
#
#   bench/node-rpc.sh [N_TXS=1000000] [WORK_DIR=/tmp/snowline-bench] [SECS=10] [CONNS=64]
#
# Environment: NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR (e.g. another
# commit's, to compare two builds in the same conditions).
set -euo pipefail

N_TXS=${1:-1000000}
WORK=${2:-/tmp/snowline-bench}
SECS=${3:-10}
CONNS=${4:-64}
MAX_REQ=5000000
PORT=19650
HELLO_PORT=19651
FOLLOW_PORT=19652

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example load --example hello
fi

# 1. The devnet. devnet-gen streams containers as it goes; if it stops early (it did at large:1000000,
# "no spendable UTXO left to build a tx in a block"), the file written so far is a valid prefix and
# is what gets imported. Txs are counted from the data, not from N_TXS: the file's X/tx lines plus
# the txs inside its X/block containers (counted after the import with avm.getBlockByHeight, since
# blocks are not all full).
DEV=$WORK/devnet-$N_TXS
if [ ! -s "$DEV/containers.jsonl" ]; then
  /usr/bin/time -v "$REL/devnet-gen" --seed 1 --preset "large:$N_TXS" --out "$DEV" \
    >"$WORK/gen.log" 2>&1 || echo "devnet-gen stopped early (see $WORK/gen.log); using the prefix it wrote"
fi
FILE=$DEV/containers.jsonl
X_TX=$(grep -c '"path":"X/tx"' "$FILE" || true)
X_BLOCK=$(grep -c '"path":"X/block"' "$FILE" || true)
CONTAINERS=$(wc -l <"$FILE")
echo "devnet file: $CONTAINERS containers, $X_TX X/tx lines, $X_BLOCK X/block containers"

# 2. Import into an empty data dir.
DATA=$WORK/data-import
rm -rf "$DATA"
echo "load before import: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v "$REL/node-rpc" import --data-dir "$DATA" "$FILE" >"$WORK/import.log" 2>&1
WALL=$(grep 'Elapsed (wall clock)' "$WORK/import.log" | awk '{print $NF}')
SECS_IMPORT=$(python3 -c "p='$WALL'.split(':'); print(sum(float(x)*60**i for i,x in enumerate(reversed(p))))")
RSS_KB=$(grep 'Maximum resident set size' "$WORK/import.log" | awk '{print $NF}')
# CPU seconds (user + sys) do not depend on what else runs on the machine, wall time does.
CPU_S=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$WORK/import.log")
echo "import: wall ${SECS_IMPORT} s, CPU ${CPU_S} s (user+sys), load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# 3. Serve and load.
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
"$REL/node-rpc" serve --source none --data-dir "$DATA" --listen "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 &
PIDS+=($!)
"$REL/examples/hello" "127.0.0.1:$HELLO_PORT" >"$WORK/hello.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 120); do
  if curl -s -o /dev/null "http://127.0.0.1:$PORT/" && curl -s -o /dev/null "http://127.0.0.1:$HELLO_PORT/raw"; then break; fi
  sleep 1
done

# Request bodies with real ids, indices and addresses from the imported data, cycled by load.rs.
python3 - "$PORT" "$FILE" "$WORK" "$X_TX" "$CONTAINERS" "$SECS_IMPORT" "$RSS_KB" <<'PY'
import json, random, sys, urllib.request
port, file, work = sys.argv[1], sys.argv[2], sys.argv[3]
x_tx, containers, secs, rss_kb = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
def rpc(path, method, params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", body, {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
# The import figure: X/tx lines plus the txs of every block (heights 1..getHeight).
top = int(rpc("/ext/bc/X", "avm.getHeight", {})["result"]["height"])
block_txs = 0
for h in range(1, top + 1):
    block_txs += len(rpc("/ext/bc/X", "avm.getBlockByHeight", {"height": str(h), "encoding": "json"})["result"]["block"]["txs"])
txs = x_tx + block_txs
print(f"import: {txs} txs ({x_tx} X/tx + {block_txs} in {top} blocks) in {secs:.1f} s = {txs / secs:,.0f} txs/s "
      f"({containers / secs:,.0f} containers/s), peak RSS {rss_kb / 1024:,.0f} MiB")
with open(f"{work}/txs", "w") as f:
    f.write(str(txs))
rng = random.Random(1)
last = int(rpc("/ext/index/X/tx", "index.getLastAccepted", {"encoding": "hex"})["result"]["index"])
tx_ids = []
with open(file) as f:
    for line in f:
        if '"path":"X/tx"' in line:
            tx_ids.append(json.loads(line)["id"])
sample = rng.sample(tx_ids, min(4096, len(tx_ids)))
addrs = set()
for txid in sample[:200]:
    tx = rpc("/ext/bc/X", "avm.getTx", {"txID": txid, "encoding": "json"})["result"]["tx"]["unsignedTx"]
    for o in tx.get("outputs", []):
        addrs.update(o.get("output", {}).get("addresses", []))
addrs = sorted(addrs)
def line(method, params):
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, separators=(",", ":"))
bodies = {
    "getContainerByIndex": [line("index.getContainerByIndex", {"index": str(rng.randint(0, last)), "encoding": "hex"}) for _ in range(4096)],
    "getContainerRange": [line("index.getContainerRange", {"startIndex": str(rng.randint(0, max(0, last - 1023))), "numToFetch": 1024, "encoding": "hex"}) for _ in range(512)],
    "getUTXOs": [line("avm.getUTXOs", {"addresses": [a], "limit": 1024, "encoding": "hex"}) for a in addrs],
    "getTx": [line("avm.getTx", {"txID": t, "encoding": "json"}) for t in sample],
}
for name, lines in bodies.items():
    with open(f"{work}/{name}.jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{name}: {len(lines)} bodies")
PY

run() { # name port path bodies-file-or-empty
  printf '%-22s ' "$1"
  "$REL/examples/load" "127.0.0.1:$2" "$3" "$CONNS" "$MAX_REQ" "$SECS" ${4:+"$4"}
}
echo "load before the load runs: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores shared by servers and load generator"
run getContainerByIndex $PORT /ext/index/X/tx "$WORK/getContainerByIndex.jsonl"
run getContainerRange $PORT /ext/index/X/tx "$WORK/getContainerRange.jsonl"
run getUTXOs $PORT /ext/bc/X "$WORK/getUTXOs.jsonl"
run getTx-json $PORT /ext/bc/X "$WORK/getTx.jsonl"
run hello.world $HELLO_PORT /ext/bc/X ""
run raw-hyper $HELLO_PORT /raw ""

# 4. Follow the serving node from an empty data dir, until the follower's head of every path is
# the upstream's.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f", ($14 + $15) / hz}' "/proc/$1/stat"; }
# Port path -> last accepted index, or empty. Bash alone reads the answer: this is polled five
# times a second during the follow, and a python3 start costs ~0.15 s of CPU on the 2-vCPU VM,
# which took about a fifth of the machine from the follow it was timing (docs/benchmarks.md,
# session 6).
head_of() {
  local body
  body=$(curl -s -H 'content-type: application/json' \
    -d '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{"encoding":"hex"}}' \
    "http://127.0.0.1:$1/ext/index/$2") || return 0
  [[ $body =~ \"index\":\"([0-9]+)\" ]] && echo "${BASH_REMATCH[1]}"
  return 0
}
FOLLOW=$WORK/data-follow
rm -rf "$FOLLOW"
# The upstream's heads do not move (it serves a finished import): asked once.
FOLLOW_PATHS=(X/vtx X/tx X/block)
UP_HEADS=()
for path in "${FOLLOW_PATHS[@]}"; do UP_HEADS+=("$(head_of $PORT $path)"); done
UP_PID=${PIDS[0]}
UP_CPU0=$(cpu_s "$UP_PID")
echo "load before follow: $(cut -d' ' -f1-3 /proc/loadavg)"
START=$(date +%s.%N)
"$REL/node-rpc" follow --data-dir "$FOLLOW" --listen "127.0.0.1:$FOLLOW_PORT" \
  --upstream "http://127.0.0.1:$PORT" >"$WORK/follow.log" 2>&1 &
FOLLOW_PID=$!
PIDS+=($FOLLOW_PID)
CAUGHT=""
for _ in $(seq 1 3000); do
  behind=""
  for i in 0 1 2; do
    [ "$(head_of $FOLLOW_PORT "${FOLLOW_PATHS[$i]}")" = "${UP_HEADS[$i]}" ] || { behind=1; break; }
  done
  if [ -z "$behind" ]; then CAUGHT=$(date +%s.%N); break; fi
  kill -0 "$FOLLOW_PID" 2>/dev/null || { echo "node-rpc follow stopped; see $WORK/follow.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$CAUGHT" ] || { echo "node-rpc follow did not catch up within 600 s" >&2; exit 1; }
python3 -c "s = $CAUGHT - $START; t = int(open('$WORK/txs').read()); print(f'follow: {t} txs in {s:.1f} s = {t / s:,.0f} txs/s, follower CPU $(cpu_s $FOLLOW_PID) s, upstream CPU', round($(cpu_s "$UP_PID") - $UP_CPU0, 1), 's, follower peak RSS', $(awk '/VmHWM/ {print $2}' /proc/$FOLLOW_PID/status) // 1024, 'MiB, load after: $(cut -d' ' -f1-3 /proc/loadavg)')"
