//! Rolling windows: a chain metric over the last hour, day, week, month (30 days), 90 days, year
//! (365 days) and all time, as `/v2/chains/{chainId}/rollingWindowMetrics/{metric}` serves it.
//! A window is whole hours ending with the hour of the chain's last indexed block (the tip, not
//! the wall clock), so it is the union of hour buckets: their sums, maxima and spans merge into
//! one bucket the metric's own rule then reads. Distinct counts do not add up: they come from
//! the addresses' last-seen times, which are exact at hour boundaries.

use snowline_store::{Direction, Linear, Mode, ReadView};

use crate::interval::Interval;
use crate::metric::{Metric, Value};
use crate::rows::Bucket;
use crate::series::{MetricsPages, SeriesError};
use crate::tables::{CmAddresses, CmBuckets, CmCursor};

const HOUR: u64 = 3_600;

/// A rolling window of the OpenAPI's `ChainRollingWindowMetricsValue`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Window {
    /// The hour of the tip.
    LastHour,
    /// 24 hours.
    LastDay,
    /// 7 × 24 hours.
    LastWeek,
    /// 30 × 24 hours.
    LastMonth,
    /// 90 × 24 hours.
    Last90Days,
    /// 365 × 24 hours.
    LastYear,
    /// Every block the metrics hold.
    AllTime,
}

impl Window {
    /// Every window, shortest first.
    pub const ALL: [Window; 7] = [
        Self::LastHour,
        Self::LastDay,
        Self::LastWeek,
        Self::LastMonth,
        Self::Last90Days,
        Self::LastYear,
        Self::AllTime,
    ];

    /// The field name in the answer (`lastHour`).
    pub fn name(self) -> &'static str {
        match self {
            Self::LastHour => "lastHour",
            Self::LastDay => "lastDay",
            Self::LastWeek => "lastWeek",
            Self::LastMonth => "lastMonth",
            Self::Last90Days => "last90Days",
            Self::LastYear => "lastYear",
            Self::AllTime => "allTime",
        }
    }

    /// Its length in hours (`None`: all time).
    pub fn hours(self) -> Option<u64> {
        match self {
            Self::LastHour => Some(1),
            Self::LastDay => Some(24),
            Self::LastWeek => Some(7 * 24),
            Self::LastMonth => Some(30 * 24),
            Self::Last90Days => Some(90 * 24),
            Self::LastYear => Some(365 * 24),
            Self::AllTime => None,
        }
    }

    /// The first second of the window ending with the hour holding `tip`.
    pub fn start(self, tip: u64) -> u64 {
        self.hours().map_or(0, |h| {
            Interval::Hour
                .start(tip)
                .saturating_sub((h - 1).saturating_mul(HOUR))
        })
    }
}

/// Whether `metric` has rolling windows (the OpenAPI's `ChainRollingWindowMetric`: not the
/// cumulative ones), and in which: active addresses and senders only up to a week.
pub fn windows_of(metric: Metric) -> &'static [Window] {
    match metric {
        Metric::CumulativeTxCount
        | Metric::CumulativeAddresses
        | Metric::CumulativeContracts
        | Metric::CumulativeDeployers => &[],
        Metric::ActiveAddresses | Metric::ActiveSenders => &Window::ALL[..3],
        _ => &Window::ALL,
    }
}

/// A metric's value in each of its windows.
#[derive(Debug, Clone, PartialEq)]
pub struct RollingValues {
    /// `(window, value)` for each window of [`windows_of`], shortest first.
    pub values: Vec<(Window, Value)>,
    /// When the last block the metrics hold was made: where the windows end.
    pub last_run: u64,
}

impl MetricsPages {
    /// `metric` of chain `chain` over its rolling windows (none for a metric without windows).
    /// Cost: one scan of the hour buckets of the last year (at most 8,760 rows) and of the
    /// month buckets; for a distinct count, one scan of the chain's addresses.
    pub fn rolling(&self, chain: u64, metric: Metric) -> Result<RollingValues, SeriesError> {
        match self.store().mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => rolling_in(&**self.store(), chain, metric),
            _ => rolling_in(&self.store().snapshot(), chain, metric),
        }
    }
}

/// Adds `b`, the bucket after those in `acc`, to the window's merged bucket.
fn merge(acc: &mut Option<Bucket>, b: &Bucket) {
    let Some(a) = acc else {
        *acc = Some(*b);
        return;
    };
    a.blocks = a.blocks.saturating_add(b.blocks);
    a.txs = a.txs.saturating_add(b.txs);
    a.gas_used = a.gas_used.saturating_add(b.gas_used);
    a.fees = a.fees.saturating_add(b.fees);
    a.gas_price_sum = a.gas_price_sum.saturating_add(b.gas_price_sum);
    a.gas_price_max = a.gas_price_max.max(b.gas_price_max);
    if b.max_tps.exceeds(&a.max_tps) {
        a.max_tps = b.max_tps;
    }
    if b.max_gps.exceeds(&a.max_gps) {
        a.max_gps = b.max_gps;
    }
    a.last_time = b.last_time;
    a.contracts = a.contracts.saturating_add(b.contracts);
    a.totals = b.totals;
}

fn rolling_in(
    view: &impl ReadView,
    chain: u64,
    metric: Metric,
) -> Result<RollingValues, SeriesError> {
    let cursor = view
        .get::<CmCursor>(&chain)?
        .map(|Linear(c)| c)
        .ok_or(SeriesError::NotIndexed(chain))?;
    rolling_at(view, chain, metric, cursor.last_time)
}

/// `metric` of `chain` over the windows ending with the hour holding `tip`.
pub(crate) fn rolling_at(
    view: &impl ReadView,
    chain: u64,
    metric: Metric,
    tip: u64,
) -> Result<RollingValues, SeriesError> {
    let windows = windows_of(metric);
    let mut merged: Vec<Option<Bucket>> = vec![None; windows.len()];
    let timed = windows
        .iter()
        .filter_map(|w| w.hours().map(|_| w.start(tip)));
    if let Some(oldest) = timed.min() {
        let hour = Interval::Hour.code();
        for entry in view.scan::<CmBuckets, _>(
            (chain, hour, oldest)..=(chain, hour, u64::MAX),
            Direction::Forward,
        )? {
            let ((_, _, start), bucket) = entry?;
            for (w, acc) in windows.iter().zip(&mut merged) {
                if w.hours().is_some() && start >= w.start(tip) {
                    merge(acc, &bucket);
                }
            }
        }
    }
    if let Some(i) = windows.iter().position(|w| *w == Window::AllTime) {
        let month = Interval::Month.code();
        for entry in view.scan::<CmBuckets, _>(
            (chain, month, 0)..=(chain, month, u64::MAX),
            Direction::Forward,
        )? {
            let (_, bucket) = entry?;
            merge(&mut merged[i], &bucket);
        }
    }
    if matches!(
        metric,
        Metric::ActiveAddresses | Metric::ActiveSenders | Metric::Deployers
    ) {
        distinct(view, chain, metric, tip, windows, &mut merged)?;
    }
    Ok(RollingValues {
        values: windows
            .iter()
            .zip(merged)
            .map(|(w, b)| (*w, metric.value(&b.unwrap_or_default())))
            .collect(),
        last_run: tip,
    })
}

/// Sets each window's distinct count of `metric`'s role: the chain's addresses last seen in
/// that role at or after the window's start (exact: a window starts on an hour, and a
/// last-seen time is kept to the hour; all time starts at 0).
fn distinct(
    view: &impl ReadView,
    chain: u64,
    metric: Metric,
    tip: u64,
    windows: &[Window],
    merged: &mut [Option<Bucket>],
) -> Result<(), SeriesError> {
    let starts: Vec<u64> = windows.iter().map(|w| w.start(tip)).collect();
    let mut counts = vec![0u64; windows.len()];
    for entry in view.prefix_scan::<CmAddresses, u64>(&chain, None, Direction::Forward)? {
        let (_, Linear(seen)) = entry?;
        let last = match metric {
            Metric::ActiveAddresses => seen.active,
            Metric::ActiveSenders => seen.sender,
            _ => seen.deployer,
        };
        if let Some(t) = last {
            for (count, start) in counts.iter_mut().zip(&starts) {
                *count += u64::from(t >= *start);
            }
        }
    }
    for (acc, count) in merged.iter_mut().zip(counts) {
        let b = acc.get_or_insert_with(Bucket::default);
        match metric {
            Metric::ActiveAddresses => b.active_addresses = count,
            Metric::ActiveSenders => b.active_senders = count,
            _ => b.deployers = count,
        }
    }
    Ok(())
}
