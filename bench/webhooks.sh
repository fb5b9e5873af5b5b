#!/usr/bin/env bash
# Reproduces the webhook figures of docs/benchmarks.md ("Webhooks: delivery latency and ingest
# with many webhooks"):
#   1. ingest: a synthetic chain of BLOCKS blocks of TXS txs (`evm-synth`, seed 1, generated
#      when asked), indexed by `data-api serve --evm` into a data dir with no webhooks (the
#      ceiling) and into a copy of one holding COUNT webhooks (default 10,000) made through the
#      API, each watching ADDRS addresses (10,000): the start-up (until it listens: the
#      webhooks loaded), then wall and CPU time until /readyz is 200, txs/s, peak RSS; interleaved over ROUNDS rounds, after a warm-up run without webhooks (round 0). No tx of the chain touches the webhooks' addresses:
#      what it measures is matching every tx against them and their idle delivery tasks, not
#      writing events (part 2 does).
#   2. delivery latency on a live chain: anvil (chain 43112) driven by JSON-RPC, a tx from its
#      first account to the probe address then `evm_mine` (a block per tx), followed by
#      `data-api serve --evm`; 1, 100, then 10,000 webhooks (made through the API as the run goes) watching ADDRS addresses
#      each, all holding the probe, so every tx is delivered to every webhook; a receiver
#      (`webhook-receiver`) answers 200 and records each delivery's time. Latency is from the
#      write of the block's batch by ingest (the follower's debug log line "EVM blocks
#      derived", microseconds) to the receiver's 200, and from anvil's mining of the block
#      (the driver's clock when evm_mine returns) to the 200; p50/p99 over every
#      delivery; data-api's CPU per delivery (from the first tx to the last delivery, ingest
#      and idle webhooks included), its RSS after each count and its peak. WEBHOOK_FLAGS are
#      added to `data-api serve` (e.g. --webhook-concurrency N).
# Sets (bench/webhooks.py): SETS distinct sets (100), set k the probe and ADDRS - 1 addresses
# drawn from SHA-256 of "snowline-bench-webhooks/k/j", webhook i watching set i mod SETS
# (organisation i / 1,000: the per-organisation limit is 1,000 webhooks).
# Loopback only; every wait is bounded. Needs anvil (`cargo xtask setup`), curl and python3.
#
#   bench/webhooks.sh [WORK_DIR=/tmp/snowline-bench-webhooks] [BLOCKS=1000] [TXS=50]
#
# Environment: NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR; ROUNDS=N
# (default 2); PARTS (default "ingest latency": which parts run); ANVIL_PORT, API_PORT,
# RECV_PORT, SYNTH_PORT (19780-19783: another run on the machine needs others); COUNT (10000), ADDRS (10000), SETS (100); ANVIL_BIN (default: where `cargo
# xtask setup` puts it).
set -euo pipefail

WORK=${1:-/tmp/snowline-bench-webhooks}
BLOCKS=${2:-1000}
TXS=${3:-50}
COUNT=${COUNT:-10000}
ADDRS=${ADDRS:-10000}
SETS=${SETS:-100}
CHAIN=43112
ANVIL_PORT=${ANVIL_PORT:-19780}
API_PORT=${API_PORT:-19781}
RECV_PORT=${RECV_PORT:-19782}
SYNTH_PORT=${SYNTH_PORT:-19783}
ANVIL=${ANVIL_BIN:-$HOME/.cache/snowline/npm/anvil-1.7.1/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil}

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
mkdir -p "$WORK"

# shellcheck source=lib.sh
source bench/lib.sh
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example webhook-receiver
fi
WH="python3 bench/webhooks.py"
API=http://127.0.0.1:$API_PORT
RECV=http://127.0.0.1:$RECV_PORT
HOOK_URL=$RECV/hook
HZ=$(getconf CLK_TCK)

rss() { awk -v k="$2" '$1 == k":" {print int($2 / 1024)}' "/proc/$1/status"; }
keys() { # dir: one API key per 1,000 webhooks, their secrets in dir/keys.txt
  : >"$1/keys.txt"
  for o in $(seq 0 $(((COUNT - 1) / 1000))); do
    "$REL/data-api" keys --data-dir "$1" create --name "bench-$o" --org "bench-$o" --tier free |
      tr ' ' '\n' | grep '^snl_' >>"$1/keys.txt"
  done
}
serve() { # dir log [flags...]: data-api serving dir; sets API_PID, waits until it listens
  local dir=$1 log=$2
  shift 2
  "$REL/data-api" serve --data-dir "$dir" --listen "127.0.0.1:$API_PORT" --network local \
    --no-rate-limits --no-metering --webhook-allow-private 127.0.0.0/8 "$@" >"$log" 2>&1 &
  API_PID=$!
  PIDS+=("$API_PID")
  wait_http "$API/v1/chains"
}
ready() { # until /readyz is 200 (bounded); prints the seconds since $1
  for _ in $(seq 1 36000); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$API/readyz")" = 200 ]; then
      python3 -c "import time; print(f'{time.time() - $1:.2f}')"
      return 0
    fi
    kill -0 "$API_PID" 2>/dev/null || { echo "data-api stopped" >&2; return 1; }
    sleep 0.05
  done
  echo "not ready within 30 minutes" >&2
  return 1
}
stop() {
  kill "$API_PID" 2>/dev/null || true
  wait "$API_PID" 2>/dev/null || true
}

$WH sets "$WORK" "$SETS" "$ADDRS"
"$REL/examples/webhook-receiver" "127.0.0.1:$RECV_PORT" >"$WORK/receiver.log" 2>&1 &
PIDS+=($!)
wait_http "$RECV/count"

PARTS=${PARTS:-ingest latency}
part() { [[ " $PARTS " == *" $1 "* ]]; }

# 1. Ingest with COUNT webhooks against none.
if part ingest; then
"$REL/evm-synth" --listen "127.0.0.1:$SYNTH_PORT" --seed 1 --chain-id $CHAIN --blocks "$BLOCKS" \
  --txs-per-block "$TXS" >"$WORK/synth.json" 2>"$WORK/synth.log" &
PIDS+=($!)
wait_http "http://127.0.0.1:$SYNTH_PORT/"
TXCOUNT=$((BLOCKS * TXS))

TEMPLATE=$WORK/template
rm -rf "$TEMPLATE"
mkdir -p "$TEMPLATE"
keys "$TEMPLATE"
serve "$TEMPLATE" "$WORK/template.log"
echo "== $COUNT webhooks through the API into an empty data dir, $(load)"
$WH create "$API" "$TEMPLATE/keys.txt" "$WORK" 0 "$COUNT" "$HOOK_URL"
echo "data-api RSS with $COUNT webhooks: $(rss "$API_PID" VmRSS) MiB (peak $(rss "$API_PID" VmHWM) MiB); store $(du -sm "$TEMPLATE" | cut -f1) MB"
stop
start=$(date +%s.%N)
serve "$TEMPLATE" "$WORK/template.log"
echo "data-api restart with $COUNT webhooks: listening after $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s, RSS $(rss "$API_PID" VmRSS) MiB"
stop

echo "== ingest: $TXCOUNT txs in $BLOCKS blocks from evm-synth"
for round in $(seq 0 "${ROUNDS:-2}"); do
  for with in 0 "$COUNT"; do
    [ "$round" = 0 ] && [ "$with" != 0 ] && continue # round 0: one warm-up run, not a figure
    rm -rf "$WORK/ingest"
    if [ "$with" = 0 ]; then mkdir -p "$WORK/ingest"; else cp -a "$TEMPLATE" "$WORK/ingest"; fi
    before=$($WH count "$RECV")
    load_now=$(load)
    start=$(date +%s.%N)
    serve "$WORK/ingest" "$WORK/ingest.log" --evm "$CHAIN=http://127.0.0.1:$SYNTH_PORT"
    up_cpu=$(cpu_ticks "$API_PID")
    up=$(date +%s.%N)
    ready "$start" >/dev/null
    end=$(date +%s.%N)
    cpu=$(cpu_ticks "$API_PID")
    python3 -c "
r, n, w, t, hz = '$round', $TXCOUNT, '$with', ($start, $up, $end), $HZ
up_cpu, cpu = $up_cpu / hz, $cpu / hz
print(f'round {r}, {w} webhooks: start-up (listening) {t[1] - t[0]:.2f} s, CPU {up_cpu:.2f} s; '
      f'then caught up after {t[2] - t[1]:.2f} s: {n / (t[2] - t[1]):,.0f} txs/s, CPU {cpu - up_cpu:.2f} s '
      f'({(cpu - up_cpu) / n * 1e6:.0f} us/tx); whole run {t[2] - t[0]:.2f} s, CPU {cpu:.2f} s; '
      f'peak RSS $(rss "$API_PID" VmHWM) MiB, $(($($WH count "$RECV") - before)) deliveries; $load_now')"
    stop
  done
done
rm -rf "$WORK/ingest" "$TEMPLATE"
fi

# 2. Delivery latency on a live chain.
part latency || exit 0
"$ANVIL" --host 127.0.0.1 --port $ANVIL_PORT --chain-id $CHAIN --no-mining --silent >"$WORK/anvil.log" 2>&1 &
PIDS+=($!)
wait_http "http://127.0.0.1:$ANVIL_PORT/"
LIVE=$WORK/live
rm -rf "$LIVE" "$WORK/mined.tsv"
mkdir -p "$LIVE"
keys "$LIVE"
# shellcheck disable=SC2086
RUST_LOG=info,snowline_chain_evm=debug serve "$LIVE" "$WORK/live.log" \
  --evm "$CHAIN=http://127.0.0.1:$ANVIL_PORT" ${WEBHOOK_FLAGS:-}
ready "$(date +%s)" >/dev/null
made=0
for n in 1 100 "$COUNT"; do
  case $n in
    1) txs=40 interval=0.25 ;;
    100) txs=20 interval=0.5 ;;
    *) txs=6 interval=5 ;;
  esac
  echo "== $n webhooks, $(load)"
  $WH create "$API" "$LIVE/keys.txt" "$WORK" "$made" "$n" "$HOOK_URL"
  made=$n
  sleep 1 # a change applies from the next block the hook sees
  from=$($WH count "$RECV")
  cpu0=$(cpu_ticks "$API_PID")
  t0=$(date +%s.%N)
  $WH drive "http://127.0.0.1:$ANVIL_PORT" "$txs" "$interval" "$WORK/mined.tsv"
  $WH wait "$RECV" $((from + n * txs)) 1200
  cpu1=$(cpu_ticks "$API_PID")
  t1=$(date +%s.%N)
  $WH latency "$RECV" "$from" "$WORK/live.log" "$WORK/mined.tsv" "$n webhooks"
  python3 -c "
d, c, w = $n * $txs, ($cpu1 - $cpu0) / $HZ, $t1 - $t0
print(f'data-api CPU from the first tx to the last delivery: {c:.2f} s in {w:.1f} s, {c / d * 1e6:.0f} us a delivery')"
  echo "data-api RSS $(rss "$API_PID" VmRSS) MiB, $(load)"
done
echo "data-api peak RSS $(rss "$API_PID" VmHWM) MiB"
stop
rm -rf "$LIVE"
