//! [`MetricsPages`]: the metrics API's reads, each from one store snapshot: the chains with
//! metrics, and a metric's series at an interval, newest first, as keyset pages over the
//! chain's buckets. Nothing here knows HTTP.

use std::sync::Arc;

use snowline_store::{Direction, Linear, Mode, ReadView, Store, StoreError};

use crate::interval::Interval;
use crate::metric::{Metric, Value};
use crate::rows::MetricsCursor;
use crate::tables::{CmBuckets, CmCursor};

/// Why a read could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum SeriesError {
    /// The store holds no metrics of the chain.
    #[error("chain {0} has no metrics indexed by this instance yet")]
    NotIndexed(u64),
    /// Reading the store failed (our fault).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// One page of a series: which chain, metric and interval, between which bucket starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesQuery {
    /// The EVM chain id.
    pub chain: u64,
    /// The metric.
    pub metric: Metric,
    /// The bucket size.
    pub interval: Interval,
    /// The oldest bucket start served.
    pub from: u64,
    /// The newest bucket start served (a page token's position).
    pub to: u64,
    /// At most this many points.
    pub page_size: usize,
}

/// A data point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// The bucket's start, Unix seconds.
    pub timestamp: u64,
    /// The metric's value in the bucket.
    pub value: Value,
    /// The bucket has not ended as far as the index knows (no block at or after its end is
    /// indexed yet): its value may still grow.
    pub in_progress: bool,
}

/// A page of points, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesPage {
    /// The points.
    pub points: Vec<Point>,
    /// The `to` of the next page, when there are more points.
    pub next: Option<u64>,
    /// When the last block the metrics hold was made (Unix seconds): when the newest point was
    /// last updated.
    pub last_run: u64,
}

/// The metrics' reads over a store holding the metrics tables.
#[derive(Debug, Clone)]
pub struct MetricsPages {
    store: Arc<Store>,
}

impl MetricsPages {
    /// Reads over `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// The store read.
    pub(crate) fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Every chain with metrics and where they stand, by chain id.
    pub fn chains(&self) -> Result<Vec<(u64, MetricsCursor)>, SeriesError> {
        self.store
            .scan::<CmCursor, _>(.., Direction::Forward)?
            .map(|e| e.map(|(chain, Linear(c))| (chain, c)).map_err(Into::into))
            .collect()
    }

    /// Where chain `chain`'s metrics stand (`None`: none indexed).
    pub fn cursor(&self, chain: u64) -> Result<Option<MetricsCursor>, SeriesError> {
        Ok(self.store.get::<CmCursor>(&chain)?.map(|Linear(c)| c))
    }

    /// A page of `q`: the buckets of its chain and interval starting in `[from, to]`, newest
    /// first, read from one snapshot. A secondary instance has no snapshots (RocksDB), but its
    /// data changes only when it catches up with the writer: there the page is read directly,
    /// and a catch-up landing mid-page can only make `last_run` and the in-progress flag a
    /// catch-up older or newer than the points.
    pub fn series(&self, q: &SeriesQuery) -> Result<SeriesPage, SeriesError> {
        match self.store.mode() {
            Mode::Secondary => series_in(&*self.store, q),
            _ => series_in(&self.store.snapshot(), q),
        }
    }
}

fn series_in(view: &impl ReadView, q: &SeriesQuery) -> Result<SeriesPage, SeriesError> {
    let cursor = view
        .get::<CmCursor>(&q.chain)?
        .map(|Linear(c)| c)
        .ok_or(SeriesError::NotIndexed(q.chain))?;
    let code = q.interval.code();
    let range = (q.chain, code, q.from)..=(q.chain, code, q.to);
    let mut points = Vec::with_capacity(q.page_size.min(256));
    let mut next = None;
    if q.from <= q.to {
        for entry in view.scan::<CmBuckets, _>(range, Direction::Reverse)? {
            let ((_, _, start), bucket) = entry?;
            if points.len() == q.page_size {
                next = Some(start);
                break;
            }
            points.push(Point {
                timestamp: start,
                value: q.metric.value(&bucket),
                in_progress: cursor.last_time < q.interval.next(start),
            });
        }
    }
    Ok(SeriesPage {
        points,
        next,
        last_run: cursor.last_time,
    })
}
