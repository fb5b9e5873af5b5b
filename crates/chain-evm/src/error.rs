//! What can stop the EVM deriver.

use snowline_derive::DeriveError;
use snowline_store::StoreError;
use snowline_types::codec::CodecError;
use snowline_types::evm::B256;

use crate::source::SourceError;

/// Why deriving an EVM chain stopped.
#[derive(Debug, thiserror::Error)]
pub enum EvmError {
    /// Reading from the node failed.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// The node answered something unusable.
    #[error("{0}")]
    Answer(String),
    /// A block does not follow the last derived one: the node is on another chain (or the
    /// chain reorganised, which an Avalanche chain never does).
    #[error(
        "block {number} names parent {found}, but the indexed block {} is {expected}: the node \
         serves another chain than the one indexed",
        number.saturating_sub(1)
    )]
    ParentMismatch {
        /// The block that does not follow.
        number: u64,
        /// The hash of the last indexed block.
        expected: B256,
        /// The parent the block names.
        found: B256,
    },
    /// The node serves another chain than the one configured.
    #[error("{url} serves EVM chain {found}, not chain {expected} as configured")]
    WrongChain {
        /// The node.
        url: String,
        /// The chain configured.
        expected: u64,
        /// The chain the node serves.
        found: u64,
    },
    /// A block other than the next one was offered.
    #[error("block {found} offered where block {expected} is next")]
    OutOfOrder {
        /// The next block.
        expected: u64,
        /// The block offered.
        found: u64,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Writing a batch failed.
    #[error(transparent)]
    Batch(#[from] DeriveError),
    /// The configured genesis cannot be used.
    #[error("{0}")]
    Genesis(String),
    /// The index contradicts itself (a table names a row another does not hold).
    #[error("the EVM index is inconsistent: {0}")]
    Corrupt(String),
    /// A stored row does not decode.
    #[error(transparent)]
    Codec(#[from] CodecError),
}
