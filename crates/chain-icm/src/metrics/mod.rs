//! [`IcmMetrics`]: the metrics API's ICM counts (messages sent), read from the counter rows the
//! deriver keeps (`icm_counts`, `counts.rs`). A message is counted once: at its send when
//! the send is indexed, else at its delivery (a source chain not followed). A series costs
//! O(buckets × groups) rows; only a bucket the range cuts (a range not on bucket bounds) is
//! summed from finer rows and, for a cut hour, from the messages of that hour (`icm_order`).

pub(crate) mod counts;
mod query;

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_chain_metrics::Interval;
use snowline_store::{Direction, Linear, Mode, ReadView, Store};
use snowline_types::evm::B256;

use crate::error::IcmError;
use crate::rows::IndexEntry;
use crate::rows::Word;
use crate::tables::{IcmCounts, IcmOrder, IcmSent, side};
use counts::Shape;
pub use query::{IcmCount, IcmCountQuery, IcmFilter, IcmGroup, IcmLabel};

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

    /// The counts of `q` in `interval`'s buckets, newest bucket first and by label within a
    /// bucket. Counts up to and including `after` (a bucket start and a label in it), and newer
    /// buckets, are left out; reading stops after the first whole bucket that brings the counts
    /// to `enough`. Cost: the counter rows of the buckets read (a row per label and writing
    /// chain), plus, for a bucket `q` cuts, up to 46 hour and 30 day rows per label and the
    /// messages of the cut hours.
    pub fn counts(
        &self,
        q: &IcmCountQuery,
        interval: Interval,
        after: Option<(u64, IcmLabel)>,
        enough: usize,
    ) -> Result<Vec<IcmCount>, IcmError> {
        // A secondary has no snapshots; its data changes only when it catches up.
        match self.store.mode() {
            Mode::Secondary => counts_in(&*self.store, q, interval, after, enough),
            _ => counts_in(&self.store.snapshot(), q, interval, after, enough),
        }
    }

    /// Messages kept by `filter` sent at or after each of `starts` (up to the newest indexed).
    /// Cost per start: up to 23 hour, 30 day and every month row (a row per writing chain), plus
    /// the messages before the next hour when the start is not on one.
    pub fn totals_since(&self, filter: &IcmFilter, starts: &[u64]) -> Result<Vec<u64>, IcmError> {
        match self.store.mode() {
            Mode::Secondary => totals_in(&*self.store, filter, starts),
            _ => totals_in(&self.store.snapshot(), filter, starts),
        }
    }

    /// The time of the newest entry of `icm_order` (either side), if any.
    pub fn newest(&self) -> Result<Option<u64>, IcmError> {
        newest_in(&*self.store)
    }
}

fn newest_in(view: &impl ReadView) -> Result<Option<u64>, IcmError> {
    let first = view
        .scan::<IcmOrder, _>(.., Direction::Reverse)?
        .next()
        .transpose()?;
    Ok(first.map(|((t, _, _), _)| t))
}

/// Counts by label, summed over writers (and over rows of finer buckets).
type Groups = BTreeMap<IcmLabel, i64>;

fn counts_in(
    view: &impl ReadView,
    q: &IcmCountQuery,
    interval: Interval,
    after: Option<(u64, IcmLabel)>,
    enough: usize,
) -> Result<Vec<IcmCount>, IcmError> {
    let Some(newest) = newest_in(view)? else {
        return Ok(Vec::new());
    };
    if q.from > q.to || q.from > newest {
        return Ok(Vec::new());
    }
    let to = q.to.min(newest);
    // A bucket is whole when the range holds all of it that is indexed.
    let whole = |b: u64| b >= q.from && (q.to >= newest || interval.next(b) <= q.to + 1);
    let (first, last) = (interval.start(q.from), interval.start(to));
    let top = after.map_or(last, |(s, _)| s.min(last));
    let mut out = Vec::new();
    if top < first {
        return Ok(out);
    }
    let shape = Shape::of(&q.filter, q.group);
    let emit = |out: &mut Vec<IcmCount>, start: u64, groups: Groups| -> Result<(), IcmError> {
        for ((source, destination), n) in groups {
            let resumed = after.is_some_and(|(s, l)| s == start && (source, destination) <= l);
            if n == 0 || resumed {
                continue;
            }
            out.push(IcmCount {
                start,
                source,
                destination,
                messages: u64::try_from(n)
                    .map_err(|_| IcmError::Corrupt(format!("a negative count at {start}")))?,
            });
        }
        Ok(())
    };
    let cut = |b: u64| -> Result<Groups, IcmError> {
        let end = interval.next(b).saturating_sub(1).min(to);
        let mut groups = Groups::new();
        add_span(view, q, shape, q.from.max(b), end, &mut groups)?;
        Ok(groups)
    };
    // The newest bucket read, when the range cuts it.
    let mut high = top;
    if !whole(top) {
        emit(&mut out, top, cut(top)?)?;
        if out.len() >= enough || top == first {
            return Ok(out);
        }
        high = top - 1;
    }
    let low = if whole(first) { first } else { first + 1 };
    if low <= high {
        let code = shape.code(interval);
        let fixed = fixed_of(shape, &q.filter);
        let range = (code, fixed, low, [0u8; 64], 0)..=(code, fixed, high, [0xff; 64], u64::MAX);
        let mut current: Option<(u64, Groups)> = None;
        for row in view.scan::<IcmCounts, _>(range, Direction::Reverse)? {
            let ((_, _, start, grouped, _), n) = row?;
            if current.as_ref().is_some_and(|(s, _)| *s != start) {
                if let Some((s, groups)) = current.take() {
                    emit(&mut out, s, groups)?;
                }
                if out.len() >= enough {
                    return Ok(out);
                }
            }
            let (_, groups) = current.get_or_insert_with(|| (start, Groups::new()));
            *groups.entry(shape.label(&q.filter, &grouped)).or_insert(0) += n;
        }
        if let Some((s, groups)) = current.take() {
            emit(&mut out, s, groups)?;
        }
        if out.len() >= enough {
            return Ok(out);
        }
    }
    // The oldest bucket, when the range cuts it (and it is not the newest, done above).
    if !whole(first) && first < top {
        emit(&mut out, first, cut(first)?)?;
    }
    Ok(out)
}

fn totals_in(
    view: &impl ReadView,
    filter: &IcmFilter,
    starts: &[u64],
) -> Result<Vec<u64>, IcmError> {
    let Some(newest) = newest_in(view)? else {
        return Ok(vec![0; starts.len()]);
    };
    let q = IcmCountQuery {
        from: 0,
        to: newest,
        filter: *filter,
        group: IcmGroup::None,
    };
    let shape = Shape::of(filter, IcmGroup::None);
    starts
        .iter()
        .map(|&from| {
            let mut groups = Groups::new();
            if from <= newest {
                // [from, the next hour) from the messages, then hours to the next day, days
                // to the next month, and every month from there.
                let hour = ceil(Interval::Hour, from);
                if from < hour {
                    add_messages(view, &q, from, (hour - 1).min(newest), &mut groups)?;
                }
                let day = ceil(Interval::Day, hour);
                let month = ceil(Interval::Month, day);
                add_rows(view, &q, shape, Interval::Hour, hour, day, &mut groups)?;
                add_rows(view, &q, shape, Interval::Day, day, month, &mut groups)?;
                add_rows(
                    view,
                    &q,
                    shape,
                    Interval::Month,
                    month,
                    u64::MAX,
                    &mut groups,
                )?;
            }
            let total: i64 = groups.values().sum();
            u64::try_from(total)
                .map_err(|_| IcmError::Corrupt(format!("a negative total since {from}")))
        })
        .collect()
}

/// The first bucket start of `interval` at or after `t`.
fn ceil(interval: Interval, t: u64) -> u64 {
    let start = interval.start(t);
    if start == t { t } else { interval.next(start) }
}

fn fixed_of(shape: Shape, filter: &IcmFilter) -> [u8; 64] {
    let id = |x: Option<B256>| x.map_or([0u8; 32], |b| b.0);
    shape.fixed(&id(filter.source), &id(filter.destination))
}

/// Adds the counts of `[a, b]` (seconds, within one bucket of a month at most) to `groups`:
/// whole days from day rows, whole hours from hour rows, the cut hours from the messages.
fn add_span(
    view: &impl ReadView,
    q: &IcmCountQuery,
    shape: Shape,
    a: u64,
    b: u64,
    groups: &mut Groups,
) -> Result<(), IcmError> {
    if b < a {
        return Ok(());
    }
    let (h0, h1) = (
        ceil(Interval::Hour, a),
        Interval::Hour.start(b.saturating_add(1)),
    );
    if h0 >= h1 {
        return add_messages(view, q, a, b, groups);
    }
    if a < h0 {
        add_messages(view, q, a, h0 - 1, groups)?;
    }
    if h1 <= b {
        add_messages(view, q, h1, b, groups)?;
    }
    let (d0, d1) = (ceil(Interval::Day, h0), Interval::Day.start(h1));
    if d0 >= d1 {
        return add_rows(view, q, shape, Interval::Hour, h0, h1, groups);
    }
    add_rows(view, q, shape, Interval::Hour, h0, d0, groups)?;
    add_rows(view, q, shape, Interval::Day, d0, d1, groups)?;
    add_rows(view, q, shape, Interval::Hour, d1, h1, groups)
}

/// Adds the counter rows of `interval` with starts in `[from, until)` to `groups`.
fn add_rows(
    view: &impl ReadView,
    q: &IcmCountQuery,
    shape: Shape,
    interval: Interval,
    from: u64,
    until: u64,
    groups: &mut Groups,
) -> Result<(), IcmError> {
    if until <= from {
        return Ok(());
    }
    let code = shape.code(interval);
    let fixed = fixed_of(shape, &q.filter);
    let range = (code, fixed, from, [0u8; 64], 0)..=(code, fixed, until - 1, [0xff; 64], u64::MAX);
    for row in view.scan::<IcmCounts, _>(range, Direction::Forward)? {
        let ((_, _, _, grouped, _), n) = row?;
        *groups.entry(shape.label(&q.filter, &grouped)).or_insert(0) += n;
    }
    Ok(())
}

/// Entries whose sends are looked up together (one `multi_get` of `icm_sent` per chunk).
const CHUNK: usize = 512;

/// Adds the messages of `[a, b]` (seconds) to `groups`, from `icm_order` by the counting rule:
/// a delivery's entry counts only when its send is not indexed.
fn add_messages(
    view: &impl ReadView,
    q: &IcmCountQuery,
    a: u64,
    b: u64,
    groups: &mut Groups,
) -> Result<(), IcmError> {
    if b < a {
        return Ok(());
    }
    let range = (a, [0u8; 32], 0u8)..=(b, [0xffu8; 32], u8::MAX);
    let mut scan = view.scan::<IcmOrder, _>(range, Direction::Forward)?;
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
        let delivered: Vec<Word> = chunk
            .iter()
            .filter(|((_, _, s), _)| *s == side::DESTINATION)
            .map(|((_, id, _), _)| *id)
            .collect();
        let mut sent = view.multi_get::<IcmSent>(&delivered)?.into_iter();
        for ((_, _, s), e) in &chunk {
            let counted = *s == side::SOURCE || sent.next().flatten().is_none();
            if counted {
                *groups.entry(label(q, e)).or_insert(0) += 1;
            }
        }
        if read < CHUNK {
            return Ok(());
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
