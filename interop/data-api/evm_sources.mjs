// Prints (JSON) the `data-api serve --evm-config` sources file of the two recorded EVM chains
// (fixtures/evm/devnet/43112.jsonl and 99999.jsonl), each served by an `evm-replay` at the URL
// given. The C-Chain (43112) is in the registry of network `local`; the L1 (99999) is described
// here as the devnet's P-Chain created it: its blockchain id and name are those of the devnet's
// CreateChainTx whose genesis says `config.chainId` 99999 (evm.mjs' devnetEvmChain), so
// `{chainId}` may name it by either id. `genesisAccounts` are the accounts each recording reads
// at block 0 (the genesis alloc).
//
//   node evm_sources.mjs GENESIS_JSON C_CHAIN_URL L1_URL > evm.json

import { readFileSync } from "node:fs";
import { Recording, devnetEvmChain } from "./evm.mjs";

const [genesisPath, cUrl, l1Url] = process.argv.slice(2);
if (!genesisPath || !cUrl || !l1Url) {
  console.error("usage: node evm_sources.mjs GENESIS_JSON C_CHAIN_URL L1_URL");
  process.exit(2);
}
const genesis = JSON.parse(readFileSync(genesisPath, "utf8"));
const l1 = devnetEvmChain(genesisPath, 99999);
console.log(
  JSON.stringify({
    chains: [
      { chainId: 43112, rpcUrl: cUrl, genesisAccounts: new Recording(43112).genesisAccounts() },
      {
        chainId: 99999,
        rpcUrl: l1Url,
        network: genesis.networkName ?? "local",
        chainName: l1.chainName,
        blockchainId: l1.blockchainId,
        networkToken: { name: "Snow", symbol: "SNOW", decimals: 18 },
        genesisAccounts: new Recording(99999).genesisAccounts(),
      },
    ],
  }),
);
