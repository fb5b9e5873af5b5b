//! The last activity of a set of addresses on the X-Chain: the newest tx (by first acceptance
//! time, then tx id) that consumed or emitted a UTXO one of them owns, with that UTXO.

use snowline_query::{SortOrder, merge_sorted_fallible};
use snowline_store::{Direction, KeysetScans, ReadView, StoreError};
use snowline_types::avm::outputs::owners;
use snowline_types::{Id, ShortId};

use super::{PageError, XHistoryPages};
use crate::history::reader::XHistoryReader;
use crate::history::tables::{TX_CONSUMED, XhAllByTime, XhTxUtxos, XhTxs, XhTxsByAddress};

/// How many of the newest txs of the addresses are looked at for a UTXO of theirs.
const LOOKED_AT: usize = 1_000;

/// The last time a set of addresses' UTXOs moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastActivity {
    /// The tx.
    pub tx_id: Id,
    /// The height of the vertex or block that accepted it, when known.
    pub height: Option<u64>,
    /// Its first acceptance time.
    pub timestamp: u64,
    /// A UTXO of the addresses it consumed or emitted.
    pub utxo_id: Id,
    /// Whether it consumed that UTXO (else it emitted it).
    pub consumed: bool,
}

impl XHistoryPages {
    /// The last activity of `addrs`, if their UTXOs ever moved in a tx (genesis aside).
    pub fn last_activity(&self, addrs: &[ShortId]) -> Result<Option<LastActivity>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let scans = addrs
            .iter()
            .map(|a| v.positions::<XhTxsByAddress, _>(a, None, Direction::Reverse))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let newest = merge_sorted_fallible(scans, SortOrder::Desc, |p: &(u64, Id)| *p, LOOKED_AT)?;
        let reader = XHistoryReader::new(v);
        for (timestamp, tx_id) in newest {
            let links: Vec<(u8, Id)> = v
                .prefix_scan::<XhTxUtxos, Id>(&tx_id, None, Direction::Forward)?
                .map(|e| e.map(|((_, role, utxo), ())| (role, utxo)))
                .collect::<Result<_, StoreError>>()?;
            for (role, utxo_id) in links {
                let Some(u) = reader.utxo(&utxo_id)? else {
                    continue;
                };
                if !owners(&u.utxo.output).iter().any(|a| addrs.contains(a)) {
                    continue;
                }
                let height = v.get::<XhTxs>(&tx_id)?.and_then(|r| r.height);
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

impl XHistoryPages {
    /// Whether each of `addrs` ever owned an X-Chain UTXO (genesis allocations and atomic
    /// UTXOs exported to X included) or took part in an X-Chain tx.
    pub fn addresses_seen(&self, addrs: &[ShortId]) -> Result<Vec<bool>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        addrs
            .iter()
            .map(|a| {
                Ok(v.has_prefix::<XhAllByTime, ShortId>(a)?
                    || v.has_prefix::<XhTxsByAddress, ShortId>(a)?)
            })
            .collect()
    }
}
