//! [`IcmMetrics`]: the metrics API's ICM counts (messages sent), read from `icm_order`. A message
//! is counted once: at its send when the send is indexed, else at its delivery (a source chain
//! not followed). Each read scans `icm_order` over its time range: O(messages in the range).

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_store::{Direction, Linear, Mode, ReadView, Store};
use snowline_types::evm::B256;

use crate::pages::IcmPageError;
use crate::rows::IndexEntry;
use crate::tables::{IcmOrder, IcmSent, Word, side};

/// Entries whose sends are looked up together (one `multi_get` of `icm_sent` per chunk).
const CHUNK: usize = 512;

/// Which end of a message the counts are split by (`groupBy`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IcmGroup {
    /// One count per bucket over every message kept.
    #[default]
    None,
    /// One count per bucket and source blockchain.
    Source,
    /// One count per bucket and destination blockchain.
    Destination,
    /// One count per bucket and (source, destination) pair.
    Pair,
}

/// Which messages are counted; every filter given must hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcmFilter {
    /// The source blockchain id.
    pub source: Option<B256>,
    /// The destination blockchain id.
    pub destination: Option<B256>,
}

impl IcmFilter {
    fn keeps(&self, e: &IndexEntry) -> bool {
        self.source.is_none_or(|s| s.0 == e.source)
            && self.destination.is_none_or(|d| d.0 == e.destination)
    }
}

/// A series read: messages at `[from, to]` (Unix seconds, both inclusive), bucketed, grouped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcmCountQuery {
    /// The first second counted.
    pub from: u64,
    /// The last second counted.
    pub to: u64,
    /// Which messages.
    pub filter: IcmFilter,
    /// How each bucket is split.
    pub group: IcmGroup,
}

/// The label of a count: its source and destination, each the group's, else the filter's, else
/// `None` (every chain).
pub type IcmLabel = (Option<B256>, Option<B256>);

/// One count of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IcmCount {
    /// The bucket's start.
    pub start: u64,
    /// The source blockchain (the group's or the filter's; `None`: every source).
    pub source: Option<B256>,
    /// The destination blockchain (the group's or the filter's; `None`: every destination).
    pub destination: Option<B256>,
    /// Messages sent in the bucket.
    pub messages: u64,
}

impl IcmCount {
    /// Where the count sorts within its bucket.
    pub fn label(&self) -> IcmLabel {
        (self.source, self.destination)
    }
}

/// The ICM counts over a store holding the ICM tables.
#[derive(Debug, Clone)]
pub struct IcmMetrics {
    store: Arc<Store>,
}

impl IcmMetrics {
    /// Reads over `store`.
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// The counts of `q`, newest bucket first and by label within a bucket, where `bucket` maps
    /// a time to its bucket's start. Counts up to and including `after` (a bucket start and a
    /// label in it), and newer buckets, are left out; reading stops after the first whole bucket
    /// that brings the counts to `enough`. Cost: the entries from `q.to` to the last bucket read.
    pub fn counts(
        &self,
        q: &IcmCountQuery,
        bucket: &dyn Fn(u64) -> u64,
        after: Option<(u64, IcmLabel)>,
        enough: usize,
    ) -> Result<Vec<IcmCount>, IcmPageError> {
        let mut out = Vec::new();
        let mut current: Option<(u64, BTreeMap<IcmLabel, u64>)> = None;
        let flush = |out: &mut Vec<IcmCount>, (start, groups): (u64, BTreeMap<IcmLabel, u64>)| {
            for ((source, destination), messages) in groups {
                let resumed = after.is_some_and(|(s, l)| s == start && (source, destination) <= l);
                if !resumed {
                    out.push(IcmCount {
                        start,
                        source,
                        destination,
                        messages,
                    });
                }
            }
        };
        let mut visit = |t: u64, e: &IndexEntry| {
            let start = bucket(t);
            if after.is_some_and(|(s, _)| start > s) {
                // A bucket newer than the one resumed was served already.
                return true;
            }
            if current.as_ref().is_some_and(|(s, _)| *s != start) {
                if let Some(done) = current.take() {
                    flush(&mut out, done);
                }
                if out.len() >= enough {
                    return false;
                }
            }
            let (_, groups) = current.get_or_insert_with(|| (start, BTreeMap::new()));
            *groups.entry(label(q, e)).or_insert(0) += 1;
            true
        };
        self.each(q, Direction::Reverse, &mut visit)?;
        if let Some(done) = current.take() {
            flush(&mut out, done);
        }
        Ok(out)
    }

    /// Messages kept by `filter` sent at or after each of `starts` (up to the newest indexed),
    /// read in one scan from the earliest. Cost: the entries from the earliest start on.
    pub fn totals_since(
        &self,
        filter: &IcmFilter,
        starts: &[u64],
    ) -> Result<Vec<u64>, IcmPageError> {
        let mut totals = vec![0u64; starts.len()];
        let Some(&from) = starts.iter().min() else {
            return Ok(totals);
        };
        let q = IcmCountQuery {
            from,
            to: u64::MAX,
            filter: *filter,
            group: IcmGroup::None,
        };
        self.each(&q, Direction::Forward, &mut |t, _| {
            for (total, start) in totals.iter_mut().zip(starts) {
                *total += u64::from(t >= *start);
            }
            true
        })?;
        Ok(totals)
    }

    /// The time of the newest entry of `icm_order` (either side), if any.
    pub fn newest(&self) -> Result<Option<u64>, IcmPageError> {
        let first = self
            .store
            .scan::<IcmOrder, _>(.., Direction::Reverse)?
            .next()
            .transpose()?;
        Ok(first.map(|((t, _, _), _)| t))
    }

    /// Calls `f` with the time and entry of each message `q` keeps, in `dir` order, until it
    /// returns false. A secondary has no snapshots; its data changes only when it catches up.
    fn each(
        &self,
        q: &IcmCountQuery,
        dir: Direction,
        f: &mut dyn FnMut(u64, &IndexEntry) -> bool,
    ) -> Result<(), IcmPageError> {
        match self.store.mode() {
            Mode::Secondary => each_in(&*self.store, q, dir, f),
            _ => each_in(&self.store.snapshot(), q, dir, f),
        }
    }
}

/// The label `e` is counted under in `q`.
fn label(q: &IcmCountQuery, e: &IndexEntry) -> IcmLabel {
    let (source, destination) = (Some(B256::from(e.source)), Some(B256::from(e.destination)));
    let (fs, fd) = (q.filter.source, q.filter.destination);
    match q.group {
        IcmGroup::None => (fs, fd),
        IcmGroup::Source => (source, fd),
        IcmGroup::Destination => (fs, destination),
        IcmGroup::Pair => (source, destination),
    }
}

fn each_in(
    view: &impl ReadView,
    q: &IcmCountQuery,
    dir: Direction,
    f: &mut dyn FnMut(u64, &IndexEntry) -> bool,
) -> Result<(), IcmPageError> {
    if q.from > q.to {
        return Ok(());
    }
    let range = (q.from, [0u8; 32], 0u8)..=(q.to, [0xffu8; 32], u8::MAX);
    let mut scan = view.scan::<IcmOrder, _>(range, dir)?;
    let mut chunk: Vec<((u64, Word, u8), IndexEntry)> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        let mut read = 0;
        for entry in scan.by_ref().take(CHUNK) {
            read += 1;
            let (key, Linear(e)) = entry?;
            if q.filter.keeps(&e) {
                chunk.push((key, e));
            }
        }
        // A delivery is counted only when its send is not indexed (the send counts it).
        let delivered: Vec<Word> = chunk
            .iter()
            .filter(|((_, _, s), _)| *s == side::DESTINATION)
            .map(|((_, id, _), _)| *id)
            .collect();
        let mut sent = view.multi_get::<IcmSent>(&delivered)?.into_iter();
        for ((t, _, s), e) in &chunk {
            let counted = *s == side::SOURCE || sent.next().flatten().is_none();
            if counted && !f(*t, e) {
                return Ok(());
            }
        }
        if read < CHUNK {
            return Ok(());
        }
    }
}
