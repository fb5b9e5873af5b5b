//! What the X-Chain holds before its first accepted container, as every indexer of it starts.

use super::{ParsedTx, StandardBlock, Utxo};
use crate::Id;

/// What the X-Chain starts with before its first accepted container.
#[derive(Debug, Clone, Default)]
pub struct XGenesisState {
    /// Genesis txs (the AVAX `CreateAssetTx` and any other genesis asset), applied in order;
    /// each is stored as an accepted tx and its outputs become UTXOs.
    pub txs: Vec<ParsedTx>,
    /// Asset aliases (`AVAX` → the AVAX asset id); the first alias of an asset is its primary.
    pub aliases: Vec<(String, Id)>,
    /// The linear chain's genesis block (height 0), when known.
    pub linear_genesis: Option<StandardBlock>,
    /// UTXOs other chains exported to the X-Chain (its shared memory at start):
    /// `(source chain, utxo)`.
    pub atomic_utxos: Vec<(Id, Utxo)>,
}
