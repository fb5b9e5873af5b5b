// Writes the dictionaries of schemathesis' EVM pass (schemathesis.sh, schemathesis-evm.toml) into
// OUT_DIR, read from the two recordings by evm.mjs (fixtures/evm/devnet/43112.jsonl, 99999.jsonl)
// and the devnet's P-Chain (the L1's blockchain id), so that generated requests name the chains,
// blocks, tokens and addresses that hold data:
//
//   chains.dict      43112, 99999 and their blockchain ids          path chainId
//   blocks.dict      every block number and hash of both chains     path blockId
//   heights.dict     every block number, as text                    query blockNumber (a string)
//   tokens.dict      the token contracts that moved tokens          transfers' path address
//   internals.dict   addresses with internal transactions           listInternals' path address
//   holders.dict     addresses holding ERC-721 tokens now           listErc721's path address
//   nfts.dict        the ERC-721 contracts                          query contractAddress
//   nft-contracts.dict  the ERC-721 and ERC-1155 contracts          reindexNft's path address
//   nft-ids.dict     the ids those contracts moved                  reindexNft's path tokenId
//   accounts.dict    addresses with a recorded eth_getBalance       getNative's path address
//   deployers.dict   deployers (EOAs and the factory)               deployments' path address
//   contracts.dict   contracts created                              getDeployment's path address
//   parties.dict     every address a tx touched                     the history's path address
//   txs.dict         every tx hash                                  getTransaction's path txHash
//   values.toml      `evm-starts` and `evm-ends`, block numbers as numbers, the first half of the
//                    heights and the second (startBlock/endBlock are `number` parameters, which
//                    take a dictionary file's entries only in negative cases)
//
//   node st_evm_values.mjs GENESIS_JSON OUT_DIR

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Recording, checksum, devnetEvmChain } from "./evm.mjs";

const [genesisPath, out] = process.argv.slice(2);
if (!genesisPath || !out) {
  console.error("usage: node st_evm_values.mjs GENESIS_JSON OUT_DIR");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const genesis = JSON.parse(readFileSync(genesisPath, "utf8"));
const recs = [new Recording(43112), new Recording(99999)];
const uniq = (xs) => [...new Set(xs)];
/** Checksummed, and every fifth also lowercase (any case is accepted). */
const addrs = (xs) => uniq(xs.map((a) => a.toLowerCase())).flatMap((a, i) => (i % 5 === 0 ? [checksum(a), a] : [checksum(a)]));
const each = (f) => recs.flatMap(f);
const write = (name, entries) =>
  writeFileSync(join(out, name), entries.map((e) => `"${e.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"\n`).join(""));

const tip = Math.max(...recs.map((r) => r.tip));
const heights = [...Array(tip + 1).keys()];
const owners = new Map();
for (const r of recs) {
  for (const t of r.transfers().filter((t) => t.standard === 721)) {
    const k = `${r.chainId} ${t.token} ${t.id}`;
    if (t.to === "0x0000000000000000000000000000000000000000") owners.delete(k);
    else owners.set(k, t.to);
  }
}
write("chains.dict", ["43112", "99999", genesis.cChainID, devnetEvmChain(genesisPath, 99999).blockchainId]);
write("blocks.dict", [...heights.map(String), ...each((r) => r.blocks.map((b) => b.block.hash))]);
write("heights.dict", heights.map(String));
write("tokens.dict", addrs(each((r) => r.transfers().map((t) => t.token))));
write("internals.dict", addrs(each((r) => r.frames().flatMap((f) => [f.from, f.to]).filter(Boolean))));
write("holders.dict", addrs([...owners.values()]));
write("nfts.dict", addrs(each((r) => r.transfers().filter((t) => t.standard === 721).map((t) => t.token))));
write("nft-contracts.dict", addrs(each((r) => r.transfers().filter((t) => t.standard !== 20).map((t) => t.token))));
write("nft-ids.dict", uniq(each((r) => r.transfers().filter((t) => t.standard !== 20).map((t) => String(t.id)))));
write("accounts.dict", addrs(each((r) => r.balanceAddresses())));
write("deployers.dict", addrs(each((r) => r.creations().flatMap((c) => [c.deployer, c.factory]).filter(Boolean))));
write("contracts.dict", addrs(each((r) => r.creations().map((c) => c.address))));
write(
  "parties.dict",
  addrs(
    each((r) => [
      ...r.blocks.flatMap((b) => b.block.transactions.flatMap((t) => [t.from, t.to].filter(Boolean))),
      ...r.transfers().flatMap((t) => [t.from, t.to]),
      ...r.frames().flatMap((f) => [f.from, f.to]).filter(Boolean),
    ]),
  ),
);
write("txs.dict", each((r) => r.blocks.flatMap((b) => b.block.transactions.map((t) => t.hash))));
writeFileSync(
  join(out, "values.toml"),
  `\n# Written by st_evm_values.mjs: numeric dictionaries.\n` +
    `[dictionaries.evm-starts]\nvalues = ${JSON.stringify(heights.slice(0, Math.ceil(tip / 2)))}\n\n` +
    `[dictionaries.evm-ends]\nvalues = ${JSON.stringify([...heights.slice(Math.ceil(tip / 2)), tip + 1])}\n`,
);
