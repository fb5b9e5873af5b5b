"""Writes what schemathesis' second pass (the `local` network) needs into OUT_DIR.

    python3 prepare_local.py OPENAPI GENESIS P_VALUES OUT_DIR

P_VALUES is the JSON `st_values.mjs` prints: the devnet's P-Chain values read from its blocks.

- `openapi-local.json`: the real Glacier OpenAPI with three edits, and no others:
  1. the `Network` enum gains `local`, so requests may name the devnet's network and answers may
     echo it in `chainInfo.network` (the published enum only knows mainnet, fuji, testnet);
  2. the `oneOf` of the 200 responses of `getBalancesByAddresses` ([P, X, C-atomic shapes]) and
     `getUtxosByAddresses` ([P, X-and-C]) gets a discriminator: each variant also requires
     `chainInfo.chainName` to be one of its chains (`p-chain`, `x-chain`, `c-chain`; the `Utxo`
     listing is the X- and the C-Chain's shape). As published, the
     `oneOf` cannot be satisfied by an X-Chain balance answer (`ListCChainAtomicBalancesResponse`
     requires a subset of `ListXChainBalancesResponse`'s fields and allows extra ones, so every X
     answer matches both), nor by an empty UTXO page (`{"utxos": [], "chainInfo": ...}` matches
     the P and the X shape). With the discriminator exactly one variant applies, the one of the
     chain the answer says it is about, and the answer must match that shape in full.
  3. the `network` of `PrimaryNetworkRpcUsageMetricsResponseDTO` (mainnet, testnet) gains `local`:
     the primary network RPC usage of the devnet's network names it.
- dictionaries (libFuzzer style, for string parameters): `devnet.dict`, the devnet's addresses
  (X-, P- and C- forms, without prefix, comma lists; reward owners first) for `addresses`;
  `assets.dict`, the AVAX asset id; `nodes.dict`, node ids (stakers, block proposers, L1
  validators) and comma lists, for `nodeIds`/`nodeId`; `proposers.dict`, the block proposers
  (and one node that proposed nothing), for blocks by node; `l1.dict`, the L1's validation ids;
  `subnets.dict`, the L1's subnet and the primary network; `chains.dict`, every chain the P-Chain
  created (X, C, the L1's), for `getBlockchainById`.
- `values.toml`: dictionaries of numbers (schemathesis takes a file's entries as strings, which
  integer and number parameters reject), appended to the config: `times` (UNIX times inside and
  after the devnet's X and P histories, for `blockTimestamp`, `startTimestamp`, `endTimestamp`)
  and `amounts` (small UTXO amount floors, for `minUtxoAmount`).
"""

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

S = "#/components/schemas/"
# Each variant of the published oneOf and the chains whose answers have that shape.
CHAIN_SHAPES = {
    "getBalancesByAddresses": {
        S + "ListPChainBalancesResponse": ["p-chain"],
        S + "ListXChainBalancesResponse": ["x-chain"],
        S + "ListCChainAtomicBalancesResponse": ["c-chain"],
    },
    "getUtxosByAddresses": {
        S + "ListPChainUtxosResponse": ["p-chain"],
        S + "ListUtxosResponse": ["x-chain", "c-chain"],
    },
}


def local_openapi(spec: dict) -> dict:
    """The spec with `local` in the Network enum (and the primary network RPC usage's `network`)
    and the balances/UTXOs `oneOf` discriminated by `chainInfo.chainName`."""
    network = spec["components"]["schemas"]["Network"]
    if "local" not in network["enum"]:
        network["enum"].append("local")
    rpc_usage = spec["components"]["schemas"]["PrimaryNetworkRpcUsageMetricsResponseDTO"]
    if "local" not in rpc_usage["properties"]["network"]["enum"]:
        rpc_usage["properties"]["network"]["enum"].append("local")
    done = set()
    for item in spec["paths"].values():
        for op in item.values():
            if not isinstance(op, dict) or op.get("operationId") not in CHAIN_SHAPES:
                continue
            want = CHAIN_SHAPES[op["operationId"]]
            media = op["responses"]["200"]["content"]["application/json"]
            shapes = [s.get("$ref") for s in media["schema"].get("oneOf", [])]
            if sorted(shapes) != sorted(want):
                raise SystemExit(f"{op['operationId']}: 200 oneOf is {shapes}, expected {sorted(want)}")
            media["schema"] = {
                "oneOf": [
                    {
                        "allOf": [
                            {"$ref": ref},
                            {
                                "type": "object",
                                "required": ["chainInfo"],
                                "properties": {
                                    "chainInfo": {
                                        "type": "object",
                                        "required": ["chainName"],
                                        "properties": {"chainName": {"enum": want[ref]}},
                                    }
                                },
                            },
                        ]
                    }
                    for ref in shapes
                ]
            }
            done.add(op["operationId"])
    missing = set(CHAIN_SHAPES) - done
    if missing:
        raise SystemExit(f"operations not found in the OpenAPI: {sorted(missing)}")
    return spec


def quoted(value: str) -> str:
    """One libFuzzer dictionary line."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unix_seconds(rfc3339: str) -> int:
    """Whole seconds of an RFC 3339 time with up to nanosecond digits (`...04:00:00.2518607Z`)."""
    whole = rfc3339.split(".")[0].removesuffix("Z")
    return int(datetime.fromisoformat(whole).replace(tzinfo=timezone.utc).timestamp())


def write_dict(path: Path, entries: list[str]) -> None:
    path.write_text("".join(quoted(e) + "\n" for e in entries))


def main() -> None:
    openapi, genesis_path, values_path, out = (Path(a) for a in sys.argv[1:5])
    out.mkdir(parents=True, exist_ok=True)
    spec = local_openapi(json.loads(openapi.read_text()))
    (out / "openapi-local.json").write_text(json.dumps(spec))

    genesis = json.loads(genesis_path.read_text())
    p = json.loads(values_path.read_text())
    # The first key (ewoq) has spent everything by the end of the devnet; generation favours a
    # dictionary's first entries, so it goes last. P addresses: the reward owners first.
    addrs = [k["address"] for k in genesis["keys"]]
    addrs = addrs[1:] + addrs[:1]
    p_addrs = p["rewardOwners"] + [a.replace("X-", "P-", 1) for a in addrs if a.replace("X-", "P-", 1) not in p["rewardOwners"]]
    entries = []
    for x, pa in zip(addrs, p_addrs):
        entries += [pa, x]
    entries += [a.split("-", 1)[1] for a in addrs[:5] + p_addrs[:5]]
    entries += [a.replace("X-", "C-", 1) for a in addrs[:5]]
    entries += [",".join(addrs[i : i + 3]) for i in range(0, 9, 3)]
    entries += [",".join(p_addrs[i : i + 3]) for i in range(0, 9, 3)]
    entries += [",".join(addrs), ",".join(p_addrs)]
    write_dict(out / "devnet.dict", entries)
    write_dict(out / "assets.dict", [genesis["avaxAssetID"]])
    # Block proposers (genesis validators: blocks, running stakes) and nodes with rewards paid,
    # alternately, then the rest.
    nodes = []
    for pair in zip(p["proposers"], p["stakerNodes"]):
        nodes += [n for n in pair if n not in nodes]
    nodes += [n for n in p["stakerNodes"] + p["proposers"] + p["l1Nodes"] if n not in nodes]
    node_entries = nodes + [",".join(nodes[i : i + 3]) for i in range(0, 9, 3)] + [",".join(nodes)]
    write_dict(out / "nodes.dict", node_entries)
    write_dict(out / "proposers.dict", p["proposers"] + p["l1Nodes"][:1])
    write_dict(out / "l1.dict", p["validationIds"])
    write_dict(out / "subnets.dict", p["subnets"] + ["11111111111111111111111111111111LpoYY"])
    write_dict(out / "chains.dict", p["chains"] + [genesis["pChainID"], "p-chain", "x-chain", "c-chain"])

    lines = (genesis_path.parent / "containers.jsonl").read_text().splitlines()
    times = sorted(unix_seconds(json.loads(line)["timestamp"]) for line in lines if line.strip())
    block_times = sorted(p["blockTimes"])
    picks = sorted({times[0], times[len(times) // 2], times[-1], block_times[len(block_times) // 4],
                    block_times[len(block_times) // 2], block_times[-1], 4102444800})
    (out / "values.toml").write_text(
        "\n# Written by prepare_local.py: numeric dictionaries.\n"
        f"[dictionaries.times]\nvalues = {json.dumps(picks)}\n\n"
        "[dictionaries.amounts]\nvalues = [0, 1, 1000000, 1.5]\n"
    )


if __name__ == "__main__":
    main()
