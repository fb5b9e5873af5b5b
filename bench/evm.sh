#!/usr/bin/env bash
# Reproduces the EVM figures of docs/benchmarks.md:
#   1. ingest: a recording of BLOCKS blocks of TXS txs each, made once on anvil by `evm-devnet
#      record` (full txs, receipts, call traces, balances and token calls) and kept in WORK, is
#      served from memory by `evm-replay`; `data-api serve --evm` indexes it into an empty data
#      dir. Wall time from start until /readyz reports the chain caught up; txs/s; peak RSS. Then
#      `raw-rewrite` writes the same bytes (every entry of the ev_ and cm_ tables) into a fresh
#      RocksDB with plain calls, in as many batches as the indexer wrote: the ceiling the ratio is to.
#   2. serving, on that index: blocks by number, a token's transfers (page 1 and page 1,000 of
#      10 rows), ERC-721 balances of the dev accounts, each under CONNS connections, next to the
#      plain hyper handler (the ceiling) measured in the same run, interleaved over ROUNDS rounds.
# Loopback only; every load run is bounded by a request count and seconds (rest-load checks every
# response's status); every wait is bounded. Needs anvil (`cargo xtask setup`), curl and python3.
#
#   bench/evm.sh [BLOCKS=2000] [TXS=50] [WORK_DIR=/tmp/snowline-bench-evm] [SECS=8] [CONNS=64]
#
# Environment: NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR; ROUNDS=N
# (default 2).
set -euo pipefail

BLOCKS=${1:-2000}
TXS=${2:-50}
WORK=${3:-/tmp/snowline-bench-evm}
SECS=${4:-8}
CONNS=${5:-64}
MAX_REQ=5000000
CHAIN=43112
REPLAY_PORT=19770
API_PORT=19771
HELLO_PORT=19772
RAW_PORT=19773
BLOCKS_PER_BATCH=8 # chain-evm's SourceConfig::blocks_per_batch: one write batch per fetch batch

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example rest-hello --example rest-load
  cargo build --release --workspace --example raw-rewrite
fi

# The recording, made once per size.
REC=$WORK/rec-$BLOCKS-$TXS.jsonl
if [ ! -s "$REC" ]; then
  echo "recording $BLOCKS blocks of $TXS txs on anvil (once) ..."
  "$REL/evm-devnet" record --chain-id $CHAIN --blocks "$BLOCKS" --txs "$TXS" --out "$REC.tmp"
  mv "$REC.tmp" "$REC"
fi
# One pass over the recording: its tx count, last block, senders and the token with the most
# ERC-20/721 Transfer logs, kept for the serving paths below.
STATS=$WORK/rec-$BLOCKS-$TXS.stats.json
TXCOUNT=$(python3 - "$REC" "$STATS" <<'PY'
import json, sys
rec, out = sys.argv[1], sys.argv[2]
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
txs, blocks, senders, per_token = 0, 0, set(), {}
for line in open(rec):
    r = json.loads(line)
    res = r.get("result")
    if r.get("method") == "eth_getBlockByNumber" and isinstance(res, dict):
        txs += len(res.get("transactions", []))
        blocks = max(blocks, int(res["number"], 16))
        senders.update(t["from"] for t in res.get("transactions", []))
    if r.get("method") == "eth_getBlockReceipts" and isinstance(res, list):
        for rc in res:
            for log in rc.get("logs", []):
                if log["topics"][:1] == [TRANSFER] and len(log["topics"]) == 3:
                    per_token[log["address"]] = per_token.get(log["address"], 0) + 1
token, count = max(per_token.items(), key=lambda kv: kv[1])
with open(out, "w") as f:
    json.dump({"blocks": blocks, "senders": sorted(senders), "token": token, "count": count}, f)
print(txs)
PY
)
echo "recording: $REC, $(du -m "$REC" | cut -f1) MB, $TXCOUNT txs"

"$REL/evm-replay" "$REC" --listen "127.0.0.1:$REPLAY_PORT" >"$WORK/replay.log" 2>&1 &
REPLAY_PID=$!
PIDS+=($REPLAY_PID)
wait_http "http://127.0.0.1:$REPLAY_PORT/"

# 1. Ingest.
rm -rf "$WORK/index" "$WORK/raw"
echo "== ingest, $(load)"
START=$(date +%s.%N)
"$REL/data-api" serve --data-dir "$WORK/index" --listen "127.0.0.1:$API_PORT" \
  --evm "$CHAIN=http://127.0.0.1:$REPLAY_PORT" --no-rate-limits --no-metering \
  >"$WORK/api.log" 2>&1 &
API_PID=$!
PIDS+=($API_PID)
for _ in $(seq 1 36000); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$API_PORT/readyz")" = 200 ]; then break; fi
  if ! kill -0 $API_PID 2>/dev/null; then cat "$WORK/api.log"; exit 1; fi
  sleep 0.05
done
END=$(date +%s.%N)
INGEST_SECS=$(python3 -c "print(f'{$END - $START:.2f}')")
HZ=$(getconf CLK_TCK)
echo "data-api indexed $TXCOUNT txs in $((BLOCKS + 1)) blocks from evm-replay in $INGEST_SECS s: $(python3 -c "print(f'{$TXCOUNT / $INGEST_SECS:,.0f}')") txs/s; CPU: data-api $(python3 -c "print(f'{$(cpu_ticks $API_PID) / $HZ:.2f}')") s, evm-replay $(python3 -c "print(f'{$(cpu_ticks $REPLAY_PID) / $HZ:.2f}')") s"
BATCHES=$(((BLOCKS + BLOCKS_PER_BATCH) / BLOCKS_PER_BATCH))

# 2. Serving, on the index just built.
python3 - "$STATS" "$WORK" "$API_PORT" "$CHAIN" <<'PY'
import json, sys, urllib.request
stats, work, port, chain = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
base = f"http://127.0.0.1:{port}"
with open(stats) as f:
    st = json.load(f)
blocks, senders, token, count = st["blocks"], st["senders"], st["token"], st["count"]
def get(path):
    with urllib.request.urlopen(base + path) as r:
        return json.load(r)
C = f"/v1/chains/{chain}"
transfers = f"{C}/tokens/{token}/transfers?pageSize=10"
page, token_at = get(transfers), {}
for n in range(2, 1001):
    nxt = page.get("nextPageToken")
    if not nxt:
        sys.exit(f"token {token} has fewer than 1,000 pages of 10 transfers ({count} Transfer logs)")
    token_at[n] = nxt
    page = get(f"{transfers}&pageToken={nxt}")
paths = {
    "blocks": [f"{C}/blocks/{n}" for n in range(1, blocks + 1)],
    "transfers-1": [transfers],
    "transfers-1000": [f"{transfers}&pageToken={token_at[1000]}"],
    "erc721": [f"{C}/addresses/{a}/balances:listErc721?pageSize=100" for a in senders],
}
for name, ps in paths.items():
    with open(f"{work}/{name}.paths", "w") as f:
        f.writelines(p + "\n" for p in ps)
nfts = sum(len(get(p)["erc721TokenBalances"]) for p in paths["erc721"])
print(f"{blocks} blocks; token {token}: {count} Transfer logs; {len(senders)} senders holding {nfts} NFTs")
PY

"$REL/examples/raw-rewrite" "$WORK/index/index" "$WORK/raw" ev_,cm_ "$BATCHES" | tee "$WORK/raw.log"
RAW_SECS=$(grep -o '[0-9.]* s (' "$WORK/raw.log" | grep -o '^[0-9.]*')
echo "ingest: $(python3 -c "print(f'{$RAW_SECS / $INGEST_SECS:.3f}')") of the raw RocksDB write rate of the same bytes ($RAW_SECS s vs $INGEST_SECS s)"

start_ceiling
serving_header
for round in $(seq 1 "${ROUNDS:-2}"); do
  echo "round $round, $(load)"
  run "plain hyper handler (ceiling)" $RAW_PORT /v1/hello $HELLO_PID
  run "block by number" $API_PORT "@$WORK/blocks.paths" $API_PID
  run "transfers, page 1" $API_PORT "@$WORK/transfers-1.paths" $API_PID
  run "transfers, page 1,000" $API_PORT "@$WORK/transfers-1000.paths" $API_PID
  run "ERC-721 balances" $API_PORT "@$WORK/erc721.paths" $API_PID
done
echo "data-api peak RSS $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$API_PID/status") MiB"
kill $API_PID 2>/dev/null || true
wait $API_PID 2>/dev/null || true
