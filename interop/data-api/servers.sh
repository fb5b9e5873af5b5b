# Shared by schemathesis.sh and run.sh (sourced, not run): builds node-rpc, data-api and
# evm-replay, serves the seed-1 devnet with node-rpc and the two recorded EVM chains
# (fixtures/evm/devnet/43112.jsonl, the C-Chain, and 99999.jsonl, the devnet's L1; another
# directory of recordings of both with SNOWLINE_EVM_RECORDINGS, e.g. fixtures/evm/icm) each with an
# evm-replay, starts data-api following node-rpc and indexing both EVM chains (--evm-config, a
# sources file evm_sources.mjs writes), waits until it has caught up with all three (/readyz 200
# and the evm-43112 and evm-99999 checks up), and creates an admin API key. data-api reads
# node-rpc's record of metered calls (--rpc-usage-from) for the RPC usage metrics.
# `start_servers [DATA_API_SERVE_ARGS...]` (e.g. --compat glacier); after it:
#   API_URL   http://127.0.0.1:PORT of data-api
#   NODE_URL  http://127.0.0.1:PORT of node-rpc
#   EVM_URLS  "43112=http://127.0.0.1:PORT 99999=http://127.0.0.1:PORT", the evm-replay servers
#   API_KEY   the admin key's secret (send as x-data-api-key or x-glacier-api-key)
#   WORK      a temp dir removed by stop_servers (which the EXIT trap calls)
# Honors CARGO_TARGET_DIR (default <repo>/target). Needs curl and node.

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bindir="${CARGO_TARGET_DIR:-$root/target}/debug"

node_pid=""
api_pid=""
evm_pids=()
WORK=""

build_servers() {
  echo "== cargo build -p node-rpc -p data-api -p snowline-evm-devnet --bin evm-replay"
  (cd "$root" && cargo build -q -p node-rpc -p data-api &&
    cargo build -q -p snowline-evm-devnet --bin evm-replay)
  for b in node-rpc data-api evm-replay; do
    [ -x "$bindir/$b" ] || { echo "$b binary not found at $bindir/$b" >&2; return 2; }
  done
}

# wait_for_line PID LOG SED_EXPR: prints the first match of SED_EXPR in LOG, waiting up to 120 s.
wait_for_line() {
  local pid="$1" log="$2" expr="$3" found=""
  for _ in $(seq 1 600); do
    found="$(sed -n "$expr" "$log" | head -n1)"
    [ -n "$found" ] && { echo "$found"; return 0; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "process $pid did not start; its output:" >&2
  cat "$log" >&2
  return 1
}

start_servers() {
  WORK="$(mktemp -d)"
  "$bindir/node-rpc" serve --listen 127.0.0.1:0 --data-dir "$WORK/node" >"$WORK/node.log" 2>&1 &
  node_pid=$!
  NODE_URL="$(wait_for_line "$node_pid" "$WORK/node.log" \
    's/^node-rpc: listening on \(http:\/\/[0-9.:]*\).*/\1/p')"
  echo "node-rpc at $NODE_URL"

  local chain pid url urls=() recordings="${SNOWLINE_EVM_RECORDINGS:-$root/fixtures/evm/devnet}"
  EVM_URLS=""
  for chain in 43112 99999; do
    "$bindir/evm-replay" "$recordings/$chain.jsonl" --listen 127.0.0.1:0 \
      >"$WORK/evm-$chain.log" 2>&1 &
    pid=$!
    evm_pids+=("$pid")
    url="$(wait_for_line "$pid" "$WORK/evm-$chain.log" \
      's/^evm-replay: .* on \(http:\/\/[0-9.:]*\)$/\1/p')"
    urls+=("$url")
    EVM_URLS="${EVM_URLS:+$EVM_URLS }$chain=$url"
  done
  echo "evm-replay: $EVM_URLS"
  node "$here/evm_sources.mjs" "$root/fixtures/devnet/genesis.json" "${urls[@]}" >"$WORK/evm.json"

  "$bindir/data-api" serve --listen 127.0.0.1:0 --data-dir "$WORK/api" --upstream "$NODE_URL" \
    --genesis devnet --evm-config "$WORK/evm.json" --no-rate-limits \
    --rpc-usage-from "$WORK/node/rpc-usage" "$@" >"$WORK/api.log" 2>&1 &
  api_pid=$!
  API_URL="$(wait_for_line "$api_pid" "$WORK/api.log" \
    's/^data-api: listening on \(http:\/\/[0-9.:]*\).*/\1/p')"
  echo "data-api at $API_URL"

  local ready=""
  for _ in $(seq 1 600); do
    # /readyz is 200 once every check is up; the health check names them: both EVM chains'.
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$API_URL/readyz")" = "200" ] &&
      curl -s "$API_URL/v1/health-check" | grep -q '"evm-43112":{"status":"up"}' &&
      curl -s "$API_URL/v1/health-check" | grep -q '"evm-99999":{"status":"up"}'; then
      ready=1
      break
    fi
    kill -0 "$api_pid" 2>/dev/null || break
    sleep 0.2
  done
  [ -n "$ready" ] || { echo "data-api never became ready:" >&2; cat "$WORK/api.log" >&2; return 1; }

  API_KEY="$("$bindir/data-api" keys --data-dir "$WORK/api" create --name interop --tier admin |
    grep -o 'snl_[A-Za-z0-9]*' | head -n1)"
  [ -n "$API_KEY" ] || { echo "could not create an API key" >&2; return 1; }
  # The server picks new keys up within a second: wait until it accepts this one.
  local accepted=""
  for _ in $(seq 1 100); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' -H "x-data-api-key: $API_KEY" \
      "$API_URL/v1/apiUsageMetrics")" = "200" ]; then
      accepted=1
      break
    fi
    sleep 0.1
  done
  [ -n "$accepted" ] || { echo "data-api did not pick up the new API key" >&2; return 1; }
  export API_URL NODE_URL API_KEY WORK EVM_URLS
}

stop_servers() {
  local pid
  for pid in "$api_pid" "$node_pid" "${evm_pids[@]}"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  api_pid=""
  node_pid=""
  evm_pids=()
  if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
  WORK=""
}
