//! L1 validator fee metrics per UTC day, as the metrics API's `/v2/validators/metrics`,
//! `/v2/validation/{id}/metrics`, `/v2/validator/{nodeId}/metrics` and `/v2/subnet/{id}/metrics`
//! serve them: the continuous fee (ACP-77) validators' balances paid, per day and cumulated,
//! and the validators that paid. Read from what ingest keeps (`crate::l1_usage`): the accrued
//! fee at each day's end, a validator's paying periods as accrued-fee ranges, and each L1's and
//! the network's fee curve; a request costs one scan of the days served plus, per day, two seeks
//! of a curve (an L1, the network) or a pass over the periods (a validation, a node's).

use snowline_store::{Direction, Linear, Mode, ReadView};
use snowline_types::Id;

use super::l1_usage::DAY;
use crate::PChainError;
use crate::pages::PChainPages;
use crate::rows::FeeCurvePoint;
use crate::tables::{
    FEE_CURVE_TOTAL, META_CHAIN_TIME, META_GENESIS_TIME, META_L1_SINCE, PhL1ByNode, PhL1FeeCurve,
    PhL1FeeDays, PhL1OpenPeriods, PhL1Periods, PhL1Validators, PhMeta, PhSubnets,
};

/// Whose fees a series sums.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum L1Scope {
    /// One validation (an L1 validator's registration).
    Validation(Id),
    /// Every validation of a node (its id bytes).
    Node(Vec<u8>),
    /// Every validator of an L1.
    Subnet(Id),
    /// Every L1 validator of the network.
    Total,
}

/// What a point holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L1Figure {
    /// nAVAX paid during the day.
    Fees,
    /// nAVAX paid from the start to the day's end.
    CumulativeFees,
    /// Validators that paid during the day (an L1 or the network only).
    PayingValidators,
}

/// What an L1 metrics series asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1MetricsQuery {
    /// Whose.
    pub scope: L1Scope,
    /// What.
    pub figure: L1Figure,
    /// The days served start in `[from, to]` (Unix seconds).
    pub from: u64,
    /// See `from`.
    pub to: u64,
}

/// One UTC day's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L1Point {
    /// The day's start.
    pub timestamp: u64,
    /// The value at the day's end (at the chain time for the day in progress).
    pub value: u64,
    /// The day holds the chain time: later blocks may still change its value.
    pub in_progress: bool,
}

/// Why an L1 metrics series could not be read.
#[derive(Debug, thiserror::Error)]
pub enum L1MetricsError {
    /// The P-Chain genesis is not indexed.
    #[error("the P-Chain is not indexed by this instance")]
    NotIndexed,
    /// The validation, node or subnet is not known to the indexed P-Chain.
    #[error("{0} is not known to the indexed P-Chain")]
    Unknown(String),
    /// The figure is not kept for the scope (paying validators of one validation or node).
    #[error("{0}")]
    Unsupported(&'static str),
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] PChainError),
}

impl From<snowline_store::StoreError> for L1MetricsError {
    fn from(e: snowline_store::StoreError) -> Self {
        L1MetricsError::Read(e.into())
    }
}

impl PChainPages {
    /// Every day's point of `q`, newest first: from the day the scope's first validator was
    /// registered (a node's first validation, an L1's conversion, the network's first
    /// conversion) to the day holding the chain time, within `[q.from, q.to]`. A subnet not
    /// converted to an L1 has no points.
    pub fn l1_metrics(&self, q: &L1MetricsQuery) -> Result<Vec<L1Point>, L1MetricsError> {
        match self.store.mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => l1_metrics_in(&*self.store, q),
            _ => l1_metrics_in(&self.store.snapshot(), q),
        }
    }
}

/// A validation's paying periods, `[start, end)` in accrued fee (`u64::MAX`: still paying).
fn periods(view: &impl ReadView, vid: &Id) -> Result<Vec<(u64, u64)>, L1MetricsError> {
    let mut out = Vec::new();
    for r in view.prefix_scan::<PhL1Periods, Id>(vid, None, Direction::Forward)? {
        let ((_, start), end) = r?;
        out.push((start, end));
    }
    if let Some(start) = view.get::<PhL1OpenPeriods>(vid)? {
        out.push((start, u64::MAX));
    }
    Ok(out)
}

/// The part of `[s, e)` within `[lo, hi)`.
fn overlap((s, e): (u64, u64), lo: u64, hi: u64) -> u64 {
    e.min(hi).saturating_sub(s.max(lo))
}

/// The scope's curve at level `x`: its last breakpoint at or below, carried to `x`.
pub(crate) fn curve_at(
    view: &impl ReadView,
    scope: &Id,
    x: u64,
) -> Result<FeeCurvePoint, L1MetricsError> {
    let mut scan = view.scan::<PhL1FeeCurve, _>((*scope, 0)..=(*scope, x), Direction::Reverse)?;
    Ok(match scan.next().transpose()? {
        Some(((_, level), Linear(p))) => p.carried(level, x),
        None => FeeCurvePoint::default(),
    })
}

/// How a scope's values are read.
enum Source {
    /// Paying periods (a validation's, a node's validations').
    Periods(Vec<(u64, u64)>),
    /// A fee curve.
    Curve(Id),
}

fn l1_metrics_in(view: &impl ReadView, q: &L1MetricsQuery) -> Result<Vec<L1Point>, L1MetricsError> {
    let genesis = view
        .get::<PhMeta>(&META_GENESIS_TIME)?
        .ok_or(L1MetricsError::NotIndexed)?;
    let chain_time = view.get::<PhMeta>(&META_CHAIN_TIME)?.unwrap_or(genesis);
    let paying = q.figure == L1Figure::PayingValidators;
    // The time the series begins (`None`: no point) and where its values come from.
    let (since, source) = match &q.scope {
        L1Scope::Validation(vid) => {
            let Linear(row) = view
                .get::<PhL1Validators>(vid)?
                .ok_or_else(|| L1MetricsError::Unknown(format!("validation {vid}")))?;
            (
                Some(row.created.timestamp),
                Source::Periods(periods(view, vid)?),
            )
        }
        L1Scope::Node(node) => {
            let mut since: Option<u64> = None;
            let mut all = Vec::new();
            for r in view.prefix_scan::<PhL1ByNode, Vec<u8>>(node, None, Direction::Forward)? {
                let ((_, vid), ()) = r?;
                if let Some(Linear(row)) = view.get::<PhL1Validators>(&vid)? {
                    let t = row.created.timestamp;
                    since = Some(since.map_or(t, |s| s.min(t)));
                }
                all.extend(periods(view, &vid)?);
            }
            if since.is_none() {
                return Err(L1MetricsError::Unknown("node (no L1 validation)".into()));
            }
            (since, Source::Periods(all))
        }
        L1Scope::Subnet(subnet) => {
            let Linear(row) = view
                .get::<PhSubnets>(subnet)?
                .ok_or_else(|| L1MetricsError::Unknown(format!("subnet {subnet}")))?;
            let since = row.conversion.map(|c| c.event.timestamp);
            (since, Source::Curve(*subnet))
        }
        L1Scope::Total => (
            view.get::<PhMeta>(&META_L1_SINCE)?,
            Source::Curve(FEE_CURVE_TOTAL),
        ),
    };
    if paying && matches!(source, Source::Periods(_)) {
        return Err(L1MetricsError::Unsupported(
            "paying validators are counted for an L1 or the network only",
        ));
    }
    let Some(since) = since else {
        return Ok(Vec::new());
    };
    let Some(from) = q.from.div_ceil(DAY).checked_mul(DAY) else {
        return Ok(Vec::new());
    };
    let first = (since - since % DAY).max(from);
    let last = chain_time - chain_time % DAY;
    let last = last.min(q.to - q.to % DAY);
    if first > last {
        return Ok(Vec::new());
    }
    // The accrued fee at the end of the day before `first`, then of each day served.
    let mut accrued = match first.checked_sub(DAY) {
        Some(before) => view
            .scan::<PhL1FeeDays, _>(..=before, Direction::Reverse)?
            .next()
            .transpose()?
            .map_or(0, |(_, a)| a),
        None => 0,
    };
    let mut ends = view
        .scan::<PhL1FeeDays, _>(first..=last, Direction::Forward)?
        .peekable();
    let mut points = Vec::new();
    let mut day = first;
    while day <= last {
        let lo = accrued;
        if let Some(r) =
            ends.next_if(|r| r.as_ref().is_err() || r.as_ref().is_ok_and(|(d, _)| *d <= day))
        {
            accrued = r?.1;
        }
        let hi = accrued;
        let value = match (&source, q.figure) {
            (Source::Periods(ps), L1Figure::Fees) => ps.iter().map(|p| overlap(*p, lo, hi)).sum(),
            (Source::Periods(ps), _) => ps.iter().map(|p| overlap(*p, 0, hi)).sum(),
            (Source::Curve(scope), L1Figure::Fees) => {
                let end = curve_at(view, scope, hi)?.fees;
                end.saturating_sub(curve_at(view, scope, lo)?.fees)
            }
            (Source::Curve(scope), L1Figure::CumulativeFees) => curve_at(view, scope, hi)?.fees,
            (Source::Curve(scope), L1Figure::PayingValidators) => {
                // Periods overlapping the day, less second periods of a validator that day.
                let below = |x: u64| match x.checked_sub(1) {
                    Some(x) => curve_at(view, scope, x),
                    None => Ok(FeeCurvePoint::default()),
                };
                let (before_end, before_start) = (below(hi)?, below(lo)?);
                let rejoins = before_end.rejoins.saturating_sub(before_start.rejoins);
                before_end
                    .starts
                    .saturating_sub(curve_at(view, scope, lo)?.stops)
                    .saturating_sub(rejoins)
            }
        };
        points.push(L1Point {
            timestamp: day,
            value,
            in_progress: chain_time < day + DAY,
        });
        day += DAY;
    }
    points.reverse();
    Ok(points)
}
