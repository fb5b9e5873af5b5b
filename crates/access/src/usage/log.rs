//! [`UsageLog`]: the stored events — appending, reading a range, pruning and aggregating.

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_store::{Direction, Part, ReadView, Store, StoreError, Table, WriteBatch};

use super::aggregate::Aggregator;
use super::event::{UsageEvent, UsageEventRef, decode_ref};
use super::query::UsageQuery;
use super::queue::Queue;
use super::response::UsageMetrics;
use super::rows::UsageRow;
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
fn for_each_in_block<'a>(
    minute: u64,
    block: &'a [u8],
    mut f: impl FnMut(u64, &'a [u8]),
) -> std::result::Result<(), StoreError> {
    let mut r = Reader::new(block);
    while !r.is_empty() {
        let offset = r.varint().map_err(corrupt)?;
        let bytes = r.bytes().map_err(corrupt)?;
        f(minute.saturating_add(offset), bytes);
    }
    Ok(())
}

/// Where an event is in the log: its row (minute start ms, row sequence number) and its index
/// in the row. Stable for as long as the event is kept (pruning rewrites only rows of the
/// cutoff's minute, keeping the newer events' order but not their indexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LogPosition {
    /// The row's minute, ms.
    pub minute: u64,
    /// The row's sequence number.
    pub row: u64,
    /// The event's index in the row.
    pub index: u32,
}

impl LogPosition {
    /// The 20 bytes of a position, `minute u64 ‖ row u64 ‖ index u32` big-endian: what a page
    /// token and a log id carry.
    pub fn to_bytes(&self) -> [u8; 20] {
        let mut b = [0u8; 20];
        b[..8].copy_from_slice(&self.minute.to_be_bytes());
        b[8..16].copy_from_slice(&self.row.to_be_bytes());
        b[16..].copy_from_slice(&self.index.to_be_bytes());
        b
    }

    /// The position [`to_bytes`](Self::to_bytes) gave.
    pub fn from_bytes(b: &[u8]) -> Option<Self> {
        let b: &[u8; 20] = b.try_into().ok()?;
        let (m, rest) = b.split_first_chunk::<8>()?;
        let (r, i) = rest.split_first_chunk::<8>()?;
        let i: [u8; 4] = i.try_into().ok()?;
        Some(Self {
            minute: u64::from_be_bytes(*m),
            row: u64::from_be_bytes(*r),
            index: u32::from_be_bytes(i),
        })
    }
}

/// A page of the request log: the events with their positions, and where the next page starts
/// (`None`: no more).
pub type LogPage = (Vec<(LogPosition, UsageEvent)>, Option<LogPosition>);

/// The rows of the events in `queue`: one per UTC minute they fall in, keyed `(minute start
/// ms, seq)` with `seq` taken from `next_seq` and advanced.
pub(crate) fn rows_of(queue: &Queue, next_seq: &mut u64) -> Vec<UsageRow> {
    let mut blocks: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    queue.for_each(|ts, value| {
        let minute = minute_of(ts);
        let block = blocks.entry(minute).or_default();
        put_varint(block, ts - minute);
        put_varint(block, value.len() as u64);
        block.extend_from_slice(value);
    });
    blocks
        .into_iter()
        .map(|(minute, block)| {
            let seq = *next_seq;
            *next_seq = next_seq.wrapping_add(1);
            UsageRow { minute, seq, block }
        })
        .collect()
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
        self.write_rows(&rows_of(queue, next_seq))
    }

    /// Stores `rows` as they are, in one atomic batch: a fleet's node storing the rows every
    /// node writes. Storing a row again changes nothing.
    pub fn write_rows(&self, rows: &[UsageRow]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut batch = WriteBatch::new();
        for row in rows {
            batch.put::<UsageEventsTable>(&(row.minute, row.seq), &row.block);
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

    /// The request log of `q` (its range, organisation and filters; its interval and grouping
    /// unused), newest first, `limit` at a time after `after`: see
    /// [`page_newest_first`](Self::page_newest_first).
    pub fn logs(
        &self,
        q: &UsageQuery,
        after: Option<LogPosition>,
        limit: usize,
    ) -> Result<LogPage> {
        let agg = Aggregator::new(q)?;
        self.page_newest_first(q.start_ms, q.end_ms, after, limit, |e| agg.matches_ref(e))
    }

    /// The request log, newest first: up to `limit` events of `[start_ms, end_ms)` that `keep`
    /// accepts, each with its [`LogPosition`], strictly after `after` (a position a previous
    /// page ended on) when given; and the position to continue from when more may follow.
    /// "Newest" is by row: rows by minute and write order, descending; a row's events in
    /// reverse write order. One backward scan from where the page starts.
    pub fn page_newest_first(
        &self,
        start_ms: u64,
        end_ms: u64,
        after: Option<LogPosition>,
        limit: usize,
        mut keep: impl FnMut(&UsageEventRef<'_>) -> bool,
    ) -> Result<LogPage> {
        use std::ops::Bound;
        let mut out: Vec<(LogPosition, UsageEvent)> = Vec::new();
        if start_ms >= end_ms || limit == 0 {
            return Ok((out, None));
        }
        let low = Bound::Included((minute_of(start_ms), 0));
        let high = match after {
            Some(p) => Bound::Included((p.minute, p.row)),
            None => Bound::Excluded((end_ms, 0)),
        };
        let scan = self
            .store
            .scan::<UsageEventsTable, _>((low, high), Direction::Reverse)?;
        for entry in scan {
            let ((minute, row), block) = entry?;
            let mut events: Vec<(u64, &[u8])> = Vec::new();
            for_each_in_block(minute, &block, |ts, bytes| events.push((ts, bytes)))?;
            for (index, (ts, bytes)) in events.iter().enumerate().rev() {
                let index = index as u32;
                let at = LogPosition { minute, row, index };
                if after.is_some_and(|p| (p.minute, p.row) == (minute, row) && index >= p.index) {
                    continue;
                }
                if *ts < start_ms || *ts >= end_ms {
                    continue;
                }
                let event = decode_ref(bytes, *ts).map_err(corrupt)?;
                if !keep(&event) {
                    continue;
                }
                if out.len() == limit {
                    let next = out.last().map(|(p, _)| *p);
                    return Ok((out, next));
                }
                out.push((at, event.to_event()));
            }
        }
        Ok((out, None))
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
