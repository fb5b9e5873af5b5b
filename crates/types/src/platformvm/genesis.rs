//! What the P-Chain holds before its first accepted block, as every indexer of it starts
//! (avalanchego `vms/platformvm/genesis/genesis.go`: UTXOs, validators, chains, time, supply).

use super::{ParsedTx, Utxo};
use crate::Id;

/// The P-Chain's state at genesis, before block 1.
#[derive(Debug, Clone, Default)]
pub struct PGenesisState {
    /// Genesis UTXOs in genesis order (stakeable-locked ones as `LockOut` outputs).
    pub utxos: Vec<Utxo>,
    /// The genesis validators (`AddValidatorTx` or `AddPermissionlessValidatorTx`), current
    /// from `timestamp`; their stake is locked until each ends and is rewarded.
    pub validators: Vec<ParsedTx>,
    /// The chains created at genesis (`CreateChainTx`: the X- and C-Chain).
    pub chains: Vec<ParsedTx>,
    /// Genesis time, Unix seconds (the chain time before block 1).
    pub timestamp: u64,
    /// nAVAX in existence at genesis: the reward calculator's first `currentSupply`.
    pub initial_supply: u64,
    /// UTXOs other chains exported to the P-Chain before its history starts (its shared
    /// memory at genesis): `(source chain, utxo)`.
    pub atomic_utxos: Vec<(Id, Utxo)>,
}
