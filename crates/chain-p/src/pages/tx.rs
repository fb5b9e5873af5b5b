//! One accepted P-Chain tx by id, read back from its block's container in the index: where it
//! is (its block's height and time) and its unsigned body, for the answers that need a tx's
//! contents (the L1 Warp messages a tx carries or implies).

use snowline_node_index::IndexReader;
use snowline_store::{Linear, ReadView};
use snowline_types::Id;
use snowline_types::container::IndexPath;
use snowline_types::platformvm::{UnsignedTx, parse_block};

use super::{PChainPages, PageError};
use crate::PChainError;
use crate::rows::Event;
use crate::tables::{PhBlocks, PhTxs};

impl PChainPages {
    /// The accepted tx `id` (not genesis txs: they are in no block) with its block's event.
    pub fn tx(&self, id: &Id) -> Result<Option<(Event, UnsignedTx)>, PageError> {
        let snapshot = self.store.snapshot();
        let Some(Linear(row)) = snapshot.get::<PhTxs>(id)? else {
            return Ok(None);
        };
        let Some(Linear(block)) = snapshot.get::<PhBlocks>(&row.event.height)? else {
            return Ok(None);
        };
        let corrupt = |what: String| PageError::Read(PChainError::Corrupt(what));
        let container = IndexReader::new(&snapshot, IndexPath::PBlock)
            .by_id(&block.id)
            .map_err(|e| corrupt(format!("P-Chain block {}: {e}", block.id)))?
            .ok_or_else(|| corrupt(format!("P-Chain block {} is not in the index", block.id)))?;
        let parsed = parse_block(&container.bytes)
            .map_err(|e| corrupt(format!("P-Chain block {}: {e}", block.id)))?;
        let tx = parsed
            .block
            .block
            .txs()
            .into_iter()
            .zip(&parsed.block.tx_ids)
            .find(|(_, tx_id)| *tx_id == id)
            .map(|(tx, _)| tx.unsigned.clone());
        Ok(tx.map(|t| (row.event, t)))
    }
}
