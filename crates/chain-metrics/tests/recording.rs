//! Both EVM recordings, as recorded and moved in time to span hours, days, weeks and a month
//! boundary, indexed through the replay server with the metrics hook: every metric of every
//! bucket of every interval equals what `snowline_evm_devnet::metrics_model` computes from the
//! recorded JSON; batch sizes do not change a row; pages of any size tile the series.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use common::{index, open};
use snowline_chain_metrics::tables::{CmAddresses, CmBuckets, CmCursor};
use snowline_chain_metrics::{Interval, Metric, MetricsPages, Point, SeriesQuery, Value};
use snowline_evm_devnet::metrics_model::{Expected, SPREAD_GAPS, expected_metrics, retime};
use snowline_evm_devnet::model::RecordingModel;
use snowline_evm_devnet::recording_path;
use snowline_store::{Direction, ReadView, Store, Table};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn same(got: Value, want: Expected) -> bool {
    match (got, want) {
        (Value::Count(g), Expected::Count(w)) => g == w,
        (Value::Ratio(g), Expected::Ratio(w)) => close(g, w),
        _ => false,
    }
}

fn full(pages: &MetricsPages, chain: u64, metric: Metric, interval: Interval) -> Vec<Point> {
    let q = SeriesQuery {
        chain,
        metric,
        interval,
        from: 0,
        to: u64::MAX,
        page_size: 10_000,
    };
    let page = pages.series(&q).unwrap();
    assert_eq!(page.next, None);
    page.points
}

/// Every metric at every interval it allows equals the model's, newest first.
fn check(store: &Arc<Store>, chain: u64, model: &RecordingModel) {
    let expected = expected_metrics(model);
    let pages = MetricsPages::new(Arc::clone(store));
    let mut compared = 0;
    for metric in Metric::ALL {
        for interval in metric.intervals() {
            let points = full(&pages, chain, metric, interval);
            let want: Vec<_> = expected
                .iter()
                .filter(|((i, _), _)| *i == interval.name())
                .rev()
                .collect();
            assert_eq!(
                points.len(),
                want.len(),
                "{} {}",
                metric.name(),
                interval.name()
            );
            for (p, ((_, start), bucket)) in points.iter().zip(want) {
                assert_eq!(p.timestamp, *start);
                let w = bucket.values[metric.name()];
                assert!(
                    same(p.value, w),
                    "chain {chain} {} {} at {start}: got {:?}, expected {w:?}",
                    metric.name(),
                    interval.name(),
                    p.value
                );
                assert_eq!(p.in_progress, bucket.in_progress);
                compared += 1;
            }
        }
    }
    assert!(compared > 17);
}

fn dump<T: Table>(store: &Store, out: &mut Vec<String>)
where
    T::Key: std::fmt::Debug,
    T::Value: std::fmt::Debug,
{
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        out.push(format!("{} {:?}", T::NAME, e.unwrap()));
    }
}

fn dump_metrics(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    dump::<CmBuckets>(store, &mut out);
    dump::<CmAddresses>(store, &mut out);
    dump::<CmCursor>(store, &mut out);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_equal_the_recordings() {
    for chain in [43112u64, 99999] {
        let text = std::fs::read_to_string(recording_path(chain)).unwrap();
        for text in [text.clone(), retime(&text, 1_700_000_000, &SPREAD_GAPS)] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("rec.jsonl"), &text).unwrap();
            let model = RecordingModel::load(&dir.path().join("rec.jsonl"));
            let store = open(&dir.path().join("a"));
            index(&store, &text, 3).await;
            check(&store, chain, &model);

            // One block a batch, or all at once: the same rows.
            let one = open(&dir.path().join("b"));
            index(&one, &text, 1).await;
            let all = open(&dir.path().join("c"));
            index(&all, &text, 64).await;
            let rows = dump_metrics(&store);
            assert!(!rows.is_empty());
            assert_eq!(rows, dump_metrics(&one));
            assert_eq!(rows, dump_metrics(&all));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_tile_the_series_newest_first() {
    let text = std::fs::read_to_string(recording_path(43112)).unwrap();
    let text = retime(&text, 1_700_000_000, &SPREAD_GAPS);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    index(&store, &text, 4).await;
    let pages = MetricsPages::new(Arc::clone(&store));
    for interval in Interval::ALL {
        let all = full(&pages, 43112, Metric::TxCount, interval);
        assert!(all.windows(2).all(|w| w[0].timestamp > w[1].timestamp));
        assert!(all.iter().skip(1).all(|p| !p.in_progress));
        for size in 1..=all.len() + 1 {
            let mut got = Vec::new();
            let mut to = u64::MAX;
            loop {
                let q = SeriesQuery {
                    chain: 43112,
                    metric: Metric::TxCount,
                    interval,
                    from: 0,
                    to,
                    page_size: size,
                };
                let page = pages.series(&q).unwrap();
                assert!(page.points.len() <= size);
                got.extend(page.points);
                match page.next {
                    Some(next) => to = next,
                    None => break,
                }
            }
            assert_eq!(got, all, "{} pages of {size}", interval.name());
        }
        // A range keeps the buckets starting inside it.
        if all.len() > 2 {
            let q = SeriesQuery {
                chain: 43112,
                metric: Metric::TxCount,
                interval,
                from: all[all.len() - 2].timestamp,
                to: all[1].timestamp,
                page_size: 100,
            };
            assert_eq!(pages.series(&q).unwrap().points, all[1..all.len() - 1]);
        }
    }
    let unknown = SeriesQuery {
        chain: 1,
        metric: Metric::TxCount,
        interval: Interval::Day,
        from: 0,
        to: u64::MAX,
        page_size: 1,
    };
    assert!(pages.series(&unknown).is_err());
}
