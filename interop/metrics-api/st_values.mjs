// Writes what schemathesis' passes against metrics-api (schemathesis.sh) need into OUT_DIR, read
// from the fixtures (the devnet's P-Chain; the EVM recordings SNOWLINE_EVM_RECORDINGS names, as
// evm.mjs reads them), so that generated requests name the chains, subnets, blockchains and
// times that hold data:
//
//   chains.dict        43112, 99999, their blockchain ids, and the aggregates total, testnet
//                      (path chainId)
//   subnets.dict       the devnet's subnets and the primary network (query subnetId)
//   blockchains.dict   the two EVM chains' blockchain ids, cb58 and 0x hex (ICM src/dest ids)
//   values.toml        `times`: UNIX times at and around the EVM recordings' blocks and the
//                      P-Chain's history (startTimestamp, endTimestamp; numeric dictionaries
//                      must be TOML, schemathesis takes a file's entries as strings), and
//                      `legacy-times`, the same as strings (the legacy form's from/to are strings)
//   openapi-local.json the metrics OpenAPI with `local` added to the `Network` enum (the only
//                      edit): the devnet's network, which the published enum lacks
//
//   node st_values.mjs GENESIS_JSON OPENAPI OUT_DIR

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Recording, devnetEvmChain } from "../data-api/evm.mjs";
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

dict("chains.dict", ["43112", "99999", cChain, l1.blockchainId, "total", "testnet"]);
const containers = readFileSync(join(genesisPath, "..", "containers.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l))
  .filter((c) => c.path === "P/block");
const p = replay(genesis.pGenesis, containers, { avaxAssetId: genesis.avaxAssetID });
dict("subnets.dict", [PRIMARY, ...p.subnets.keys()]);
dict("blockchains.dict", [cChain, l1.blockchainId, hex(cChain), hex(l1.blockchainId)]);

// EVM block times (both recordings), P-Chain block times; a few around them and one far after.
const evm = [43112, 99999].flatMap((c) => new Recording(c).blocks.map((b) => Number(BigInt(b.block.timestamp))));
const pTimes = p.blocks.map((b) => Number(b.inner.time));
const pick = (xs) => { const s = [...xs].sort((a, b) => a - b); return [s[0], s[s.length >> 1], s[s.length - 1]]; };
const day = 86_400;
const e = pick(evm);
const times = [...new Set([...e, e[0] - day, e[0] - (e[0] % day), e[2] + 3600, ...pick(pTimes), pick(pTimes)[0] - 7 * day, 4102444800])].sort((a, b) => a - b);
writeFileSync(
  join(out, "values.toml"),
  "\n# Written by st_values.mjs: numeric dictionaries.\n" +
    `[dictionaries.times]\nvalues = ${JSON.stringify(times)}\n\n` +
    `[dictionaries.legacy-times]\nvalues = ${JSON.stringify(times.map(String))}\n`,
);

const spec = JSON.parse(readFileSync(openapiPath, "utf8"));
const network = spec.components.schemas.Network;
if (!network.enum.includes("local")) network.enum.push("local");
writeFileSync(join(out, "openapi-local.json"), JSON.stringify(spec));
