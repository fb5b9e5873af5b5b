#!/usr/bin/env bash
# How cost grows with the chain (docs/benchmarks.md "Scale"): a synthetic EVM chain of TXS txs
# (`evm-synth`, generated from a seed when asked, never what is measured) indexed by
# `data-api serve --evm` from an empty data dir, then its pages measured on the full index.
#   1. ingest, per segment (SEGMENTS equal parts of the chain): txs/s, RSS now and peak, the
#      index's size on disk and bytes per tx, RocksDB's write stall warnings (its LOG);
#   2. the node's answers' bytes per tx (blocks, receipts, traces of a sample of blocks), the
#      raw RocksDB write of the same entries in as many batches (`raw-rewrite`, the ceiling the
#      ingest is a ratio to, skipped when the index passes RAW_MAX_MB) and those entries'
#      bytes once fully compacted;
#   3. time to restart and be ready on the full index;
#   4. pages under CONNS connections next to the plain hyper handler (the ceiling) in the same
#      run: the hottest account's history, page 1 and page DEEP (10 a page) and a page of 25, a
#      cold account's, the hottest account's ERC-20 balances now and at the middle block, the
#      most used ERC-20's transfers, txs by hash, blocks by number, the latest blocks.
# Loopback only; every load run is bounded by a request count and seconds (rest-load checks every
# response's status); every wait is bounded. Needs curl and python3.
#
#   bench/scale.sh [TXS=1000000] [WORK_DIR=/tmp/snowline-bench-scale] [SECS=8] [CONNS=64]
#   bench/scale.sh 10000000                    # the 10M-tx run (an idle machine, about an hour)
#
# Environment: NO_BUILD=1 uses the binaries already built; PROFILE=debug runs the dev profile's
# binaries (dependencies optimised, the workspace not); TXS_PER_BLOCK (50), SEGMENTS (10), DEEP
# (1000: the deep page's number), ROUNDS (1), RAW_MAX_MB (4096), SEED (1); REUSE=1 skips steps 1-3
# and measures the pages on the index a previous run of the same TXS and SEED left in WORK_DIR;
# INGEST_ONLY=1 stops after step 1 (the ingest and where its compactions wrote, per table);
# API_BIN=PATH runs another data-api binary (an older build, for a before/after pair);
# SYNTH_PORT, API_PORT, HELLO_PORT, RAW_PORT (19780-19783) move the loopback ports, so two runs
# can share a machine.
set -euo pipefail

TXS=${1:-1000000}
WORK=${2:-/tmp/snowline-bench-scale}
SECS=${3:-8}
CONNS=${4:-64}
TPB=${TXS_PER_BLOCK:-50}
SEGMENTS=${SEGMENTS:-10}
DEEP=${DEEP:-1000}
RAW_MAX_MB=${RAW_MAX_MB:-4096}
MAX_REQ=5000000
CHAIN=43112
SYNTH_PORT=${SYNTH_PORT:-19780}
API_PORT=${API_PORT:-19781}
HELLO_PORT=${HELLO_PORT:-19782}
RAW_PORT=${RAW_PORT:-19783}
BLOCKS=$(((TXS + TPB - 1) / TPB))
BLOCKS_PER_BATCH=8 # chain-evm's SourceConfig::blocks_per_batch: one write batch per fetch batch

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
PROFILE=${PROFILE:-release}
REL=$CARGO_TARGET_DIR/$PROFILE
API_BIN=${API_BIN:-$REL/data-api}
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
if [ -z "${NO_BUILD:-}" ]; then
  flag=$([ "$PROFILE" = release ] && echo --release || true)
  cargo build $flag --workspace --bins --examples
fi

"$REL/evm-synth" --listen "127.0.0.1:$SYNTH_PORT" --seed "${SEED:-1}" --blocks "$BLOCKS" \
  --txs-per-block "$TPB" >"$WORK/synth.json" 2>"$WORK/synth.log" &
SYNTH_PID=$!
PIDS+=($SYNTH_PID)
wait_http "http://127.0.0.1:$SYNTH_PORT/"
read -r HOT COLD TOKEN < <(python3 -c "
import json; d = json.load(open('$WORK/synth.json')); print(d['hot'], d['cold'], d['token'])")
echo "synthetic chain: $BLOCKS blocks of $TPB txs ($((BLOCKS * TPB)) txs), seed ${SEED:-1}; $PROFILE binaries"

if [ -n "${REUSE:-}" ]; then
  # Pages only, on the index a previous run left in WORK_DIR (its chain: same TXS and SEED).
  [ -d "$WORK/data/index" ] || { echo "REUSE: no index in $WORK/data" >&2; exit 1; }
  "$API_BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$API_PORT" \
    --evm "$CHAIN=http://127.0.0.1:$SYNTH_PORT" --no-rate-limits --no-metering \
    >>"$WORK/api.log" 2>&1 &
  API_PID=$!
  PIDS+=($API_PID)
  for _ in $(seq 1 6000); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then break; fi
    sleep 0.05
  done
else
# 1. Ingest, segment by segment.
rm -rf "$WORK/data" "$WORK/raw"
echo "== ingest, $(load)"
START=$(date +%s.%N)
"$API_BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$API_PORT" \
  --evm "$CHAIN=http://127.0.0.1:$SYNTH_PORT" --no-rate-limits --no-metering \
  >"$WORK/api.log" 2>&1 &
API_PID=$!
PIDS+=($API_PID)
HZ=$(getconf CLK_TCK)
echo "| segment | blocks to | txs | s | txs/s | CPU data-api / evm-synth | RSS | peak RSS | index on disk | bytes/tx | stall warnings |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
python3 - "$WORK" "$API_PORT" "$API_PID" "$SYNTH_PID" "$BLOCKS" "$TPB" "$SEGMENTS" "$START" "$HZ" <<'PY'
import json, os, re, subprocess, sys, time, urllib.request, urllib.error
work, port, api, synth, blocks, tpb, segments, start, hz = sys.argv[1:]
blocks, tpb, segments, start, hz = int(blocks), int(tpb), int(segments), float(start), int(hz)
def indexed():
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
            return blocks  # 200: caught up
    except urllib.error.HTTPError as e:
        m = re.search(r"catching up: (\d+) blocks behind", e.read().decode())
        return blocks - int(m.group(1)) if m else 0
    except OSError:
        return 0
def status(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key):
            return int(line.split()[1]) // 1024
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / hz
def disk():
    total = 0
    for root, _, files in os.walk(f"{work}/data"):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total
def stalls():
    n, d = 0, f"{work}/data/index"
    for f in os.listdir(d) if os.path.isdir(d) else []:
        if f.startswith("LOG"):
            n += sum(1 for l in open(os.path.join(d, f), errors="replace")
                     if "Stalling writes" in l or "Stopping writes" in l)
    return n
bounds = [blocks * (k + 1) // segments for k in range(segments)]
seg, t0, b0, c0 = 0, start, 0, (0.0, 0.0)
deadline = time.time() + 24 * 3600
rows = []
while seg < segments and time.time() < deadline:
    if not os.path.exists(f"/proc/{api}"):
        sys.exit("data-api exited; see api.log")
    n = indexed()
    if n >= bounds[seg]:
        now, c = time.time(), (cpu(api), cpu(synth))
        size = disk()
        txs = n * tpb
        row = (f"| {seg + 1} | {n:,} | {txs:,} | {now - t0:.1f} | {(n - b0) * tpb / (now - t0):,.0f} | "
               f"{c[0] - c0[0]:.1f} s / {c[1] - c0[1]:.1f} s | {status(api, 'VmRSS')} MiB | "
               f"{status(api, 'VmHWM')} MiB | {size / 2**20:,.0f} MiB | {size / max(txs, 1):,.0f} | {stalls()} |")
        print(row, flush=True)
        rows.append(row)
        seg, t0, b0, c0 = seg + 1, now, n, c
        while seg < segments and n >= bounds[seg]:
            seg += 1
    time.sleep(0.25)
PY
for _ in $(seq 1 36000); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then break; fi
  sleep 0.1
done
END=$(date +%s.%N)
INGEST_SECS=$(python3 -c "print(f'{$END - $START:.2f}')")
TOTAL=$((BLOCKS * TPB))
echo "ingest: $TOTAL txs in $INGEST_SECS s: $(python3 -c "print(f'{$TOTAL / $INGEST_SECS:,.0f}')") txs/s; CPU data-api $(python3 -c "print(f'{$(cpu_ticks $API_PID) / $HZ:.1f}')") s, evm-synth $(python3 -c "print(f'{$(cpu_ticks $SYNTH_PID) / $HZ:.1f}')") s; peak RSS $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$API_PID/status") MiB"

python3 bench/compaction.py "$WORK/data/index" 12
if [ -n "${INGEST_ONLY:-}" ]; then exit 0; fi

# 2. The node's answers per tx, over a sample of blocks.
python3 - "$SYNTH_PORT" "$BLOCKS" "$TPB" <<'PY'
import json, sys, urllib.request
port, blocks, tpb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
total, sample = 0, sorted({1 + (blocks - 1) * k // 49 for k in range(50)})
for n in sample:
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber", "params": [hex(n), True]},
             {"jsonrpc": "2.0", "id": 2, "method": "eth_getBlockReceipts", "params": [hex(n)]},
             {"jsonrpc": "2.0", "id": 3, "method": "debug_traceBlockByNumber", "params": [hex(n), {"tracer": "callTracer"}]}]
    req = urllib.request.Request(f"http://127.0.0.1:{port}/", json.dumps(calls).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        total += sum(len(json.dumps(a["result"], separators=(",", ":"))) for a in json.load(r))
print(f"node answers (block, receipts, traces): {total / (len(sample) * tpb):,.0f} bytes per tx")
PY

# 3. Restart on the full index.
kill "$API_PID"
wait "$API_PID" 2>/dev/null || true
INDEX_MB=$(du -sm "$WORK/data" | cut -f1)
echo "index on disk after shutdown: $INDEX_MB MiB, $(python3 -c "print(f'{$INDEX_MB * 2**20 / $TOTAL:,.0f}')") bytes/tx"
START=$(date +%s.%N)
"$API_BIN" serve --data-dir "$WORK/data" --listen "127.0.0.1:$API_PORT" \
  --evm "$CHAIN=http://127.0.0.1:$SYNTH_PORT" --no-rate-limits --no-metering \
  >>"$WORK/api.log" 2>&1 &
API_PID=$!
PIDS+=($API_PID)
for _ in $(seq 1 6000); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then break; fi
  sleep 0.05
done
echo "restart: ready in $(python3 -c "import time; print(f'{time.time() - $START:.2f}')") s on the full index"

if [ "$INDEX_MB" -le "$RAW_MAX_MB" ]; then
  BATCHES=$(((BLOCKS + BLOCKS_PER_BATCH) / BLOCKS_PER_BATCH))
  "$REL/examples/raw-rewrite" "$WORK/data/index" "$WORK/raw" ev_,cm_,icm_ "$BATCHES" compact | tee "$WORK/raw.log"
  RAW_SECS=$(grep -o '[0-9.]* s (' "$WORK/raw.log" | grep -o '^[0-9.]*')
  COMPACTED=$(grep -o 'compacted: [0-9]*' "$WORK/raw.log" | grep -o '[0-9]*$')
  echo "ingest: $(python3 -c "print(f'{$RAW_SECS / $INGEST_SECS:.3f}')") of the raw RocksDB write rate of the same entries ($RAW_SECS s vs $INGEST_SECS s); compacted: $(python3 -c "print(f'{$COMPACTED / $TOTAL:,.0f}')") bytes/tx"
  rm -rf "$WORK/raw"
else
  echo "raw RocksDB ceiling skipped: the index ($INDEX_MB MiB) is over RAW_MAX_MB ($RAW_MAX_MB)"
fi
fi # REUSE

# 4. Pages.
python3 - "$WORK" "$API_PORT" "$SYNTH_PORT" "$CHAIN" "$HOT" "$COLD" "$TOKEN" "$BLOCKS" "$DEEP" <<'PY'
import json, sys, urllib.request
work, port, synth, chain, hot, cold, token, blocks, deep = sys.argv[1:]
blocks, deep = int(blocks), int(deep)
base = f"http://127.0.0.1:{port}"
def get(path):
    with urllib.request.urlopen(base + path) as r:
        return json.load(r)
C = f"/v1/chains/{chain}"
hist = f"{C}/addresses/{hot}/transactions?pageSize=10"
page, n = get(hist), 1
while n < deep and page.get("nextPageToken"):
    token_at = page["nextPageToken"]
    page, n = get(f"{hist}&pageToken={token_at}"), n + 1
if n < deep:
    sys.exit(f"the hot account has only {n} pages of 10 txs")
hashes = []
for k in range(100):
    b = 1 + (blocks - 1) * k // 99
    req = urllib.request.Request(f"http://127.0.0.1:{synth}/", json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber", "params": [hex(b), False]}).encode(),
        {"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        hashes += json.load(r)["result"]["transactions"][:5]
erc20 = f"{C}/addresses/{hot}/balances:listErc20?pageSize=100"
held = len(get(erc20)["erc20TokenBalances"])
paths = {
    "hot-1": [hist],
    "hot-25": [f"{C}/addresses/{hot}/transactions?pageSize=25"],
    "erc20-now": [erc20],
    "erc20-past": [f"{erc20}&blockNumber={blocks // 2}"],
    "latest-blocks": [f"{C}/blocks?pageSize=10"],
    "hot-deep": [f"{hist}&pageToken={token_at}"],
    "cold-1": [f"{C}/addresses/{cold}/transactions?pageSize=10"],
    "token-1": [f"{C}/tokens/{token}/transfers?pageSize=10"],
    "tx": [f"{C}/transactions/{h}" for h in hashes],
    "blocks": [f"{C}/blocks/{1 + (blocks - 1) * k // 999}" for k in range(1000)],
}
for name, ps in paths.items():
    with open(f"{work}/{name}.paths", "w") as f:
        f.writelines(p + "\n" for p in ps)
print(f"hot account {hot}: page {n} reached, {held} ERC-20 balances held; cold {cold}; token {token}")
PY
start_ceiling
serving_header
for round in $(seq 1 "${ROUNDS:-1}"); do
  echo "round $round, $(load)"
  run "plain hyper handler (ceiling)" $RAW_PORT /v1/hello $HELLO_PID
  run "hot account history, page 1" $API_PORT "@$WORK/hot-1.paths" $API_PID
  run "hot account history, page $DEEP" $API_PORT "@$WORK/hot-deep.paths" $API_PID
  run "hot account history, page of 25 (v1, with transfers)" $API_PORT "@$WORK/hot-25.paths" $API_PID
  run "cold account history" $API_PORT "@$WORK/cold-1.paths" $API_PID
  run "hot account's ERC-20 balances, now" $API_PORT "@$WORK/erc20-now.paths" $API_PID
  run "hot account's ERC-20 balances, at the middle block" $API_PORT "@$WORK/erc20-past.paths" $API_PID
  run "latest blocks" $API_PORT "@$WORK/latest-blocks.paths" $API_PID
  run "token transfers, page 1" $API_PORT "@$WORK/token-1.paths" $API_PID
  run "tx by hash" $API_PORT "@$WORK/tx.paths" $API_PID
  run "block by number" $API_PORT "@$WORK/blocks.paths" $API_PID
done
echo "data-api peak RSS while serving $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$API_PID/status") MiB"
