//! The P-Chain (platformvm) formats: codec type ids, stakeable locks, BLS signers, every tx type
//! that can appear in mainnet history, every block type (bare or proposervm-wrapped), ids, and
//! the staking reward calculator.
//!
//! The secp256k1fx structs of [`crate::fx`] are reused; the enums of [`fx_types`] give them their
//! P-Chain type ids. See `docs/pchain-formats.md` for a map.

pub mod block;
pub mod current_validators;
pub mod fx_types;
pub mod genesis;
pub mod reward;
pub mod reward_utxos;
pub mod signer;
pub mod stakeable;
pub mod tx;
pub mod txs;
pub mod type_id;
pub mod wrapped;

pub use block::{Block, CommonBlock, ParsedBlock};
pub use fx_types::{Auth, Credential, Owner, Signer, TransferableIn, TransferableOut};
pub use genesis::PGenesisState;
pub use reward_utxos::{RewardBranch, RewardUtxo, RewardUtxoError, RewardUtxoKind};
pub use signer::ProofOfPossession;
pub use stakeable::{LockIn, LockOut};
pub use tx::{ParsedTx, Tx, parse_nested_tx};
pub use txs::UnsignedTx;
pub use wrapped::{PChainBlock, ProposerDetails, WrappedBlockError, parse_block};

/// A P-Chain tx output.
pub type TransferableOutput = crate::components::TransferableOutput<TransferableOut>;
/// A P-Chain tx input.
pub type TransferableInput = crate::components::TransferableInput<TransferableIn>;
/// A P-Chain UTXO (as served by `platform.getUTXOs`).
pub type Utxo = crate::components::Utxo<TransferableOut>;
