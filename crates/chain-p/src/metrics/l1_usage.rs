//! What L1 validators paid, kept at ingest for the metrics service: the per-validator accrued fee
//! at each UTC day's end (`ph_l1_fee_days`), each validator's paying periods as ranges of that
//! accrued fee (`ph_l1_periods`, `ph_l1_open_periods`), and each L1's and the network's fee
//! curve (`ph_l1_fee_curve`). Every active validator pays the same per-second price, so a
//! validator pays exactly what the accrued fee grows by while it is active: rows change only when
//! a day ends or a validator starts or stops paying, never per active validator per block.

use snowline_derive::{PendingRows, Staging, StagingParts};
use snowline_store::{Linear, ReadView, WriteBatch};
use snowline_types::Id;

use crate::error::PChainError;
use crate::l1_fee::{FeeConfig, FeeState};
use crate::pending::{load, upsert};
use crate::rows::FeeCurvePoint;
use crate::tables::{
    FEE_CURVE_TOTAL, PhL1FeeCurve, PhL1FeeDays, PhL1FeeHead, PhL1OpenPeriods, PhL1Periods,
    PhL1Stopped,
};

/// One UTC day, seconds.
pub const DAY: u64 = 86_400;

/// The unwritten rows of the L1 usage tables.
#[derive(Debug, Default)]
pub(crate) struct L1Usage {
    open: PendingRows<PhL1OpenPeriods>,
    stopped: PendingRows<PhL1Stopped>,
    curve: PendingRows<PhL1FeeCurve>,
    head: PendingRows<PhL1FeeHead>,
}

impl L1Usage {
    /// Records the accrued fee at the end of every day from `now`'s to `ts`'s, the chain time
    /// moving from `now` (accrued `a0`, fee state `state`) to `ts` (accrued `a1`): a day ending
    /// within the gap gets `a0` plus what one validator pays from `now` to the day's end, second
    /// by second as the fee state evolves (`State.CostOf` over the part of the gap); `ts`'s day
    /// gets `a1`. Returns the accrued fee at the start of `ts`'s day when the gap crosses one.
    pub(crate) fn days(
        batch: &mut WriteBatch,
        fee: &FeeConfig,
        state: FeeState,
        (now, a0): (u64, u64),
        (ts, a1): (u64, u64),
    ) -> Option<u64> {
        let mut day = now - now % DAY;
        let mut at = (now, a0, state);
        let mut day_start = None;
        while day + DAY <= ts {
            let end = day + DAY;
            let seconds = end - at.0;
            let accrued = at.1.saturating_add(at.2.cost_of(fee, seconds)).min(a1);
            batch.put::<PhL1FeeDays>(&day, &accrued);
            at = (end, accrued, at.2.advance(fee.target, seconds));
            day = end;
            day_start = Some(accrued);
        }
        batch.put::<PhL1FeeDays>(&day, &a1);
        day_start
    }

    /// Validator `vid` of `subnet` starts paying at accrued fee `a`, on a day that began at
    /// accrued fee `day_start`.
    pub(crate) fn start(
        &mut self,
        view: &impl ReadView,
        vid: Id,
        subnet: Id,
        (a, day_start): (u64, u64),
    ) -> Result<(), PChainError> {
        upsert(&mut self.open, view, vid, a)?;
        // Its previous period paid today: the day counts it once.
        let rejoins = load(&self.stopped, view, &vid)?
            .0
            .is_some_and(|e| e > day_start);
        for scope in [subnet, FEE_CURVE_TOTAL] {
            self.step(view, scope, a, |p| {
                p.active = p.active.saturating_add(1);
                p.starts = p.starts.saturating_add(1);
                p.rejoins = p.rejoins.saturating_add(u64::from(rejoins));
            })?;
        }
        Ok(())
    }

    /// Validator `vid` of `subnet` stops paying at accrued fee `a` (its balance used up at that
    /// level, or withdrawn there). A period that paid nothing (stopped where it started) is
    /// forgotten.
    pub(crate) fn stop(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        vid: Id,
        subnet: Id,
        a: u64,
    ) -> Result<(), PChainError> {
        let (start, stored) = load(&self.open, view, &vid)?;
        let Some(start) = start else {
            return Ok(());
        };
        self.open.delete(vid, stored);
        let empty = a <= start;
        if !empty {
            batch.put::<PhL1Periods>(&(vid, start), &a);
            upsert(&mut self.stopped, view, vid, a)?;
        }
        for scope in [subnet, FEE_CURVE_TOTAL] {
            self.step(view, scope, a.max(start), |p| {
                p.active = p.active.saturating_sub(1);
                if empty {
                    p.starts = p.starts.saturating_sub(1);
                } else {
                    p.stops = p.stops.saturating_add(1);
                }
            })?;
        }
        Ok(())
    }

    /// Adds a breakpoint to `scope`'s curve at `a` (or changes the one there), carrying the last
    /// one to it and applying `change`. Levels only grow (a block's events lie between its
    /// parent's accrued fee and its own), so a lower `a` is taken as the last level.
    fn step(
        &mut self,
        view: &impl ReadView,
        scope: Id,
        a: u64,
        change: impl FnOnce(&mut FeeCurvePoint),
    ) -> Result<(), PChainError> {
        let (head, head_stored) = load(&self.head, view, &scope)?;
        let (mut point, level) = match head {
            Some(h) => {
                let (p, _) = load(&self.curve, view, &(scope, h))?;
                let p = p.map(|Linear(p)| p).unwrap_or_default();
                let level = a.max(h);
                (p.carried(h, level), level)
            }
            None => (FeeCurvePoint::default(), a),
        };
        change(&mut point);
        upsert(&mut self.curve, view, (scope, level), Linear(point))?;
        self.head.put(scope, level, head_stored);
        Ok(())
    }
}

impl StagingParts for L1Usage {
    fn parts(&mut self) -> impl Staging + '_ {
        [
            &mut self.open as &mut dyn Staging,
            &mut self.stopped,
            &mut self.curve,
            &mut self.head,
        ]
    }
}
