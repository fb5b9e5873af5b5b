//! Metrics over several chains (the `total`, `mainnet` and `testnet` chain ids): each bucket's
//! value is the sum of the chains' values, for the metrics whose sum means something across
//! chains (counts of txs, gas and contracts, their cumulative totals, throughputs). Distinct
//! counts (an address may be active on several chains), maxima and amounts of different native
//! tokens (fees, gas prices) are not summed.

use snowline_store::{Direction, Linear, Mode, ReadView};

use crate::interval::Interval;
use crate::metric::{Metric, Value};
use crate::rolling::{RollingValues, rolling_at, windows_of};
use crate::rows::Bucket;
use crate::series::{MetricsPages, Point, SeriesError, SeriesPage, SeriesQuery};
use crate::tables::{CmBuckets, CmCursor};

/// Whether `metric` is served summed over chains.
pub fn summable(metric: Metric) -> bool {
    matches!(
        metric,
        Metric::TxCount
            | Metric::GasUsed
            | Metric::Contracts
            | Metric::CumulativeTxCount
            | Metric::CumulativeContracts
            | Metric::AvgTps
            | Metric::AvgGps
    )
}

/// A cumulative metric: a chain without a block in a bucket still has its total as of then.
fn cumulative(metric: Metric) -> bool {
    matches!(
        metric,
        Metric::CumulativeTxCount | Metric::CumulativeContracts
    )
}

fn add(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Count(x), Value::Count(y)) => Value::Count(x.saturating_add(y)),
        (Value::Count(x), Value::Ratio(y)) | (Value::Ratio(y), Value::Count(x)) => {
            Value::Ratio(x as f64 + y)
        }
        (Value::Ratio(x), Value::Ratio(y)) => Value::Ratio(x + y),
    }
}

impl MetricsPages {
    /// A page of `q` (its `chain` ignored) summed over `chains`, newest first: the buckets any
    /// of them has, each the sum of the chains' values (a chain without a block in the bucket
    /// adds 0, or its total as of then for a cumulative metric). A bucket is in progress while
    /// no chain has a block at or after its end. `metric` must be [`summable`].
    pub fn aggregate_series(
        &self,
        chains: &[u64],
        q: &SeriesQuery,
    ) -> Result<SeriesPage, SeriesError> {
        match self.store().mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => aggregate_in(&**self.store(), chains, q),
            _ => aggregate_in(&self.store().snapshot(), chains, q),
        }
    }

    /// `metric` over its rolling windows summed over `chains`, the windows ending with the hour
    /// of the newest block any of them holds. `metric` must be [`summable`].
    pub fn aggregate_rolling(
        &self,
        chains: &[u64],
        metric: Metric,
    ) -> Result<RollingValues, SeriesError> {
        match self.store().mode() {
            Mode::Secondary => aggregate_rolling_in(&**self.store(), chains, metric),
            _ => aggregate_rolling_in(&self.store().snapshot(), chains, metric),
        }
    }
}

/// The chains' last block times (chains without metrics left out).
fn tips(view: &impl ReadView, chains: &[u64]) -> Result<Vec<(u64, u64)>, SeriesError> {
    let mut out = Vec::with_capacity(chains.len());
    for chain in chains {
        if let Some(Linear(c)) = view.get::<CmCursor>(chain)? {
            out.push((*chain, c.last_time));
        }
    }
    Ok(out)
}

fn aggregate_in(
    view: &impl ReadView,
    chains: &[u64],
    q: &SeriesQuery,
) -> Result<SeriesPage, SeriesError> {
    let chains = tips(view, chains)?;
    let last_run = chains.iter().map(|(_, t)| *t).max().unwrap_or(0);
    let code = q.interval.code();
    // Each chain's newest `page_size + 1` buckets in range hold every bucket of the page.
    let mut rows: Vec<Vec<(u64, Bucket)>> = Vec::with_capacity(chains.len());
    let mut starts: Vec<u64> = Vec::new();
    if q.from <= q.to {
        for (chain, _) in &chains {
            let mut mine = Vec::new();
            for entry in view.scan::<CmBuckets, _>(
                (*chain, code, q.from)..=(*chain, code, q.to),
                Direction::Reverse,
            )? {
                let ((_, _, start), bucket) = entry?;
                mine.push((start, bucket));
                if mine.len() > q.page_size {
                    break;
                }
            }
            starts.extend(mine.iter().map(|(s, _)| *s));
            rows.push(mine);
        }
    }
    starts.sort_unstable_by(|a, b| b.cmp(a));
    starts.dedup();
    let next = starts.get(q.page_size).copied();
    starts.truncate(q.page_size);
    let mut points = Vec::with_capacity(starts.len());
    for start in starts {
        let mut value = q.metric.value(&Bucket::default());
        for ((chain, _), mine) in chains.iter().zip(&rows) {
            let own = mine.iter().find(|(s, _)| *s == start).map(|(_, b)| *b);
            let bucket = match own {
                Some(b) => Some(b),
                None if cumulative(q.metric) => before(view, *chain, q.interval, start)?,
                None => None,
            };
            if let Some(b) = bucket {
                value = add(value, q.metric.value(&b));
            }
        }
        points.push(Point {
            timestamp: start,
            value,
            in_progress: last_run < q.interval.next(start),
        });
    }
    Ok(SeriesPage {
        points,
        next,
        last_run,
    })
}

/// The chain's newest bucket starting before `start`, whose totals hold at `start`.
fn before(
    view: &impl ReadView,
    chain: u64,
    interval: Interval,
    start: u64,
) -> Result<Option<Bucket>, SeriesError> {
    let code = interval.code();
    let Some(below) = start.checked_sub(1) else {
        return Ok(None);
    };
    let mut scan =
        view.scan::<CmBuckets, _>((chain, code, 0)..=(chain, code, below), Direction::Reverse)?;
    Ok(scan.next().transpose()?.map(|(_, b)| b))
}

fn aggregate_rolling_in(
    view: &impl ReadView,
    chains: &[u64],
    metric: Metric,
) -> Result<RollingValues, SeriesError> {
    let chains = tips(view, chains)?;
    let tip = chains.iter().map(|(_, t)| *t).max().unwrap_or(0);
    let mut values: Vec<_> = windows_of(metric)
        .iter()
        .map(|w| (*w, metric.value(&Bucket::default())))
        .collect();
    for (chain, _) in &chains {
        let mine = rolling_at(view, *chain, metric, tip)?;
        for ((_, sum), (_, v)) in values.iter_mut().zip(mine.values) {
            *sum = add(*sum, v);
        }
    }
    Ok(RollingValues {
        values,
        last_run: tip,
    })
}
