// Writes what schemathesis' passes against metrics-api (schemathesis.sh) need into OUT_DIR, read
// from the fixtures (the devnet's P-Chain; the EVM recordings SNOWLINE_EVM_RECORDINGS names, as
// evm.mjs reads them), so that generated requests name the chains, subnets, blockchains and
// times that hold data:
//
//   chains.dict        43112, 99999, their blockchain ids, and the aggregates total, testnet
//                      (path chainId)
//   subnets.dict       the devnet's subnets, then the primary network (query subnetId)
//   validations.dict   the devnet L1's validation ids (path l1ValidationId)
//   nodes.dict         their node ids (path nodeId)
//   blockchains.dict   the two EVM chains' blockchain ids, cb58 and 0x hex (ICM src/dest ids)
//   token-contracts.dict  the contracts that moved tokens in the recordings, NFT collections
//                      first (the token holders' path address)
//   values.toml        `evm-times`: UNIX times at and around the EVM recordings' blocks
//                      (startTimestamp, endTimestamp of the chain and ICM metrics), `p-times`
//                      the same of the P-Chain's history (the staking metrics'; numeric
//                      dictionaries must be TOML, schemathesis takes a file's entries as
//                      strings), and `legacy-times`, `legacy-p-times`: `evm-times`, `p-times` as
//                      strings (the legacy from/to)
//   openapi-local.json the metrics OpenAPI with `local` added to the `Network` enum (the only
//                      edit): the devnet's network, which the published enum lacks
//
//   node st_values.mjs GENESIS_JSON OPENAPI OUT_DIR

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Recording, checksum, devnetEvmChain } from "../data-api/evm.mjs";
import { idBytes, replay } from "../data-api/pchain.mjs";

const [genesisPath, openapiPath, out] = process.argv.slice(2);
if (!genesisPath || !openapiPath || !out) {
  console.error("usage: node st_values.mjs GENESIS_JSON OPENAPI OUT_DIR");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const dict = (name, entries) =>
  writeFileSync(join(out, name), entries.map((e) => `"${e.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"\n`).join(""));

const genesis = JSON.parse(readFileSync(genesisPath, "utf8"));
const l1 = devnetEvmChain(genesisPath, 99999);
const cChain = genesis.cChainID;
const PRIMARY = "11111111111111111111111111111111LpoYY";

/** A cb58 id as 0x and 64 hex digits. */
const hex = (cb58) => "0x" + idBytes(cb58).toString("hex");

dict("chains.dict", ["99999", "43112", l1.blockchainId, cChain, "total", "testnet"]);
const containers = readFileSync(join(genesisPath, "..", "containers.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l))
  .filter((c) => c.path === "P/block");
const p = replay(genesis.pGenesis, containers, { avaxAssetId: genesis.avaxAssetID });
// The L1's subnet first (generation favours a dictionary's first entries; the primary network
// is also what an absent subnetId means).
dict("subnets.dict", [...p.subnets.keys(), PRIMARY]);
// The L1's validations and their nodes (the L1 validator fee metrics' path ids).
dict("validations.dict", [...p.l1.keys()]);
dict("nodes.dict", [...new Set([...p.l1.values()].map((v) => v.nodeId))]);
dict("blockchains.dict", [cChain, l1.blockchainId, hex(cChain), hex(l1.blockchainId)]);
const moved = [43112, 99999].flatMap((c) => new Recording(c).transfers());
const nftFirst = [...moved.filter((t) => t.standard !== 20), ...moved.filter((t) => t.standard === 20)];
dict("token-contracts.dict", [...new Set(nftFirst.map((t) => checksum(t.token)))]);

// UNIX times, those inside the data first (generation favours a dictionary's first entries): the
// EVM recordings' blocks (first, middle, last; an hour after, the day's start, a day before) and
// the P-Chain's blocks (middle, first, last; a week before), then one far after both.
const evm = [43112, 99999].flatMap((c) => new Recording(c).blocks.map((b) => Number(BigInt(b.block.timestamp))));
const pTimes = p.blocks.map((b) => Number(b.inner.time));
const pick = (xs) => { const s = [...xs].sort((a, b) => a - b); return [s[0], s[s.length >> 1], s[s.length - 1]]; };
const day = 86_400;
const far = 4102444800;
const [e0, e1, e2] = pick(evm);
const [p0, p1, p2] = pick(pTimes);
const uniq = (xs) => [...new Set(xs)];
const evmTimes = uniq([e0, e1, e2, e2 + 3600, e0 - (e0 % day), e0 - day, far]);
const pChainTimes = uniq([p1, p0, p2, p0 - 7 * day, far]);
writeFileSync(
  join(out, "values.toml"),
  "\n# Written by st_values.mjs: numeric dictionaries.\n" +
    `[dictionaries.evm-times]\nvalues = ${JSON.stringify(evmTimes)}\n\n` +
    `[dictionaries.p-times]\nvalues = ${JSON.stringify(pChainTimes)}\n\n` +
    `[dictionaries.legacy-times]\nvalues = ${JSON.stringify(evmTimes.map(String))}\n\n` +
    `[dictionaries.legacy-p-times]\nvalues = ${JSON.stringify(pChainTimes.map(String))}\n`,
);

const spec = JSON.parse(readFileSync(openapiPath, "utf8"));
const network = spec.components.schemas.Network;
if (!network.enum.includes("local")) network.enum.push("local");
writeFileSync(join(out, "openapi-local.json"), JSON.stringify(spec));
