//! One block, by height or hash.

use snowline_store::{Linear, ReadView};
use snowline_types::evm::B256;

use super::{EvmPages, EvmReadError};
use crate::rows::BlockRow;
use crate::tables::{EvBlockHashes, EvBlocks};

/// A block as a request names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockId {
    /// By height.
    Number(u64),
    /// By hash.
    Hash(B256),
}

impl EvmPages {
    /// Block `id` of `chain` with its height, if indexed.
    pub fn block(&self, chain: u64, id: BlockId) -> Result<Option<(u64, BlockRow)>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let number = match id {
            BlockId::Number(n) => n,
            BlockId::Hash(h) => match snapshot.get::<EvBlockHashes>(&(chain, h.0))? {
                Some(n) => n,
                None => return Ok(None),
            },
        };
        Ok(snapshot
            .get::<EvBlocks>(&(chain, number))?
            .map(|Linear(b)| (number, b)))
    }
}
