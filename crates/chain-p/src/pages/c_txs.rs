//! The P-Chain's side of the C-Chain's atomic txs: those whose UTXOs, moved through the
//! P-Chain's shared memory, a set of addresses owns (`ph_c_txs_by_address`), as positions
//! `(C-Chain block time, tx id)` the Data API merges with the X-Chain history's side; and the
//! UTXOs such a tx moved, by id.

use snowline_query::params::{SortOrder, TimeRange};
use snowline_query::{FilteredPage, merged_page};
use snowline_store::{KeysetScans, ReadView};
use snowline_types::{Id, ShortId};

use super::utxos::PUtxo;
use super::{PChainPages, PageError, direction};
use crate::error::PChainError;
use crate::tables::{C_ATOMIC_EXPORT, C_ATOMIC_IMPORT, PhCTxsByAddress, PhUtxos};

/// A position in a listing of C-Chain atomic txs: `(block time, tx id)`.
pub type CTxPosition = (u64, Id);

impl PChainPages {
    /// One page of the positions of the C-Chain atomic txs in which `owners` own a UTXO moved
    /// through the P-Chain's shared memory (`imports` / `exports`: which kinds), whose block
    /// time is in `range`, in `sort` order, resuming strictly past `from`; a tx several owners
    /// take part in comes once.
    pub fn c_tx_positions(
        &self,
        owners: &[ShortId],
        (imports, exports): (bool, bool),
        range: TimeRange,
        sort: SortOrder,
        page_size: usize,
        from: Option<CTxPosition>,
    ) -> Result<FilteredPage<CTxPosition, ()>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let start = range.scan_start(sort, from);
        let kinds = [(imports, C_ATOMIC_IMPORT), (exports, C_ATOMIC_EXPORT)];
        let mut scans = Vec::new();
        for (_, kind) in kinds.iter().filter(|(on, _)| *on) {
            for a in owners {
                let scan =
                    v.positions::<PhCTxsByAddress, _>(&(*a, *kind), start, direction(sort))?;
                scans.push(scan.map(|p| p.map_err(PageError::from)));
            }
        }
        merged_page(
            scans,
            sort,
            page_size,
            |chunk: &[CTxPosition]| Ok::<_, PageError>(vec![(); chunk.len()]),
            |_, _| true,
            |(ts, _)| range.passed(sort, *ts),
        )
    }

    /// The UTXOs `ids` the P-Chain holds (those it does not are left out), in order.
    pub fn utxos_by_id(&self, ids: &[Id]) -> Result<Vec<PUtxo>, PageError> {
        let snapshot = self.store.snapshot();
        let rows = snapshot.multi_get::<PhUtxos>(ids)?;
        ids.iter()
            .zip(rows)
            .filter_map(|(id, row)| row.map(|r| (*id, r.0)))
            .map(|(id, row)| {
                let utxo = row
                    .utxo()
                    .map_err(|e| PChainError::Corrupt(format!("UTXO {id}: {e}")))?;
                Ok(PUtxo { id, utxo, row })
            })
            .collect()
    }
}
