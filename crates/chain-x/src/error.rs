//! Errors of the X-Chain state derivation.

use snowline_derive::DeriveError;
use snowline_store::StoreError;
use snowline_types::Id;
use snowline_types::codec::CodecError;

/// Why a container could not be applied to the X-Chain state, or a read failed.
#[derive(Debug, thiserror::Error)]
pub enum XStateError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The batch protocol failed (writing the genesis batch).
    #[error(transparent)]
    Batch(#[from] DeriveError),
    /// A container (tx, vertex or block) does not decode.
    #[error("container {id} does not decode: {source}")]
    Decode {
        /// The container id.
        id: Id,
        /// The codec error.
        source: CodecError,
    },
    /// A `P/block` container is not a P-Chain block (bare or proposervm-wrapped).
    #[error("P-Chain container {id} does not decode: {reason}")]
    DecodePBlock {
        /// The container id.
        id: Id,
        /// Why.
        reason: String,
    },
    /// A `C/block` container is not a coreth block (bare or proposervm-wrapped) with atomic
    /// txs in its extra data.
    #[error("C-Chain container {id} does not decode: {reason}")]
    DecodeCBlock {
        /// The container id.
        id: Id,
        /// Why.
        reason: String,
    },
    /// A stored UTXO does not decode (a corrupt or foreign store).
    #[error("stored UTXO {id} does not decode: {source}")]
    StoredUtxo {
        /// The UTXO id.
        id: Id,
        /// The codec error.
        source: CodecError,
    },
    /// Stored rows contradict each other (a corrupt or foreign store).
    #[error("corrupt X-Chain state: {0}")]
    Corrupt(String),
    /// The sequence counter overflowed (more than 2^64 UTXOs).
    #[error("UTXO sequence number overflow")]
    SeqOverflow,
}

impl snowline_store::ReadFailure for XStateError {}

impl From<XStateError> for DeriveError {
    fn from(e: XStateError) -> Self {
        match e {
            XStateError::Store(s) => DeriveError::Store(s),
            XStateError::Batch(e) => e,
            other => DeriveError::Derive(other.to_string()),
        }
    }
}
