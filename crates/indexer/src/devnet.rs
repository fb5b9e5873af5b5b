//! The devnet's X-Chain genesis as an [`XGenesisState`] (feature `devnet`): one conversion for
//! every binary and test that indexes a devnet.

use snowline_devnet::Devnet;

use crate::XGenesisState;

impl XGenesisState {
    /// What the X-Chain of `devnet` starts with: its AVAX `CreateAssetTx` (alias `AVAX`), the
    /// linear chain's genesis block, and the atomic UTXOs standing in for what the P- and
    /// C-Chain exported to X.
    pub fn of_devnet(devnet: &Devnet) -> XGenesisState {
        let g = devnet.genesis();
        XGenesisState {
            txs: vec![g.avax_tx.clone()],
            aliases: vec![("AVAX".to_owned(), g.avax_asset_id)],
            linear_genesis: devnet.linear_genesis().cloned(),
            atomic_utxos: devnet
                .atomic_utxos()
                .iter()
                .map(|a| (a.source_chain, a.utxo.clone()))
                .collect(),
        }
    }
}
