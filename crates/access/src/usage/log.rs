//! [`UsageLog`]: the stored events — appending, reading a range, pruning and aggregating.

use std::sync::Arc;

use snowline_store::{Direction, Part, ReadView, Store, StoreError, Table, WriteBatch};

use super::aggregate::Aggregator;
use super::event::{EventRef, UsageEvent, decode_ref, encode};
use super::query::UsageQuery;
use super::response::UsageMetrics;
use super::table::UsageEventsTable;
use crate::error::Result;

/// Deletes per write batch while pruning.
const PRUNE_BATCH: usize = 10_000;

/// The usage events in the binary's main store (opened with [`tables`](super::tables) in its
/// schema). Cheap to clone; the writer thread and the REST handlers share one store.
#[derive(Debug, Clone)]
pub struct UsageLog {
    store: Arc<Store>,
}

impl UsageLog {
    /// A log over `store`, whose schema must include [`tables`](super::tables).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// The underlying store.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// Writes `events` in one atomic batch, keyed `(timestamp_ms, seq)` with `seq` taken from
    /// `next_seq` and advanced (the caller keeps `seq` unique per store).
    pub fn append(&self, events: &[UsageEvent], next_seq: &mut u64) -> Result<()> {
        if events.is_empty() {
            return Ok(());
        }
        let mut batch = WriteBatch::new();
        let mut value = Vec::with_capacity(128);
        for e in events {
            value.clear();
            encode(e, &mut value);
            batch.put::<UsageEventsTable>(&(e.timestamp_ms, *next_seq), &value);
            *next_seq = next_seq.wrapping_add(1);
        }
        Ok(self.store.write(batch)?)
    }

    /// Every stored event with `start_ms <= timestamp_ms < end_ms`, oldest first.
    pub fn events(&self, start_ms: u64, end_ms: u64) -> Result<Vec<UsageEvent>> {
        let mut out = Vec::new();
        self.for_each(start_ms, end_ms, |e| out.push(e.to_owned_event()))?;
        Ok(out)
    }

    /// Deletes every event older than `ts_ms` (retention); returns how many were deleted.
    /// Deletes key by key in batches (the store has no range delete); compaction reclaims the
    /// space later.
    pub fn prune_before(&self, ts_ms: u64) -> Result<u64> {
        let mut deleted = 0u64;
        let mut batch = WriteBatch::new();
        for entry in self
            .store
            .scan::<UsageEventsTable, _>(..(ts_ms, 0), Direction::Forward)?
        {
            let (key, _) = entry?;
            batch.delete::<UsageEventsTable>(&key);
            if batch.len() >= PRUNE_BATCH {
                deleted += batch.len() as u64;
                self.store.write(std::mem::take(&mut batch))?;
            }
        }
        deleted += batch.len() as u64;
        if !batch.is_empty() {
            self.store.write(batch)?;
        }
        Ok(deleted)
    }

    /// Aggregates the events of `q`'s range: one forward scan of `[start_ms, end_ms)`, every
    /// event decoded and folded (see `docs/access.md` for the cost and the planned rollups).
    pub fn aggregate(&self, q: &UsageQuery) -> Result<UsageMetrics> {
        let mut agg = Aggregator::new(q)?;
        self.for_each(q.start_ms, q.end_ms, |e| agg.add_ref(&e))?;
        Ok(agg.finish())
    }

    /// Calls `f` on every event of `[start_ms, end_ms)`, oldest first, decoded as a borrowed view.
    fn for_each(&self, start_ms: u64, end_ms: u64, mut f: impl FnMut(EventRef<'_>)) -> Result<()> {
        if start_ms >= end_ms {
            return Ok(());
        }
        let scan = self
            .store
            .scan::<UsageEventsTable, _>((start_ms, 0)..(end_ms, 0), Direction::Forward)?;
        for entry in scan {
            let ((timestamp_ms, _), bytes) = entry?;
            let event = decode_ref(&bytes, timestamp_ms).map_err(|source| StoreError::Decode {
                table: UsageEventsTable::NAME,
                part: Part::Value,
                source,
            })?;
            f(event);
        }
        Ok(())
    }
}
