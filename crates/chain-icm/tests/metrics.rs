//! The ICM counts ([`IcmMetrics`]) over both devnet ICM recordings, indexed through the replay
//! server as `recording.rs` indexes them, against counts made here from
//! `snowline_evm_devnet::icm_model` (43112's blocks moved apart in time; a message at its send's time, else its delivery's), with
//! bucket starts computed here too: every bucket of every interval, grouped every way, filtered
//! every way, over time ranges, in pages of any size; and with only one chain indexed (messages
//! whose source is not followed counted at their delivery).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use common::open;
use snowline_chain_icm::IcmLabel;
use snowline_chain_icm::{IcmCount, IcmCountQuery, IcmFilter, IcmGroup, IcmMetrics};
use snowline_chain_metrics::Interval;
use snowline_evm_devnet::icm_model::{IcmModel, ModelMessage};
use snowline_evm_devnet::icm_recording_path;
use snowline_evm_devnet::metrics_model::retime;
use snowline_store::Store;
use snowline_types::evm::B256;
use snowline_types::time::{civil_from_days, days_from_civil};

/// Gaps between 43112's blocks: the same second, hour, day, then across days, weeks, months.
const GAPS: [u64; 11] = [
    2,
    0,
    1_500,
    3 * 3_600,
    20 * 3_600,
    2 * DAY,
    5 * DAY,
    1,
    9 * DAY,
    1_800,
    40_000,
];

/// The recording's text: 43112's blocks spread over weeks (so buckets differ), 99999 as recorded.
fn text(chain: u64) -> String {
    let raw = std::fs::read_to_string(icm_recording_path(chain)).unwrap();
    if chain == 43112 {
        retime(&raw, 1_700_000_000, &GAPS)
    } else {
        raw
    }
}

/// The model of the recordings of `chains`, as [`text`] gives them.
fn model(chains: &[u64]) -> IcmModel {
    let lines = |chain| {
        text(chain)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    IcmModel::from_lines(&chains.iter().map(|c| lines(*c)).collect::<Vec<_>>())
}

/// Indexes `chain`'s recording as [`text`] gives it, `per_batch` blocks a batch.
async fn index(store: &Store, chain: u64, per_batch: usize) {
    common::index_text(store, &text(chain), per_batch, &BTreeMap::new(), None).await;
}

const DAY: u64 = 86_400;

/// Bucket starts, written out here: an hour, a UTC day, the week from Monday, the month.
/// An interval's name and its bucket start.
type Bucketing = (&'static str, fn(u64) -> u64);

fn buckets() -> Vec<Bucketing> {
    vec![
        ("hour", |t| t / 3_600 * 3_600),
        ("day", |t| t / DAY * DAY),
        ("week", |t| {
            // 1970-01-01 was a Thursday, 3 days after a Monday.
            let d = t / DAY;
            d.saturating_sub((d + 3) % 7) * DAY
        }),
        ("month", |t| {
            let (y, m, _) = civil_from_days((t / DAY) as i64);
            days_from_civil(y, m, 1) as u64 * DAY
        }),
    ]
}

/// When the model says a message is counted: its send, else its delivery.
fn counted_at(m: &ModelMessage) -> u64 {
    m.source_tx
        .map(|t| t.timestamp)
        .or(m.destination_tx.map(|(t, _, _)| t.timestamp))
        .unwrap()
}

/// The counts `q` should give, from the model: newest bucket first, by label within.
fn expected(model: &IcmModel, q: &IcmCountQuery, bucket: fn(u64) -> u64) -> Vec<IcmCount> {
    let mut by: BTreeMap<(std::cmp::Reverse<u64>, IcmLabel), u64> = BTreeMap::new();
    for m in &model.messages {
        let t = counted_at(m);
        let (s, d) = (m.source_blockchain_id, m.destination_blockchain_id);
        if t < q.from || t > q.to {
            continue;
        }
        if q.filter.source.is_some_and(|x| x != s) || q.filter.destination.is_some_and(|x| x != d) {
            continue;
        }
        let label = match q.group {
            IcmGroup::None => (q.filter.source, q.filter.destination),
            IcmGroup::Source => (Some(s), q.filter.destination),
            IcmGroup::Destination => (q.filter.source, Some(d)),
            IcmGroup::Pair => (Some(s), Some(d)),
        };
        *by.entry((std::cmp::Reverse(bucket(t)), label)).or_insert(0) += 1;
    }
    by.into_iter()
        .map(
            |((std::cmp::Reverse(start), (source, destination)), messages)| IcmCount {
                start,
                source,
                destination,
                messages,
            },
        )
        .collect()
}

/// Every page of `q`, as the metrics API pages: `size` counts a page, resuming after the last.
fn paged(
    metrics: &IcmMetrics,
    q: &IcmCountQuery,
    interval: Interval,
    size: usize,
) -> Vec<IcmCount> {
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let mut rows = metrics.counts(q, interval, after, size + 1).unwrap();
        let more = rows.len() > size;
        rows.truncate(size);
        after = rows.last().map(|c| (c.start, c.label()));
        out.extend(rows);
        if !more {
            return out;
        }
    }
}

fn filters(model: &IcmModel) -> Vec<IcmFilter> {
    let mut ids: Vec<B256> = model
        .messages
        .iter()
        .flat_map(|m| [m.source_blockchain_id, m.destination_blockchain_id])
        .collect();
    ids.sort();
    ids.dedup();
    let mut out = vec![IcmFilter::default()];
    let unknown = B256::repeat_byte(0x5a);
    for &a in ids.iter().chain([&unknown]) {
        out.push(IcmFilter {
            source: Some(a),
            destination: None,
        });
        out.push(IcmFilter {
            source: None,
            destination: Some(a),
        });
        for &b in &ids {
            out.push(IcmFilter {
                source: Some(a),
                destination: Some(b),
            });
        }
    }
    out
}

const GROUPS: [IcmGroup; 4] = [
    IcmGroup::None,
    IcmGroup::Source,
    IcmGroup::Destination,
    IcmGroup::Pair,
];

/// Every interval, group and filter over the whole time and over sub-ranges, whole and paged.
fn check_all(model: &IcmModel, metrics: &IcmMetrics) {
    let mut times: Vec<u64> = model.messages.iter().map(counted_at).collect();
    times.sort();
    let (first, last) = (times[0], *times.last().unwrap());
    let mid = times[times.len() / 2];
    let ranges = [
        (0, u64::MAX),
        (first, last),
        (mid, last),
        (first, mid),
        (mid, mid),
        (last + 1, u64::MAX),
    ];
    let mut nonempty = 0;
    for (name, bucket) in buckets() {
        let interval = Interval::from_name(name).unwrap();
        for filter in filters(model) {
            for group in GROUPS {
                for (from, to) in ranges {
                    let q = IcmCountQuery {
                        from,
                        to,
                        filter,
                        group,
                    };
                    let want = expected(model, &q, bucket);
                    let got = metrics.counts(&q, interval, None, usize::MAX).unwrap();
                    assert_eq!(got, want, "{name} {q:?}");
                    nonempty += usize::from(!want.is_empty());
                    for size in [1, 2, 3] {
                        assert_eq!(
                            paged(metrics, &q, interval, size),
                            want,
                            "{name} {q:?} by {size}"
                        );
                    }
                }
            }
        }
    }
    assert!(nonempty > 100, "{nonempty} non-empty series");
    // Totals since several starts, in one scan, for every filter.
    let starts = [0, first, mid, last, last + 1];
    for filter in filters(model) {
        let want: Vec<u64> = starts
            .iter()
            .map(|s| {
                let q = IcmCountQuery {
                    from: *s,
                    to: u64::MAX,
                    filter,
                    group: IcmGroup::None,
                };
                expected(model, &q, |_| 0).iter().map(|c| c.messages).sum()
            })
            .collect();
        assert_eq!(
            metrics.totals_since(&filter, &starts).unwrap(),
            want,
            "{filter:?}"
        );
    }
    assert_eq!(metrics.newest().unwrap().map(|t| t >= last), Some(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_equal_the_model_for_every_interval_group_filter_and_page() {
    let model = model(&[43112, 99999]);
    assert!(
        model
            .messages
            .iter()
            .any(|m| m.source_tx.is_some() && m.destination_tx.is_some())
    );
    assert!(model.messages.iter().any(|m| m.source_tx.is_none()));
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    index(&store, 43112, 7).await;
    index(&store, 99999, 3).await;
    let metrics = IcmMetrics::new(Arc::clone(&store));
    check_all(&model, &metrics);
    // Each message once: the total over all time is the model's message count.
    let total = metrics.totals_since(&IcmFilter::default(), &[0]).unwrap();
    assert_eq!(total, vec![model.messages.len() as u64]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_one_chain_indexed_a_delivery_is_counted_at_its_time() {
    for chain in [99999, 43112] {
        let model = model(&[chain]);
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        index(&store, chain, 5).await;
        let metrics = IcmMetrics::new(Arc::clone(&store));
        check_all(&model, &metrics);
    }
}

/// A counter row's key without its writer: (interval code, shape), fixed ends, bucket start,
/// grouped ends.
type CountKey = ([u8; 2], [u8; 64], u64, [u8; 64]);

/// Every counter row, by key with its writer.
fn counter_rows(store: &Store) -> BTreeMap<(CountKey, u64), i64> {
    use snowline_chain_icm::tables::IcmCounts;
    use snowline_store::{Direction, ReadView};
    store
        .scan::<IcmCounts, _>(.., Direction::Forward)
        .unwrap()
        .map(|r| {
            let ((shape, fixed, start, grouped, writer), n) = r.unwrap();
            (((shape, fixed, start, grouped), writer), n)
        })
        .collect()
}

/// The counter rows summed over their writers, zeros left out.
fn summed(rows: &BTreeMap<(CountKey, u64), i64>) -> BTreeMap<CountKey, i64> {
    let mut out = BTreeMap::new();
    for ((key, _), n) in rows {
        *out.entry(*key).or_insert(0) += n;
    }
    out.retain(|_, n| *n != 0);
    out
}

/// The summed rows the model gives, laid out as `docs/metrics-api.md` describes the key: each
/// end summed (0), fixed before the bucket start (1) or grouped after it (2), the shape byte
/// `3 × source's + destination's`, the interval codes hour 0, day 1, week 2, month 3.
fn model_rows(model: &IcmModel) -> BTreeMap<CountKey, i64> {
    let mut out = BTreeMap::new();
    for m in &model.messages {
        let t = counted_at(m);
        let (s, d) = (m.source_blockchain_id.0, m.destination_blockchain_id.0);
        for (code, (_, bucket)) in buckets().into_iter().enumerate() {
            for sm in 0..3u8 {
                for dm in 0..3u8 {
                    let half = |mode: u8, want: u8, id: [u8; 32]| {
                        if mode == want { id } else { [0u8; 32] }
                    };
                    let pair = |want: u8| {
                        let mut p = [0u8; 64];
                        p[..32].copy_from_slice(&half(sm, want, s));
                        p[32..].copy_from_slice(&half(dm, want, d));
                        p
                    };
                    let key = ([code as u8, sm * 3 + dm], pair(1), bucket(t), pair(2));
                    *out.entry(key).or_insert(0) += 1;
                }
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counter_rows_do_not_depend_on_batch_sizes_or_the_order_of_the_chains() {
    let model = model(&[43112, 99999]);
    let want = model_rows(&model);
    for order in [[43112, 99999], [99999, 43112]] {
        let mut by_size = Vec::new();
        for per_batch in [1, 64] {
            let dir = tempfile::tempdir().unwrap();
            let store = open(dir.path());
            for chain in order {
                index(&store, chain, per_batch).await;
            }
            let rows = counter_rows(&store);
            assert_eq!(summed(&rows), want, "{order:?} by {per_batch}");
            by_size.push(rows);
        }
        // Each chain's own rows too are the same whatever its batches.
        assert_eq!(by_size[0], by_size[1], "{order:?}");
        if order[0] == 99999 {
            // Deliveries counted before their sends were indexed were moved by the sends.
            assert!(
                by_size[0]
                    .iter()
                    .any(|((_, writer), n)| *writer == 43112 && *n < 0)
            );
        }
    }
    // Both chains at once on two threads, one block a batch: the turn orders their writes.
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let tasks = [43112, 99999].map(|chain| {
        let store = Arc::clone(&store);
        tokio::spawn(async move { index(&store, chain, 1).await })
    });
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(summed(&counter_rows(&store)), want, "at once");
    // The chains interleaved, each stopped every fifth block and resumed by new derivers.
    let dir = tempfile::tempdir().unwrap();
    let mut stop = 0;
    while stop <= 200 {
        let store = open(dir.path());
        for chain in [99999, 43112] {
            common::index_text(&store, &text(chain), 2, &BTreeMap::new(), Some(stop)).await;
        }
        stop += 5;
    }
    let store = open(dir.path());
    for chain in [43112, 99999] {
        index(&store, chain, 3).await;
    }
    assert_eq!(summed(&counter_rows(&store)), want);
}
