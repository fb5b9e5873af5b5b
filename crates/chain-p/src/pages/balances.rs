//! Balances in the P-Chain shape (`PChainBalance`): each unspent UTXO of the addresses counts
//! in one bucket, by whether it is staked (and whether its staking has begun), time-locked, or
//! stakeable-locked at the time asked, or in atomic memory between the P-Chain and another chain.
//! Current balances read per-owner sums (`ph_balances`, and `ph_stake_sums` for stakes, rewards
//! and stakeable-locked outputs) and only the UTXOs of several owners one by one.

use std::collections::{BTreeMap, BTreeSet};

pub use snowline_derive::AssetTotal;
use snowline_store::{Direction, ReadView};
use snowline_types::platformvm::Utxo;
use snowline_types::{Id, ShortId};

use super::{PChainPages, PageError, expect_rows};
use crate::error::PChainError;
use crate::rows::{Holding, UtxoRow};
use crate::tables::{
    META_CHAIN_TIME, PhAllByTime, PhBalances, PhMeta, PhStakeSums, PhUnspentSpecial, PhUtxos,
};

/// Where a UTXO counts in `PChainBalance` at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bucket {
    /// Spendable by any tx.
    UnlockedUnstaked,
    /// Staked; spendable by any tx once returned.
    UnlockedStaked,
    /// Time-locked (`OutputOwners.locktime`): spendable by no tx yet.
    LockedPlatform,
    /// Stakeable-locked (`stakeable.LockOut`): spendable only by staking txs yet.
    LockedStakeable,
    /// Staked, and still stakeable-locked: locked again when returned.
    LockedStaked,
    /// Staked by a staker whose period has not begun.
    PendingStaked,
    /// In atomic memory, spendable once imported.
    AtomicUnlocked,
    /// In atomic memory, time-locked.
    AtomicLocked,
}

/// The bucket of `row` (whose parsed UTXO is `utxo`) at `t`, Unix seconds; the caller has
/// checked that it is unspent then.
pub fn bucket(row: &UtxoRow, utxo: &Utxo, t: u64) -> Bucket {
    let staked_from = row
        .staked_at(t)
        .then(|| row.staker.map_or(0, |(_, start, _)| start));
    bucket_at(
        row.holding != Holding::Native,
        staked_from,
        (
            utxo.output.owners().locktime,
            utxo.output.stakeable_locktime(),
        ),
        t,
    )
}

/// The bucket at `t` of a UTXO in atomic memory or not (`atomic`), staked at `t` by a staker
/// starting at `staked_from` (`None`: not staked then), with its locktime and stakeable
/// locktime: the one rule both the UTXOs read one by one and the stake sums follow.
fn bucket_at(
    atomic: bool,
    staked_from: Option<u64>,
    (lock, stakeable): (u64, u64),
    t: u64,
) -> Bucket {
    let time_locked = lock > t;
    let stake_locked = stakeable > t;
    if atomic {
        return if time_locked {
            Bucket::AtomicLocked
        } else {
            Bucket::AtomicUnlocked
        };
    }
    if let Some(start) = staked_from {
        return if start > t {
            Bucket::PendingStaked
        } else if stake_locked || time_locked {
            Bucket::LockedStaked
        } else {
            Bucket::UnlockedStaked
        };
    }
    if time_locked {
        Bucket::LockedPlatform
    } else if stake_locked {
        Bucket::LockedStakeable
    } else {
        Bucket::UnlockedUnstaked
    }
}

/// The balances of a set of addresses, each UTXO counted once however many of them own it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PBalances {
    /// The sums of the buckets other than atomic memory, by bucket and asset.
    pub buckets: BTreeMap<Bucket, BTreeMap<Id, AssetTotal>>,
    /// The atomic-memory sums, by (locked, shared chain, holding, asset).
    pub atomic: BTreeMap<(bool, Id, Holding, Id), AssetTotal>,
}

impl PBalances {
    /// The sums of `bucket` (not an atomic one), by asset.
    pub fn of(&self, bucket: Bucket) -> impl Iterator<Item = (&Id, &AssetTotal)> + '_ {
        self.buckets.get(&bucket).into_iter().flatten()
    }

    /// The atomic-memory sums, `locked` or not: `(shared chain, holding, asset, total)`.
    pub fn atomic(&self, locked: bool) -> impl Iterator<Item = (Id, Holding, Id, AssetTotal)> + '_ {
        self.atomic
            .iter()
            .filter(move |((l, ..), _)| *l == locked)
            .map(|((_, chain, holding, asset), t)| (*chain, *holding, *asset, *t))
    }

    fn add(&mut self, row: &UtxoRow, t: u64) -> Result<(), PChainError> {
        let utxo = row
            .utxo()
            .map_err(|e| PChainError::Corrupt(format!("stored UTXO bytes: {e}")))?;
        let asset = utxo.asset_id;
        match bucket(row, &utxo, t) {
            b @ (Bucket::AtomicLocked | Bucket::AtomicUnlocked) => {
                let chain = row.shared_with().unwrap_or(Id::EMPTY);
                let locked = b == Bucket::AtomicLocked;
                self.atomic
                    .entry((locked, chain, row.holding, asset))
                    .or_default()
                    .add(row.amount);
            }
            b => self
                .buckets
                .entry(b)
                .or_default()
                .entry(asset)
                .or_default()
                .add(row.amount),
        }
        Ok(())
    }

    /// Adds the sum of an owner's native UTXOs of one bucket and asset.
    fn add_in(&mut self, bucket: Bucket, asset: Id, t: AssetTotal) {
        self.buckets
            .entry(bucket)
            .or_default()
            .entry(asset)
            .or_default()
            .merge(t);
    }

    /// Adds the sum of an owner's UTXOs of one holding, shared chain, asset and lock state.
    fn add_total(&mut self, holding: Holding, chain: Id, asset: Id, locked: bool, t: AssetTotal) {
        let sum = if holding == Holding::Native {
            let b = if locked {
                Bucket::LockedPlatform
            } else {
                Bucket::UnlockedUnstaked
            };
            self.buckets.entry(b).or_default().entry(asset).or_default()
        } else {
            self.atomic
                .entry((locked, chain, holding, asset))
                .or_default()
        };
        sum.merge(t);
    }
}

impl PChainPages {
    /// The balances of `addresses` as of `at` (Unix seconds, `blockTimestamp`): the UTXOs
    /// created by then and not consumed by then, bucketed at `at`. Without `at`, the UTXOs
    /// unspent now, bucketed at `now`.
    pub fn balances(
        &self,
        addresses: &[ShortId],
        at: Option<u64>,
        now: u64,
    ) -> Result<PBalances, PageError> {
        let snapshot = self.store.snapshot();
        let addrs: BTreeSet<ShortId> = addresses.iter().copied().collect();
        let t = at.unwrap_or(now);
        // The stake sums hold at any time no earlier than the last block's (every stake
        // returned by then is returned at `t`); before it, their UTXOs are read one by one.
        let chain_time = snapshot.get::<PhMeta>(&META_CHAIN_TIME)?.unwrap_or(0);
        let sums_hold = chain_time <= t;
        let mut out = PBalances::default();
        let mut ids = BTreeSet::new();
        for addr in &addrs {
            match at {
                Some(t) => {
                    let range = (*addr, 0u64, Id::EMPTY)..=(*addr, t, Id([0xff; 32]));
                    for e in snapshot.scan::<PhAllByTime, _>(range, Direction::Forward)? {
                        ids.insert(e?.0.2);
                    }
                }
                None => {
                    // The owner's sums, then its UTXOs that need a look one by one.
                    for e in snapshot.prefix_scan::<PhBalances, ShortId>(
                        addr,
                        None,
                        Direction::Forward,
                    )? {
                        let ((_, asset, code, chain, locktime), total) = e?;
                        let holding = Holding::from_code(code).map_err(|e| {
                            PChainError::Corrupt(format!("balance row of {addr}: {e}"))
                        })?;
                        out.add_total(holding, chain, asset, locktime > t, total);
                    }
                    if sums_hold {
                        for e in snapshot.prefix_scan::<PhStakeSums, ShortId>(
                            addr,
                            None,
                            Direction::Forward,
                        )? {
                            let ((_, asset, staked, start, lock, stakeable), total) = e?;
                            let staked_from = (staked == 1).then_some(start);
                            let b = bucket_at(false, staked_from, (lock, stakeable), t);
                            out.add_in(b, asset, total);
                        }
                    }
                    for e in snapshot.prefix_scan::<PhUnspentSpecial, ShortId>(
                        addr,
                        None,
                        Direction::Forward,
                    )? {
                        let ((_, id), in_sums) = e?;
                        if in_sums == 0 || !sums_hold {
                            ids.insert(id);
                        }
                    }
                }
            }
        }
        let ids: Vec<Id> = ids.into_iter().collect();
        for chunk in ids.chunks(1024) {
            let rows = expect_rows(snapshot.multi_get::<PhUtxos>(chunk)?, chunk, "UTXO")?;
            for row in rows {
                if at.is_none() || row.live_at(t) {
                    out.add(&row, t)?;
                }
            }
        }
        Ok(out)
    }

    /// The atomic-memory balances of `addresses` shared with `chain` (as [`Self::balances`]
    /// computes them, as of `at` or now): the sums of [`Self::shared_utxos`]' UTXOs unspent
    /// then. The other buckets are empty.
    pub fn shared_balances(
        &self,
        addresses: &[ShortId],
        chain: Id,
        at: Option<u64>,
        now: u64,
    ) -> Result<PBalances, PageError> {
        let mut b = self.balances(addresses, at, now)?;
        b.buckets.clear();
        b.atomic.retain(|(_, with, _, _), _| *with == chain);
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use snowline_types::components::UtxoId;
    use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
    use snowline_types::platformvm::stakeable::LockOut;
    use snowline_types::platformvm::{TransferableOut, Utxo};
    use snowline_types::{Id, ShortId};

    use super::{Bucket, bucket};
    use crate::rows::{Event, Holding, Origin, UtxoRow};

    fn utxo(locktime: u64, stakeable: Option<u64>) -> Utxo {
        let output = TransferOutput {
            amount: 5,
            owners: OutputOwners {
                locktime,
                threshold: 1,
                addrs: vec![ShortId([1; 20])],
            },
        };
        Utxo {
            utxo_id: UtxoId {
                tx_id: Id([2; 32]),
                output_index: 0,
            },
            asset_id: Id([3; 32]),
            output: match stakeable {
                Some(locktime) => TransferableOut::StakeableLock(LockOut { locktime, output }),
                None => TransferableOut::Secp256k1(output),
            },
        }
    }

    fn row(
        holding: Holding,
        origin: Origin,
        staker: Option<(u64, u64)>,
        returned: Option<u64>,
    ) -> UtxoRow {
        let at = |timestamp| Event {
            tx_id: Id([4; 32]),
            height: 1,
            timestamp,
        };
        UtxoRow {
            holding,
            origin,
            amount: 5,
            created_on: Id::EMPTY,
            consumed_on: Id::EMPTY,
            created: at(10),
            consumed: None,
            staker: staker.map(|(s, e)| (Id([5; 32]), s, e)),
            returned: returned.map(at),
            bytes: Vec::new(),
        }
    }

    #[test]
    fn each_bucket_of_the_p_shape() {
        let plain = row(Holding::Native, Origin::Output, None, None);
        let stake = row(Holding::Native, Origin::Stake, Some((100, 200)), Some(200));
        let cases = [
            // (row, utxo, time, bucket)
            (&plain, utxo(0, None), 50, Bucket::UnlockedUnstaked),
            (&plain, utxo(60, None), 50, Bucket::LockedPlatform),
            (&plain, utxo(60, None), 60, Bucket::UnlockedUnstaked),
            (&plain, utxo(0, Some(70)), 50, Bucket::LockedStakeable),
            (&plain, utxo(0, Some(70)), 70, Bucket::UnlockedUnstaked),
            // A time lock wins over a stakeable lock: nothing can spend it yet.
            (&plain, utxo(60, Some(70)), 50, Bucket::LockedPlatform),
            // A stake before its period, during it (locked or not), and once returned.
            (&stake, utxo(0, None), 50, Bucket::PendingStaked),
            (&stake, utxo(0, None), 150, Bucket::UnlockedStaked),
            (&stake, utxo(0, Some(300)), 150, Bucket::LockedStaked),
            (&stake, utxo(0, Some(300)), 250, Bucket::LockedStakeable),
            (&stake, utxo(0, None), 250, Bucket::UnlockedUnstaked),
        ];
        for (i, (row, utxo, t, want)) in cases.into_iter().enumerate() {
            assert_eq!(bucket(row, &utxo, t), want, "case {i}");
        }
        for holding in [Holding::ExportedFromP, Holding::ExportedToP] {
            let r = row(holding, Origin::Output, None, None);
            assert_eq!(bucket(&r, &utxo(0, None), 50), Bucket::AtomicUnlocked);
            assert_eq!(bucket(&r, &utxo(60, None), 50), Bucket::AtomicLocked);
        }
    }
}
