#!/usr/bin/env bash
# The hardening suite's load part (`cargo xtask harden load`, docs/reliability.md): for
# data-api (on the devnet's genesis) and node-rpc (on the devnet), a normal client's latency
# (16 keep-alive connections for SECS s on a cheap route) alone, then while `hold` keeps
# IDLE idle connections and SLOW slowloris connections (a header byte a second) open against
# the same server; the server's RSS during the attack, and what happened to the attackers'
# connections. Loopback only; every run bounded.
#
#   bench/harden-load.sh [WORK_DIR=/tmp/snowline-harden] [IDLE=10000] [SLOW=500] [SECS=10]
#
# NO_BUILD=1 uses the release binaries already in CARGO_TARGET_DIR.
set -euo pipefail

WORK=${1:-/tmp/snowline-harden}
IDLE=${2:-10000}
SLOW=${3:-500}
SECS=${4:-10}
CONNS=16
MAX_REQ=5000000
DATA_PORT=19781
NODE_PORT=19782

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/snowline/target}
REL=$CARGO_TARGET_DIR/release
cd "$(dirname "$0")/.."
rm -rf "$WORK" && mkdir -p "$WORK"
ulimit -n 20000

# shellcheck source=lib.sh
source bench/lib.sh
if [ -z "${NO_BUILD:-}" ]; then
  cargo build --release --workspace --bins
  cargo build --release --workspace --example rest-load
  cargo build --release --workspace --example hold
fi

"$REL/data-api" serve --data-dir "$WORK/data-api" --genesis devnet --listen "127.0.0.1:$DATA_PORT" \
  --no-rate-limits >"$WORK/data-api.log" 2>&1 &
PIDS+=("$!")
DATA_PID=$!
"$REL/node-rpc" serve --data-dir "$WORK/node-rpc" --listen "127.0.0.1:$NODE_PORT" \
  >"$WORK/node-rpc.log" 2>&1 &
PIDS+=("$!")
NODE_PID=$!
wait_http "http://127.0.0.1:$DATA_PORT/healthz"
wait_http "http://127.0.0.1:$NODE_PORT/healthz"

rss() { # pid: current and peak RSS
  awk '/VmRSS|VmHWM/ {printf "%s %d MiB  ", $1, $2 / 1024}' "/proc/$1/status"
}
attack() { # name port path pid
  echo "== $1 (cap: --max-connections 1024 by default)"
  printf 'alone:        '
  "$REL/examples/rest-load" "127.0.0.1:$2" "$3" "$CONNS" "$MAX_REQ" "$SECS"
  local hold_secs=$((SECS + 12))
  "$REL/examples/hold" "127.0.0.1:$2" "$IDLE" "$SLOW" "$hold_secs" >"$WORK/hold-$1.txt" 2>&1 &
  local hold=$!
  sleep 6
  printf 'under attack: '
  "$REL/examples/rest-load" "127.0.0.1:$2" "$3" "$CONNS" "$MAX_REQ" "$SECS"
  echo "server during the attack: $(rss "$4")"
  wait "$hold"
  cat "$WORK/hold-$1.txt"
  echo "server after: $(rss "$4"), $(ls "/proc/$4/fd" | wc -l) open files"
}
load
attack data-api "$DATA_PORT" /v1/chains "$DATA_PID"
attack node-rpc "$NODE_PORT" /healthz "$NODE_PID"
load
