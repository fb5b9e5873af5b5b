//! [`PContainer`]: an accepted `P/block` container decoded once (bare or proposervm-wrapped,
//! every tx id computed) before it reaches the writer: the [`Prepare`] of [`PChain`](crate::PChain).

use snowline_node_index::IndexError;
use snowline_node_index::derive::Prepare;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::platformvm::{PChainBlock, parse_block};

use crate::error::PChainError;

/// The P-Chain's index path.
pub const P_PATHS: [IndexPath; 1] = [IndexPath::PBlock];

/// An accepted P-Chain block with its proposervm wrapper, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PContainer(pub PChainBlock);

impl PContainer {
    /// Decodes `record` (a `P/block` container).
    pub fn parse(record: &ContainerRecord) -> Result<Self, PChainError> {
        parse_block(&record.bytes)
            .map(PContainer)
            .map_err(|e| PChainError::Decode {
                id: record.id,
                reason: e.to_string(),
            })
    }
}

impl Prepare for PContainer {
    fn prepare(record: &ContainerRecord) -> Result<Self, IndexError> {
        Self::parse(record).map_err(IndexError::from)
    }
}
