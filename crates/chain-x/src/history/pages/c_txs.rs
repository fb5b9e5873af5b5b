//! The C-Chain's atomic txs (`ImportTx`, `ExportTx`) as the Data API lists them, indexed by the
//! X-Chain history (`tx_index.rs`), which reads every `C/block`: each tx's block (`xh_c_txs`), the chain's txs
//! by block time (`xh_c_txs_by_time`), and the addresses taking part (`xh_c_txs_by_address`):
//! the EVM addresses an import credits or an export debits, and the owners of the UTXOs it
//! moves through the X-Chain's shared memory, written when the UTXO's export or import is
//! derived, in either arrival order. The P-Chain keeps the owners on its side
//! (`ph_c_txs_by_address`); a listing by address merges both.
//!
//! A tx's body is read back alone from where it lies in its `C/block` container, its block's
//! number, hash and time from its row; the UTXOs it moves through
//! the X-Chain's shared memory come with it, those through the P-Chain's are the P-Chain's.

use std::collections::BTreeSet;

use snowline_node_index::IndexReader;
use snowline_query::params::{SortOrder, TimeRange};
use snowline_query::{FilteredPage, merged_page};
use snowline_store::{Direction, KeysetScans, ReadView};
use snowline_types::atomic::c_exported;
use snowline_types::container::IndexPath;
use snowline_types::coreth::{self, AtomicBlock};
use snowline_types::{Id, ShortId};

use super::{Assets, PageError, XHistoryPages, assets};
use crate::error::XStateError;
use crate::history::reader::{HistoryUtxo, XHistoryReader};
use crate::history::rows::CTxRow;
use crate::history::tables::{
    C_EVM_EXPORT, C_EVM_IMPORT, C_EXPORT, C_IMPORT, C_OWNER_EXPORT, C_OWNER_IMPORT, XhCTxs,
    XhCTxsByAddress, XhCTxsByTime,
};

/// A position in a listing of C-Chain atomic txs: `(block time, tx id)`.
pub type CTxPosition = (u64, Id);

/// What a listing of the C-Chain's atomic txs asks of the X-Chain history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CTxQuery {
    /// Owners of UTXOs the txs move through the X-Chain's shared memory.
    pub owners: Vec<ShortId>,
    /// EVM addresses the txs credit or debit.
    pub evm: Vec<ShortId>,
    /// Every tx of the chain (`owners` and `evm` ignored).
    pub all: bool,
    /// Only these Data API types (`ImportTx`, `ExportTx`; empty: both).
    pub types: BTreeSet<String>,
    /// Only txs whose block time is in the range.
    pub range: TimeRange,
    /// Txs per page.
    pub page_size: usize,
    /// By block time, then tx id.
    pub sort: SortOrder,
}

/// The kinds of C-Chain atomic txs the Data API types `types` name (empty: both).
pub fn c_kinds(types: &BTreeSet<String>) -> Vec<u8> {
    [("ImportTx", C_IMPORT), ("ExportTx", C_EXPORT)]
        .into_iter()
        .filter(|(name, _)| types.is_empty() || types.contains(*name))
        .map(|(_, kind)| kind)
        .collect()
}

/// One C-Chain atomic tx with what its Data API record shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CTx {
    /// The tx id.
    pub id: Id,
    /// The signed tx.
    pub tx: coreth::Tx,
    /// Its block's number.
    pub block_number: u64,
    /// Its block's hash (keccak-256 of the header).
    pub block_hash: [u8; 32],
    /// Its block's time, Unix seconds.
    pub timestamp: u64,
    /// The UTXOs it moved that the X-Chain history holds (an import's from the X-Chain, an
    /// export's to it), by UTXO id; an import derived before its export lacks them until then.
    pub x_utxos: Vec<HistoryUtxo>,
    /// The assets the X-Chain history describes among those the tx moves.
    pub assets: Assets,
}

impl CTx {
    /// The ids of the UTXOs the tx moves: an import's inputs, an export's outputs.
    pub fn utxo_ids(&self) -> Vec<Id> {
        match &self.tx.unsigned {
            coreth::UnsignedTx::Import(i) => i.imported_utxo_ids().collect(),
            coreth::UnsignedTx::Export(e) => {
                c_exported(e, self.id).iter().map(|u| u.id()).collect()
            }
        }
    }
}

impl XHistoryPages {
    /// One page of the positions of the C-Chain's atomic txs `q` asks for, resuming strictly
    /// past `from`: the chain's, or those whose EVM addresses or X-side owners `q` names (a tx
    /// several of them take part in once).
    pub fn c_tx_positions(
        &self,
        q: &CTxQuery,
        from: Option<CTxPosition>,
    ) -> Result<FilteredPage<CTxPosition, ()>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let dir = match q.sort {
            SortOrder::Asc => Direction::Forward,
            SortOrder::Desc => Direction::Reverse,
        };
        let start = q.range.scan_start(q.sort, from);
        let kinds = c_kinds(&q.types);
        type Scan<'s> = Box<dyn Iterator<Item = Result<CTxPosition, PageError>> + 's>;
        let mut scans: Vec<Scan<'_>> = Vec::new();
        for kind in &kinds {
            if q.all {
                let scan = v.positions::<XhCTxsByTime, _>(kind, start, dir)?;
                scans.push(Box::new(scan.map(|p| p.map_err(PageError::from))));
                continue;
            }
            let (owner_role, evm_role) = match *kind {
                C_IMPORT => (C_OWNER_IMPORT, C_EVM_IMPORT),
                _ => (C_OWNER_EXPORT, C_EVM_EXPORT),
            };
            let keys = q
                .owners
                .iter()
                .map(|a| (*a, owner_role))
                .chain(q.evm.iter().map(|a| (*a, evm_role)));
            for key in keys {
                let scan = v.positions::<XhCTxsByAddress, _>(&key, start, dir)?;
                scans.push(Box::new(scan.map(|p| p.map_err(PageError::from))));
            }
        }
        merged_page(
            scans,
            q.sort,
            q.page_size,
            |chunk: &[CTxPosition]| Ok::<_, PageError>(vec![(); chunk.len()]),
            |_, _| true,
            |(ts, _)| q.range.passed(q.sort, *ts),
        )
    }

    /// The accepted C-Chain atomic tx `id` with its details; `None` for an id the index has no
    /// atomic tx of.
    pub fn c_tx(&self, id: &Id) -> Result<Option<CTx>, PageError> {
        let snapshot = self.store.snapshot();
        let Some(row) = snapshot.get::<XhCTxs>(id)? else {
            return Ok(None);
        };
        Ok(Some(c_tx_at(&snapshot, id, &row)?))
    }

    /// The listed C-Chain atomic txs `ids`, in order, read from one snapshot.
    pub fn c_txs(&self, ids: &[Id]) -> Result<Vec<CTx>, PageError> {
        let snapshot = self.store.snapshot();
        let rows = snapshot.multi_get::<XhCTxs>(ids)?;
        ids.iter()
            .zip(rows)
            .map(|(id, row)| {
                let row =
                    row.ok_or_else(|| corrupt(format!("C-Chain tx {id} is listed, not stored")))?;
                c_tx_at(&snapshot, id, &row)
            })
            .collect()
    }
}

fn corrupt(what: String) -> PageError {
    PageError::Read(XStateError::Corrupt(what))
}

/// Tx `id` read back from its `C/block` container: alone, from the bytes at the row's place
/// (a row without one: from the block parsed whole).
fn c_tx_at(v: &impl ReadView, id: &Id, row: &CTxRow) -> Result<CTx, PageError> {
    let container = &row.container;
    let c = IndexReader::new(v, IndexPath::CBlock)
        .by_id(container)
        .map_err(|e| corrupt(format!("C/block container {container}: {e}")))?
        .ok_or_else(|| corrupt(format!("C-Chain tx {id}: block {container} is not indexed")))?;
    let tx = match row.place {
        Some(place) => {
            let body = place
                .slice(&c.bytes)
                .ok_or_else(|| corrupt(format!("C-Chain tx {id} lies past its block's bytes")))?;
            coreth::Tx::parse_nested(body).map_err(|e| corrupt(format!("C-Chain tx {id}: {e}")))?
        }
        None => {
            AtomicBlock::from_container_any_network(&c.bytes)
                .map_err(|e| corrupt(format!("C/block container {container}: {e}")))?
                .txs
                .into_iter()
                .find(|t| t.id == *id)
                .ok_or_else(|| corrupt(format!("C-Chain tx {id} is not in block {container}")))?
                .tx
        }
    };
    let mut record = CTx {
        id: *id,
        tx,
        block_number: row.number,
        block_hash: row.hash,
        timestamp: row.timestamp,
        x_utxos: Vec::new(),
        assets: Assets::default(),
    };
    let ids = record.utxo_ids();
    record.x_utxos = XHistoryReader::new(v)
        .utxos(&ids)?
        .into_iter()
        .flatten()
        .collect();
    let asset_ids: Vec<Id> = match &record.tx.unsigned {
        coreth::UnsignedTx::Import(i) => i
            .imported_inputs
            .iter()
            .map(|t| t.asset_id)
            .chain(i.outs.iter().map(|o| o.asset_id))
            .collect(),
        coreth::UnsignedTx::Export(e) => e
            .ins
            .iter()
            .map(|t| t.asset_id)
            .chain(e.exported_outputs.iter().map(|o| o.asset_id))
            .collect(),
    };
    record.assets = assets(v, asset_ids.into_iter())?;
    Ok(record)
}
