//! The staking metrics kept at ingest: each subnet's validator and delegator counts and weights
//! (an L1's active validators with their current weights) as of the chain time
//! (`ph_staking_now`), and after the last change of each UTC day (`ph_staking_days`). Changes
//! come in time order: a staker enters at its block's time, or at its stated start when accepted
//! earlier (before Durango: kept in `ph_stakers_not_started` until the chain time reaches it),
//! and leaves with the block that settles it; an L1 validator counts while it is active (has a
//! balance and a weight). A change writes its subnet's current figures and its day's row.

use snowline_derive::{PendingRows, Staging, StagingParts};
use snowline_store::{Direction, Linear, ReadView, WriteBatch};
use snowline_types::Id;

use super::l1_usage::DAY;
use crate::error::PChainError;
use crate::pending::{load, upsert};
use crate::rows::{NotStarted, StakerRow};
use crate::tables::{PhStakersNotStarted, PhStakingDays, PhStakingNow};

/// The unwritten rows of the staking figures.
#[derive(Debug, Default)]
pub(crate) struct StakingDays {
    now: PendingRows<PhStakingNow>,
    not_started: PendingRows<PhStakersNotStarted>,
}

impl StakingDays {
    /// Changes `subnet`'s figures at `time` by one validator (or delegator) of `weight`
    /// entering or leaving.
    pub(crate) fn change(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        subnet: Id,
        time: u64,
        (validator, weight, enters): (bool, u128, bool),
    ) -> Result<(), PChainError> {
        let (figures, stored) = load(&self.now, view, &subnet)?;
        let mut figures = figures.map(|Linear(f)| f).unwrap_or_default();
        figures.apply(validator, weight, enters);
        batch.put::<PhStakingDays>(&(subnet, time - time % DAY), &Linear(figures));
        self.now.put(subnet, Linear(figures), stored);
        Ok(())
    }

    /// Changes `subnet`'s validator weight at `time` from `old` to `new` (an active L1
    /// validator reweighted).
    pub(crate) fn reweigh(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        subnet: Id,
        time: u64,
        (old, new): (u64, u64),
    ) -> Result<(), PChainError> {
        let (figures, stored) = load(&self.now, view, &subnet)?;
        let mut figures = figures.map(|Linear(f)| f).unwrap_or_default();
        figures.validator_weight = figures
            .validator_weight
            .saturating_sub(u128::from(old))
            .saturating_add(u128::from(new));
        batch.put::<PhStakingDays>(&(subnet, time - time % DAY), &Linear(figures));
        self.now.put(subnet, Linear(figures), stored);
        Ok(())
    }

    /// A staker accepted at `time`: counted now, or from its start when that is later.
    pub(crate) fn add_staker(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: Id,
        row: &StakerRow,
        time: u64,
    ) -> Result<(), PChainError> {
        if row.start > time {
            let waits = NotStarted {
                subnet_id: row.subnet_id,
                validator: row.kind.validates(),
                weight: row.weight,
            };
            return upsert(&mut self.not_started, view, (row.start, id), Linear(waits));
        }
        let change = (row.kind.validates(), u128::from(row.weight), true);
        self.change(batch, view, row.subnet_id, time, change)
    }

    /// A staker settled at `time`: it leaves, or, not started yet, is never counted.
    pub(crate) fn settle(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: Id,
        row: &StakerRow,
        time: u64,
    ) -> Result<(), PChainError> {
        let key = (row.start, id);
        if let (Some(_), stored) = load(&self.not_started, view, &key)? {
            self.not_started.delete(key, stored);
            return Ok(());
        }
        let change = (row.kind.validates(), u128::from(row.weight), false);
        self.change(batch, view, row.subnet_id, time, change)
    }

    /// The chain time moves to `ts`: the stakers whose start it reaches enter, in start order,
    /// each at its start.
    pub(crate) fn advance(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        ts: u64,
    ) -> Result<(), PChainError> {
        let mut due: Vec<((u64, Id), NotStarted)> = Vec::new();
        for entry in
            view.scan::<PhStakersNotStarted, _>(..=(ts, Id([0xff; 32])), Direction::Forward)?
        {
            let (key, Linear(waits)) = entry?;
            if self.not_started.get(&key).is_none() {
                due.push((key, waits));
            }
        }
        // Keys the unwritten batches hold (changed ones were left to them above).
        due.extend(
            self.not_started
                .changes()
                .filter(|(key, _)| key.0 <= ts)
                .filter_map(|(key, value)| value.map(|Linear(w)| (*key, *w))),
        );
        due.sort_unstable_by_key(|(key, _)| *key);
        for (key, waits) in due {
            let (_, stored) = load(&self.not_started, view, &key)?;
            self.not_started.delete(key, stored);
            let change = (waits.validator, u128::from(waits.weight), true);
            self.change(batch, view, waits.subnet_id, key.0, change)?;
        }
        Ok(())
    }
}

impl StagingParts for StakingDays {
    fn parts(&mut self) -> impl Staging + '_ {
        [&mut self.now as &mut dyn Staging, &mut self.not_started]
    }
}

#[cfg(test)]
mod tests {
    //! Stakers accepted before their stated start (before Durango, not in the devnet's
    //! history): counted from the start, on the start's day even when no block falls then,
    //! whichever batch holds them; settled before starting, never counted.

    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use snowline_derive::write_batch;
    use snowline_store::{Schema, Store};
    use snowline_types::NodeId;

    use super::*;
    use crate::rows::{Event, StakerKind, StakingFigures};
    use crate::tables::tables;

    fn staker(kind: StakerKind, start: u64, weight: u64) -> StakerRow {
        StakerRow {
            kind,
            node_id: NodeId::default(),
            subnet_id: Id::default(),
            start,
            end: start + 10 * DAY,
            weight,
            delegation_shares: 0,
            potential_reward: 0,
            delegatee_reward: 0,
            accepted: Event::default(),
            reward_owners: Vec::new(),
            validator_tx: None,
            bls_public_key: None,
            settled: None,
            unsigned_tx: Vec::new(),
        }
    }

    fn day_rows(store: &Store) -> Vec<(u64, StakingFigures)> {
        store
            .scan::<PhStakingDays, _>(.., Direction::Forward)
            .unwrap()
            .map(|r| {
                let ((_, day), Linear(f)) = r.unwrap();
                (day, f)
            })
            .collect()
    }

    #[test]
    fn a_staker_accepted_early_counts_from_its_start() {
        for split in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let schema = tables().into_iter().fold(Schema::new(1), Schema::with_spec);
            let store = Store::open(dir.path(), &schema).unwrap();
            let mut s = StakingDays::default();
            let mut batch = WriteBatch::new();
            let t0 = 100 * DAY + 3_600;
            let (a, b, c) = (Id::from([1; 32]), Id::from([2; 32]), Id::from([3; 32]));
            // Accepted on day 100: `a` starts at once, `b` on day 102, `c` on day 103.
            s.add_staker(
                &mut batch,
                &store,
                a,
                &staker(StakerKind::Validator, t0, 5),
                t0,
            )
            .unwrap();
            let vb = staker(StakerKind::Validator, 102 * DAY + 7, 7);
            s.add_staker(&mut batch, &store, b, &vb, t0).unwrap();
            let vc = staker(StakerKind::Delegator, 103 * DAY, 11);
            s.add_staker(&mut batch, &store, c, &vc, t0).unwrap();
            if split {
                write_batch(&store, &mut s, &mut batch).unwrap();
            }
            // The next block is on day 104: `b` entered on day 102 and `c` on day 103, with no
            // block then; `c` is settled in this block and leaves on day 104.
            s.advance(&mut batch, &store, 104 * DAY + 50).unwrap();
            s.settle(&mut batch, &store, c, &vc, 104 * DAY + 50)
                .unwrap();
            // A staker settled before it started never counts.
            let vd = staker(StakerKind::Validator, 110 * DAY, 13);
            let d = Id::from([4; 32]);
            s.add_staker(&mut batch, &store, d, &vd, 104 * DAY + 60)
                .unwrap();
            s.settle(&mut batch, &store, d, &vd, 104 * DAY + 70)
                .unwrap();
            s.advance(&mut batch, &store, 111 * DAY).unwrap();
            write_batch(&store, &mut s, &mut batch).unwrap();
            let f = |vc, vw, dc, dw| StakingFigures {
                validator_count: vc,
                validator_weight: vw,
                delegator_count: dc,
                delegator_weight: dw,
            };
            assert_eq!(
                day_rows(&store),
                vec![
                    (100 * DAY, f(1, 5, 0, 0)),
                    (102 * DAY, f(2, 12, 0, 0)),
                    (103 * DAY, f(2, 12, 1, 11)),
                    (104 * DAY, f(2, 12, 0, 0)),
                ],
                "split {split}"
            );
            assert_eq!(
                store
                    .scan::<PhStakersNotStarted, _>(.., Direction::Forward)
                    .unwrap()
                    .count(),
                0
            );
        }
    }
}
