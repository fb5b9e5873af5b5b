//! Errors of the P-Chain derivation and reads.

use snowline_derive::DeriveError;
use snowline_store::StoreError;
use snowline_types::Id;

/// Why a P-Chain block could not be applied, or a read failed.
#[derive(Debug, thiserror::Error)]
pub enum PChainError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The batch protocol failed (writing the genesis batch).
    #[error(transparent)]
    Batch(#[from] DeriveError),
    /// A container is not a P-Chain block (bare or proposervm-wrapped).
    #[error("P-Chain container {id} does not decode: {reason}")]
    Decode {
        /// The container id.
        id: Id,
        /// Why.
        reason: String,
    },
    /// A block contradicts the state derived so far (a staker rewarded twice, an option block
    /// without a proposal before it): the source is not the chain's accepted history.
    #[error("P-Chain block at height {height}: {reason}")]
    Inconsistent {
        /// The block height.
        height: u64,
        /// What contradicts.
        reason: String,
    },
    /// Stored rows do not decode or contradict each other (a corrupt or foreign store).
    #[error("corrupt P-Chain state: {0}")]
    Corrupt(String),
}

impl snowline_store::ReadFailure for PChainError {}

impl From<PChainError> for DeriveError {
    fn from(e: PChainError) -> Self {
        match e {
            PChainError::Store(s) => DeriveError::Store(s),
            PChainError::Batch(e) => e,
            other => DeriveError::Derive(other.to_string()),
        }
    }
}
