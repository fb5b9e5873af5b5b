//! [`UsageLog`]: the stored events — appending, reading a range, pruning and aggregating.

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_store::{Direction, Part, ReadView, Store, StoreError, Table, WriteBatch};

use super::aggregate::Aggregator;
use super::event::{UsageEvent, UsageEventRef, decode_ref};
use super::query::UsageQuery;
use super::queue::Queue;
use super::response::UsageMetrics;
use super::table::UsageEventsTable;
use crate::bytes::{Reader, put_varint};
use crate::error::Result;

/// One UTC minute, in ms: rows hold the events of one minute.
const MINUTE_MS: u64 = 60_000;

/// The start of the minute holding `ts_ms`.
fn minute_of(ts_ms: u64) -> u64 {
    ts_ms - ts_ms % MINUTE_MS
}

fn corrupt(source: snowline_store::DecodeError) -> StoreError {
    StoreError::Decode {
        table: UsageEventsTable::NAME,
        part: Part::Value,
        source,
    }
}

/// Calls `f(timestamp_ms, encoded event)` for each event of a row of minute `minute`.
fn for_each_in_block(
    minute: u64,
    block: &[u8],
    mut f: impl FnMut(u64, &[u8]),
) -> std::result::Result<(), StoreError> {
    let mut r = Reader::new(block);
    while !r.is_empty() {
        let offset = r.varint().map_err(corrupt)?;
        let bytes = r.bytes().map_err(corrupt)?;
        f(minute.saturating_add(offset), bytes);
    }
    Ok(())
}

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

    /// Writes `events` in one atomic batch: one row per UTC minute they fall in, keyed
    /// `(minute start ms, seq)` with `seq` taken from `next_seq` and advanced (the caller keeps
    /// `seq` unique per store).
    pub fn append(&self, events: &[UsageEvent], next_seq: &mut u64) -> Result<()> {
        let mut queue = Queue::default();
        for e in events {
            queue.push(&e.as_ref());
        }
        self.append_queued(&queue, next_seq)
    }

    /// [`append`](Self::append) for events already encoded in the writer's queue.
    pub(crate) fn append_queued(&self, queue: &Queue, next_seq: &mut u64) -> Result<()> {
        if queue.is_empty() {
            return Ok(());
        }
        let mut blocks: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
        queue.for_each(|ts, value| {
            let minute = minute_of(ts);
            let block = blocks.entry(minute).or_default();
            put_varint(block, ts - minute);
            put_varint(block, value.len() as u64);
            block.extend_from_slice(value);
        });
        let mut batch = WriteBatch::new();
        for (minute, block) in &blocks {
            batch.put::<UsageEventsTable>(&(*minute, *next_seq), block);
            *next_seq = next_seq.wrapping_add(1);
        }
        Ok(self.store.write(batch)?)
    }

    /// Every stored event with `start_ms <= timestamp_ms < end_ms`, minute by minute (within a
    /// minute in the order written).
    pub fn events(&self, start_ms: u64, end_ms: u64) -> Result<Vec<UsageEvent>> {
        let mut out = Vec::new();
        self.for_each(start_ms, end_ms, |e| out.push(e.to_event()))?;
        Ok(out)
    }

    /// Deletes every event older than `ts_ms` (retention); returns how many were deleted.
    /// Rows of earlier minutes are deleted whole; rows of `ts_ms`'s own minute are rewritten
    /// with the events they keep. Deletes key by key in batches (the store has no range delete);
    /// compaction reclaims the space later.
    pub fn prune_before(&self, ts_ms: u64) -> Result<u64> {
        let cutoff_minute = minute_of(ts_ms);
        let mut deleted = 0u64;
        let mut batch = WriteBatch::new();
        let end = (cutoff_minute.saturating_add(MINUTE_MS), 0);
        for entry in self
            .store
            .scan::<UsageEventsTable, _>(..end, Direction::Forward)?
        {
            let (key, block) = entry?;
            let mut kept = Vec::new();
            let mut dropped = 0u64;
            for_each_in_block(key.0, &block, |ts, bytes| {
                if ts < ts_ms {
                    dropped += 1;
                } else {
                    put_varint(&mut kept, ts - key.0);
                    put_varint(&mut kept, bytes.len() as u64);
                    kept.extend_from_slice(bytes);
                }
            })?;
            if dropped == 0 {
                continue;
            }
            deleted += dropped;
            if kept.is_empty() {
                batch.delete::<UsageEventsTable>(&key);
            } else {
                batch.put::<UsageEventsTable>(&key, &kept);
            }
            if batch.len() >= PRUNE_BATCH {
                self.store.write(std::mem::take(&mut batch))?;
            }
        }
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

    /// Calls `f` on every event of `[start_ms, end_ms)`, by minute (within a minute, in the order
    /// written), decoded as a borrowed view.
    fn for_each(
        &self,
        start_ms: u64,
        end_ms: u64,
        mut f: impl FnMut(UsageEventRef<'_>),
    ) -> Result<()> {
        if start_ms >= end_ms {
            return Ok(());
        }
        let scan = self.store.scan::<UsageEventsTable, _>(
            (minute_of(start_ms), 0)..(end_ms, 0),
            Direction::Forward,
        )?;
        for entry in scan {
            let ((minute, _), block) = entry?;
            let mut failed = None;
            for_each_in_block(minute, &block, |ts, bytes| {
                if failed.is_some() || ts < start_ms || ts >= end_ms {
                    return;
                }
                match decode_ref(bytes, ts) {
                    Ok(event) => f(event),
                    Err(e) => failed = Some(e),
                }
            })?;
            if let Some(source) = failed {
                return Err(corrupt(source).into());
            }
        }
        Ok(())
    }
}
