"""Writes what schemathesis' second pass (the `local` network) needs into OUT_DIR.

    python3 prepare_local.py OPENAPI GENESIS OUT_DIR

- `openapi-local.json`: the real Glacier OpenAPI with two edits, and no others:
  1. the `Network` enum gains `local`, so requests may name the devnet's network and answers may
     echo it in `chainInfo.network` (the published enum only knows mainnet, fuji, testnet);
  2. the 200 responses of `getBalancesByAddresses` and `getUtxosByAddresses` are narrowed from
     `oneOf` [P, X, C shapes] to the X-Chain shape alone. The published `oneOf` cannot be satisfied
     by any X-Chain balance answer (`ListCChainAtomicBalancesResponse` requires a subset of
     `ListXChainBalancesResponse`'s fields and allows extra ones, so every X answer matches both),
     nor by an empty UTXO page (`{"utxos": [], "chainInfo": ...}` matches the P and the X shape).
     This server answers with data only for the X-Chain, so the X shape is the one to hold it to.
- `devnet.dict`: a libFuzzer-style dictionary of the devnet's X-Chain addresses (single ones,
  without the `X-` prefix, and comma-separated lists), for `query.addresses`.
- `assets.dict`: the devnet's AVAX asset id, for `query.assetId`.
- `times.dict`: UNIX times inside and after the devnet's history (from `containers.jsonl` next to
  GENESIS), for `query.blockTimestamp`: generated integers are mostly before any activity.
- `amounts.dict`: small UTXO amount floors, for `query.minUtxoAmount`.
"""

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

X_SHAPES = {
    "getBalancesByAddresses": "#/components/schemas/ListXChainBalancesResponse",
    "getUtxosByAddresses": "#/components/schemas/ListUtxosResponse",
}


def local_openapi(spec: dict) -> dict:
    """The spec with `local` in the Network enum and the X-Chain shapes for balances and UTXOs."""
    network = spec["components"]["schemas"]["Network"]
    if "local" not in network["enum"]:
        network["enum"].append("local")
    narrowed = set()
    for item in spec["paths"].values():
        for op in item.values():
            if not isinstance(op, dict) or op.get("operationId") not in X_SHAPES:
                continue
            media = op["responses"]["200"]["content"]["application/json"]
            shapes = [s.get("$ref") for s in media["schema"].get("oneOf", [])]
            want = X_SHAPES[op["operationId"]]
            if want not in shapes:
                raise SystemExit(f"{op['operationId']}: 200 response has no {want} variant: {shapes}")
            media["schema"] = {"$ref": want}
            narrowed.add(op["operationId"])
    missing = set(X_SHAPES) - narrowed
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


def main() -> None:
    openapi, genesis_path, out = (Path(a) for a in sys.argv[1:4])
    out.mkdir(parents=True, exist_ok=True)
    spec = local_openapi(json.loads(openapi.read_text()))
    (out / "openapi-local.json").write_text(json.dumps(spec))

    genesis = json.loads(genesis_path.read_text())
    # The first key (ewoq) has spent everything by the end of the devnet; generation favours a
    # dictionary's first entries, so it goes last.
    addrs = [k["address"] for k in genesis["keys"]]
    addrs = addrs[1:] + addrs[:1]
    entries = list(addrs)
    entries += [a.removeprefix("X-") for a in addrs[:5]]
    entries += [",".join(addrs[i : i + 3]) for i in range(0, 9, 3)]
    entries.append(",".join(addrs))
    (out / "devnet.dict").write_text("".join(quoted(e) + "\n" for e in entries))
    (out / "assets.dict").write_text(quoted(genesis["avaxAssetID"]) + "\n")

    lines = (genesis_path.parent / "containers.jsonl").read_text().splitlines()
    times = sorted(unix_seconds(json.loads(line)["timestamp"]) for line in lines if line.strip())
    picks = [times[0], times[len(times) // 2], times[-1], 4102444800]
    (out / "times.dict").write_text("".join(quoted(str(t)) + "\n" for t in picks))
    (out / "amounts.dict").write_text("".join(quoted(a) + "\n" for a in ["0", "1", "1000000"]))


if __name__ == "__main__":
    main()
