//! Balances in the X-Chain shape (`XChainBalances`): `unlocked` / `locked` per asset, and
//! `atomicMemoryUnlocked` / `atomicMemoryLocked` per (shared chain, asset). Current balances add
//! up the per-address sums kept by the deriver; balances as of a past time are recomputed from
//! the creation and consumption times of the addresses' UTXOs.

use std::collections::{BTreeMap, BTreeSet};

use snowline_store::{Direction, ReadView};
use snowline_types::{Id, ShortId};

use crate::error::XStateError;
use crate::history::reader::{HistoryUtxo, XHistoryReader};
use crate::history::rows::{AssetTotal, Holding, output_amount, output_owners};
use crate::history::tables::{XhAllByTime, XhBalances, XhMultiOwner};

/// Balances of a set of addresses, each UTXO counted once however many of them own it. A UTXO
/// is locked when its locktime is after the time asked. Mint rights and property outputs hold
/// no amount and are not counted; an NFT counts 1.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct XBalances {
    /// X-Chain UTXOs spendable at the time asked, by asset.
    pub unlocked: BTreeMap<Id, AssetTotal>,
    /// X-Chain UTXOs time-locked at the time asked, by asset.
    pub locked: BTreeMap<Id, AssetTotal>,
    /// Atomic UTXOs (exported from X and not imported yet, or exported to X and not imported
    /// yet), unlocked, by `(sharedWithChainId, asset)`.
    pub atomic_unlocked: BTreeMap<(Id, Id), AssetTotal>,
    /// Atomic UTXOs, time-locked, by `(sharedWithChainId, asset)`.
    pub atomic_locked: BTreeMap<(Id, Id), AssetTotal>,
}

impl XBalances {
    fn bucket(&mut self, holding: Holding, chain: Id, asset: Id, locked: bool) -> &mut AssetTotal {
        match (holding, locked) {
            (Holding::Native, false) => self.unlocked.entry(asset).or_default(),
            (Holding::Native, true) => self.locked.entry(asset).or_default(),
            (_, false) => self.atomic_unlocked.entry((chain, asset)).or_default(),
            (_, true) => self.atomic_locked.entry((chain, asset)).or_default(),
        }
    }

    fn add_utxo(&mut self, u: &HistoryUtxo, time: u64) {
        let Some(amount) = output_amount(&u.utxo.output) else {
            return;
        };
        let locked = output_owners(&u.utxo.output).locktime > time;
        let chain = u.record.shared_with().unwrap_or(Id::EMPTY);
        self.bucket(u.record.holding, chain, u.utxo.asset_id, locked)
            .add(amount);
    }
}

impl<V: ReadView> XHistoryReader<'_, V> {
    /// Balances of `addrs`: as of `at` (Unix s, `blockTimestamp`) when given — UTXOs created at
    /// or before `at` and not consumed by then, locked when their locktime is after `at` — else
    /// current, locked when the locktime is after `now`.
    pub fn balances(
        &self,
        addrs: &[ShortId],
        at: Option<u64>,
        now: u64,
    ) -> Result<XBalances, XStateError> {
        let addrs: BTreeSet<ShortId> = addrs.iter().copied().collect();
        match at {
            Some(t) => self.balances_as_of(&addrs, t),
            None => self.current_balances(&addrs, now),
        }
    }

    /// Current balances: a prefix scan of each address's sum rows (one row per asset, holding,
    /// shared chain and locktime) plus its few multi-owner UTXOs, deduplicated.
    fn current_balances(
        &self,
        addrs: &BTreeSet<ShortId>,
        now: u64,
    ) -> Result<XBalances, XStateError> {
        let mut out = XBalances::default();
        let mut multi = BTreeSet::new();
        for addr in addrs {
            for e in self
                .view
                .prefix_scan::<XhBalances, ShortId>(addr, None, Direction::Forward)?
            {
                let ((_, asset, code, chain, locktime), total) = e?;
                let holding = Holding::from_code(code).ok_or_else(|| {
                    XStateError::Corrupt(format!("balance row with unknown holding code {code}"))
                })?;
                out.bucket(holding, chain, asset, locktime > now)
                    .merge(total);
            }
            for e in
                self.view
                    .prefix_scan::<XhMultiOwner, ShortId>(addr, None, Direction::Forward)?
            {
                multi.insert(e?.0.1);
            }
        }
        for u in self.fetch(&multi.into_iter().collect::<Vec<_>>())? {
            out.add_utxo(&u, now);
        }
        Ok(out)
    }

    /// Balances as of `t`: scans each address's all-UTXO time order up to `t` and keeps those
    /// not consumed by `t`. Cost: every UTXO the addresses received up to `t`.
    pub fn balances_as_of(
        &self,
        addrs: &BTreeSet<ShortId>,
        t: u64,
    ) -> Result<XBalances, XStateError> {
        let mut ids = BTreeSet::new();
        for addr in addrs {
            let range = (*addr, 0u64, Id::EMPTY)..=(*addr, t, Id([0xff; 32]));
            for e in self
                .view
                .scan::<XhAllByTime, _>(range, Direction::Forward)?
            {
                ids.insert(e?.0.2);
            }
        }
        let mut out = XBalances::default();
        for u in self.fetch(&ids.into_iter().collect::<Vec<_>>())? {
            let live = u.record.created.timestamp <= t
                && u.record.consumed.is_none_or(|c| c.timestamp > t);
            if live {
                out.add_utxo(&u, t);
            }
        }
        Ok(out)
    }

    fn fetch(&self, ids: &[Id]) -> Result<Vec<HistoryUtxo>, XStateError> {
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(1024) {
            for (u, id) in self.utxos(chunk)?.into_iter().zip(chunk) {
                out.push(u.ok_or_else(|| {
                    XStateError::Corrupt(format!(
                        "address index names UTXO {id}, which is not stored"
                    ))
                })?);
            }
        }
        Ok(out)
    }
}
