//! The last activity of a set of addresses on the P-Chain: the newest tx (by height, then tx
//! id) that consumed or emitted a UTXO one of them owns, with that UTXO.

use snowline_query::{SortOrder, merge_sorted_fallible};
use snowline_store::{Direction, KeysetScans, Linear, ReadView, StoreError};
use snowline_types::{Id, ShortId};

use super::{PChainPages, PageError, Position};
use crate::tables::{PhAllByTime, PhTxUtxos, PhTxs, PhTxsByAddress, PhUtxos, TX_CONSUMED};

/// How many of the newest txs of the addresses are looked at for a UTXO of theirs (a tx may
/// name an address as an owner without moving a UTXO of it).
const LOOKED_AT: usize = 1_000;

/// The last time a set of addresses' UTXOs moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastActivity {
    /// The tx.
    pub tx_id: Id,
    /// Its block's height.
    pub height: u64,
    /// Its block's time.
    pub timestamp: u64,
    /// A UTXO of the addresses it consumed or emitted.
    pub utxo_id: Id,
    /// Whether it consumed that UTXO (else it emitted it).
    pub consumed: bool,
}

impl PChainPages {
    /// The last activity of `addrs`, if their UTXOs ever moved.
    pub fn last_activity(&self, addrs: &[ShortId]) -> Result<Option<LastActivity>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let scans = addrs
            .iter()
            .map(|a| v.positions::<PhTxsByAddress, _>(a, None, Direction::Reverse))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let newest = merge_sorted_fallible(scans, SortOrder::Desc, Position::clone, LOOKED_AT)?;
        for (height, tx_id) in newest {
            let links: Vec<(u8, Id)> = v
                .prefix_scan::<PhTxUtxos, Id>(&tx_id, None, Direction::Forward)?
                .map(|e| e.map(|((_, role, utxo), ())| (role, utxo)))
                .collect::<Result<_, StoreError>>()?;
            for (role, utxo_id) in links {
                let Some(Linear(row)) = v.get::<PhUtxos>(&utxo_id)? else {
                    continue;
                };
                let Ok(utxo) = row.utxo() else { continue };
                if !utxo.output.owners().addrs.iter().any(|a| addrs.contains(a)) {
                    continue;
                }
                let timestamp = v
                    .get::<PhTxs>(&tx_id)?
                    .map_or(0, |Linear(r)| r.event.timestamp);
                return Ok(Some(LastActivity {
                    tx_id,
                    height,
                    timestamp,
                    utxo_id,
                    consumed: role == TX_CONSUMED,
                }));
            }
        }
        Ok(None)
    }
}

impl PChainPages {
    /// Whether each of `addrs` ever owned a P-Chain UTXO or took part in a P-Chain tx.
    pub fn addresses_seen(&self, addrs: &[ShortId]) -> Result<Vec<bool>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        addrs
            .iter()
            .map(|a| {
                Ok(v.has_prefix::<PhAllByTime, ShortId>(a)?
                    || v.has_prefix::<PhTxsByAddress, ShortId>(a)?)
            })
            .collect()
    }
}
