#!/usr/bin/env bash
# Schema fuzzing of metrics-api: builds node-rpc, data-api, evm-replay and metrics-api, has
# data-api index the devnet's P-Chain and the two EVM chains (43112, 99999) of the ICM
# recordings (fixtures/evm/icm: blocks and Teleporter messages) with interop/data-api/servers.sh, starts metrics-api over that index (a RocksDB secondary), and runs
# schemathesis 4 against the real metrics OpenAPI filtered to the operations it implements, in
# four passes:
#   1. metrics-api-v2.json as is (networks mainnet|fuji|testnet: the staking metrics and a named
#      ICM network answer 404 here, the devnet being network `local`);
#   2. the operations with a `network` parameter, on the derived copy with `local` in the Network
#      enum (st_values.mjs), `network` pinned to `local`: the staking and ICM data;
#   3. metrics-api-legacy-v1.json's chain series (`GET /v1/avg_tps/{chain}`, `/v1/tx_count/{chain}`,
#      ...), rolling windows (`/v1/{metric}/{chainId}/rollingWindow`), its health checks and its
#      v1 composite query;
#   4. its operations with a `{network}` (validator/delegator series, chain and subnet listings)
#      and the mappings, on a copy with `local` in LegacyNetworks, `network` pinned to `local`.
# st_values.mjs feeds chain ids, subnets, blockchain ids and times read from the fixtures. Each
# operation must answer 2xx with data at least once (st_summary.py --need-data). Exits non-zero
# if any check fails or a pass tested nothing. docs/interop.md explains the results.
#
#   interop/metrics-api/schemathesis.sh
#   ST_MAX_EXAMPLES=200 ST_SEED=42 interop/metrics-api/schemathesis.sh
#
# Environment: as interop/data-api/schemathesis.sh (CARGO_TARGET_DIR, ST_MAX_EXAMPLES,
# ST_SEED, ST_WORKERS, SNOWLINE_SCHEMATHESIS_VENV); SNOWLINE_METRICS_OPENAPI and
# SNOWLINE_METRICS_LEGACY_OPENAPI (default <repo>/../shared/reference/openapi/
# metrics-api-v2.json and metrics-api-legacy-v1.json). Reports (NDJSON, JUnit) go to
# $CARGO_TARGET_DIR/interop/schemathesis-metrics/. Needs python3 (>= 3.10), node (>= 18), curl.
set -euo pipefail

mine="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../data-api/servers.sh
source "$mine/../data-api/servers.sh"

# Every operation of metrics-api-v2.json this server implements; one alternation, so an
# operation is added in one line.
ops='metrics-health-check|metrics-live-check|listChains|getChain|getEvmChainMetrics'
ops+='|getEvmChainRollingWindowMetrics|getStakingMetrics|getICMTimeseries|getICMSummary'
ops+='|getTotalL1ValidatorMetrics|getMetricsByValidationId|getMetricsByNodeId|getMetricsBySubnetId'
ops+='|getValidatorsByDateRange|compositeQueryV2|getAddressesByBtcbBridged'
# Those with a `network` parameter (pass 2).
network_ops='getStakingMetrics|getICMTimeseries|getICMSummary|getValidatorsByDateRange'
# metrics-api-legacy-v1.json's chain operations served (pass 3): the series and rolling windows.
legacy_series='getAvgTps|getTxCount|getGasUsed|getActiveAddresses|getActiveSenders|getAvgGps'
legacy_series+='|getMaxGps|getMaxTps|getAvgGasPrice|getMaxGasPrice|getCumulativeAddresses'
legacy_series+='|getCumulativeContracts|getCumulativeTxCount|getCumulativeDeployers'
legacy_rolling='getRollingWindowGasUsed|getRollingWindowTxCount|getRollingWindowAvgGps'
legacy_rolling+='|getRollingWindowMaxGps|getRollingWindowAvgTps|getRollingWindowMaxTps'
legacy_rolling+='|getRollingWindowAvgGasPrice|getRollingWindowMaxGasPrice'
legacy_ops="$legacy_series|$legacy_rolling|health-check-v1|health-check-v2|compositeQueryV1"
# The token holders (an NFT collection's, and a token's balances over a time range). The ICM
# recordings move one ERC-20 and no NFT: the NFT holders can answer 2xx, never with data.
legacy_ops+='|getNftHoldersByContractAddress|getAddressesByBalanceOverTime'
# Those with a `{network}`, and the mappings (pass 4).
legacy_network_ops='getValidatorCount|getValidatorWeight|getDelegatorCount|getDelegatorWeight'
legacy_network_ops+='|getMappings|getMappingsBySubnetId|getChainInformationByNetwork'
legacy_network_ops+='|getChainInformationByNetworkAndSubnetId|getSubnetInformationByNetwork'
legacy_network_ops+='|getSubnetInformationByNetworkAndSubnetId'

venv="${SNOWLINE_SCHEMATHESIS_VENV:-$HOME/.cache/snowline/schemathesis-venv}"
openapi="${SNOWLINE_METRICS_OPENAPI:-$root/../shared/reference/openapi/metrics-api-v2.json}"
legacy="${SNOWLINE_METRICS_LEGACY_OPENAPI:-$root/../shared/reference/openapi/metrics-api-legacy-v1.json}"
genesis="$root/fixtures/devnet/genesis.json"
max_examples="${ST_MAX_EXAMPLES:-100}"
seed="${ST_SEED:-$RANDOM$RANDOM}"
workers="${ST_WORKERS:-1}"
reports="${CARGO_TARGET_DIR:-$root/target}/interop/schemathesis-metrics"

"$venv/bin/schemathesis" --version 2>/dev/null | grep -q 'version 4\.' || {
  echo "schemathesis 4 not found in $venv: run interop/data-api/schemathesis.sh once (it installs it)" >&2
  exit 2
}
for f in "$openapi" "$legacy"; do [ -f "$f" ] || { echo "OpenAPI not found: $f" >&2; exit 2; }; done
metrics_pid=""
own_bin=""
stop_all() {
  if [ -n "$metrics_pid" ] && kill -0 "$metrics_pid" 2>/dev/null; then
    kill "$metrics_pid" 2>/dev/null || true
    wait "$metrics_pid" 2>/dev/null || true
  fi
  stop_servers
  if [ -n "$own_bin" ]; then rm -rf "$own_bin"; fi
}
trap stop_all EXIT INT TERM
build_servers
# The binaries are linked into a directory of this run's own right after the last build: a
# target directory shared with other checkouts may have theirs built over the same names
# while this runs (a store of another schema version, then).
(cd "$root" && cargo build -q -p node-rpc -p data-api -p metrics-api)
own_bin="$(mktemp -d "${CARGO_TARGET_DIR:-$root/target}/interop-bin.XXXXXX")"
for b in node-rpc data-api evm-replay metrics-api; do
  ln "$bindir/$b" "$own_bin/$b" 2>/dev/null || cp "$bindir/$b" "$own_bin/$b"
done
bindir="$own_bin"

# The ICM recordings of both chains (fixtures/evm/icm): blocks for the chain metrics and
# Teleporter messages between the two for the ICM metrics.
export SNOWLINE_EVM_RECORDINGS="${SNOWLINE_EVM_RECORDINGS:-$root/fixtures/evm/icm}"
echo "== data-api indexing the devnet and the EVM chains 43112, 99999 ($SNOWLINE_EVM_RECORDINGS)"
start_servers
"$bindir/metrics-api" serve --index-dir "$WORK/api" --data-dir "$WORK/metrics" \
  --listen 127.0.0.1:0 --network local --evm-config "$WORK/evm.json" --no-rate-limits \
  >"$WORK/metrics.log" 2>&1 &
metrics_pid=$!
METRICS_URL="$(wait_for_line "$metrics_pid" "$WORK/metrics.log" \
  's/^metrics-api: listening on \(http:\/\/[0-9.:]*\).*/\1/p')"
echo "metrics-api at $METRICS_URL"
# The secondary catches up every second: wait until both chains' metrics are there.
for _ in $(seq 1 100); do
  chains="$(curl -s "$METRICS_URL/v2/chains" || true)"
  if grep -q '"evmChainId":43112' <<<"$chains" && grep -q '"evmChainId":99999' <<<"$chains"; then
    break
  fi
  sleep 0.2
done

values="$WORK/st"
node "$mine/st_values.mjs" "$genesis" "$openapi" "$values"
cat "$mine/schemathesis.toml" "$values/values.toml" >"$values/published.toml"
# schemathesis.toml ends in its [parameters] table: pass 2 adds `network` there.
{
  cat "$mine/schemathesis.toml"
  printf '"path.network" = "local"\n"query.network" = "local"\n'
  cat "$values/values.toml"
} >"$values/local.toml"
cat "$mine/schemathesis-legacy.toml" "$values/values.toml" >"$values/legacy.toml"
cat "$mine/schemathesis-legacy-local.toml" "$values/values.toml" >"$values/legacy-local.toml"
# The legacy OpenAPI with `local` in `LegacyNetworks` (its only edit), for pass 4.
node -e 'const fs = require("fs");
  const spec = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const networks = spec.components.schemas.LegacyNetworks.enum;
  if (!networks.includes("local")) networks.push("local");
  fs.writeFileSync(process.argv[2], JSON.stringify(spec));' "$legacy" "$values/legacy-local.json"

rm -rf "$reports"
st="$venv/bin/schemathesis"
py="$venv/bin/python"
summary="$root/interop/data-api/st_summary.py"
common=(--max-examples "$max_examples" --phases examples,coverage,fuzzing
  --seed "$seed" --workers "$workers" --generation-database none --no-color
  --request-timeout 30 --report ndjson,junit)
echo "== schemathesis $("$st" --version | sed 's/.*version //'), seed $seed, max examples $max_examples"
status=0

# run_pass NAME CONFIG OPENAPI OPS: one schemathesis run; its report in $reports/NAME.
run_pass() {
  if ! (cd "$values" && "$st" --config-file "$2" run "$3" -u "$METRICS_URL" \
    --include-operation-id-regex "^($4)\$" "${common[@]}" --report-dir "$reports/$1"); then
    status=1
  fi
}

# Each chain's windows must have answered with data, asked by either id, and the series of one
# of them at least (the generator's draws of a chain id and a range inside its data are too few
# for each chain's series to get one in every seed).
c_chain="/v2/chains/43112/|/v2/chains/$(node -p "require('$genesis').cChainID")/"
l1_chain="/v2/chains/99999/|/v2/chains/$(node -p \
  "require('$WORK/evm.json').chains.find((c) => c.chainId === 99999).blockchainId")/"

echo "== pass 1: metrics-api-v2.json as published"
run_pass published "$values/published.toml" "$openapi" "$ops"
"$py" "$summary" "$(ls "$reports"/published/*.ndjson)" "pass 1 (metrics-api-v2.json)" \
  --need-data /v2/chains "/metrics/{metric}@$c_chain|$l1_chain" \
  "/rollingWindowMetrics/{metric}@$c_chain" "/rollingWindowMetrics/{metric}@$l1_chain" \
  /v2/icm/timeseries /v2/icm/summary '/v2/validators/metrics/{metric}' \
  '/v2/validation/{l1ValidationId}/metrics/{metric}' '/v2/validator/{nodeId}/metrics/{metric}' \
  '/v2/subnet/{subnetId}/metrics/{metric}' \
  --need-2xx '/v2/chains/{chainId}' /v2/health-check /v2/live-check || status=1

echo "== pass 2: the operations with a network, on network local"
run_pass local "$values/local.toml" "$values/openapi-local.json" "$network_ops"
"$py" "$summary" "$(ls "$reports"/local/*.ndjson)" "pass 2 (network local)" \
  --need-data '/v2/networks/{network}/metrics/{metric}' \
  '/v2/networks/{network}/metrics/{metric}@subnetId=nanPL' \
  '/v2/subnets/{subnetId}/validators:getAddresses' \
  /v2/icm/timeseries /v2/icm/summary || status=1

echo "== pass 3: metrics-api-legacy-v1.json's series, rolling windows and health checks"
run_pass legacy "$values/legacy.toml" "$legacy" "$legacy_ops"
"$py" "$summary" "$(ls "$reports"/legacy/*.ndjson)" "pass 3 (metrics-api-legacy-v1.json)" \
  --need-data '/v1/avg_tps/{chain}' '/v1/tx_count/{chain}' '/v1/cumulative/tx_count/{chain}' \
  '/v1/tx_count/{chainId}/rollingWindow' '/v1/max_gas_price/{chainId}/rollingWindow' \
  '/contracts/{address}/balances' \
  --need-2xx /v1/health-check /v2/health-check '/nfts:listHolders' || status=1

echo "== pass 4: metrics-api-legacy-v1.json's staking series, listings and mappings on local"
run_pass legacy-local "$values/legacy-local.toml" "$values/legacy-local.json" "$legacy_network_ops"
"$py" "$summary" "$(ls "$reports"/legacy-local/*.ndjson)" "pass 4 (legacy, network local)" \
  --need-data '/v1/validators/network/{network}/subnetId/{subnetID}/count' \
  '/v1/chains/network/{network}' '/v1/subnets/network/{network}' /v1/mapping || status=1

if [ "$status" -eq 0 ]; then
  echo "schemathesis: metrics-api passed all four passes (seed $seed; reports in $reports)"
else
  echo "schemathesis: metrics-api FAILED (seed $seed; reports in $reports)"
fi
exit "$status"
