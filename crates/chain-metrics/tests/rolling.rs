//! Rolling windows: both EVM recordings, as recorded and moved in time (blocks minutes, hours,
//! days apart, and `SPREAD_GAPS`), indexed through the replay server with the metrics hook: every
//! metric with windows, in each of its windows, equals a model computed here from the recorded
//! JSON (`snowline_evm_devnet::metrics_model::expected_window`, over the blocks, transfers and
//! creations the series' model reads): a window is the blocks from the start of the hour `h − 1` hours before the tip's to
//! the tip; sums, maxima and distinct sets over its blocks, averages over the seconds from the
//! block before its first block (the first block's own time for the chain's first) to the tip.
//! Sums over chains (the `total`/`mainnet`/`testnet` chain ids): both recordings moved to overlap
//! in one store; each summable metric's series and windows equal the sums of the per-chain models.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use common::{index, open};
use snowline_chain_metrics::{
    Metric, MetricsPages, SeriesQuery, Value, Window, summable, windows_of,
};
use snowline_evm_devnet::metrics_model::{
    Expected, ExpectedBucket, SPREAD_GAPS, WINDOWS, bucket, expected_metrics, expected_window,
    last_time, retime, window_start as model_window_start,
};
use snowline_evm_devnet::model::RecordingModel;
use snowline_evm_devnet::recording_path;

/// The model's value of `metric` over the recording's blocks from `start` on.
fn expected(m: &RecordingModel, metric: &str, start: u64) -> Value {
    of(expected_window(m, metric, start).unwrap())
}

fn same(got: Value, want: Value) -> bool {
    match (got, want) {
        (Value::Count(g), Value::Count(w)) => g == w,
        (Value::Ratio(g), Value::Ratio(w)) => (g - w).abs() <= 1e-9 * g.abs().max(w.abs()).max(1.0),
        _ => false,
    }
}

/// The OpenAPI's `ChainRollingWindowMetric`, and the windows active addresses and senders have.
const ROLLING: [&str; 13] = [
    "gasUsed",
    "txCount",
    "avgGps",
    "maxGps",
    "avgTps",
    "maxTps",
    "avgGasPrice",
    "maxGasPrice",
    "feesPaid",
    "contracts",
    "deployers",
    "activeAddresses",
    "activeSenders",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rolling_windows_equal_the_model() {
    let mut differing = 0;
    for chain in [43112u64, 99999] {
        let raw = std::fs::read_to_string(recording_path(chain)).unwrap();
        let texts = [
            raw.clone(),
            retime(&raw, 1_700_000_000, &SPREAD_GAPS),
            retime(&raw, 1_700_000_000, &[1_800]),
            retime(&raw, 1_700_000_000, &[5 * 3_600]),
            retime(&raw, 1_700_000_000, &[3 * 86_400]),
            retime(&raw, 1_700_000_000, &[20 * 86_400]),
        ];
        for text in texts {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("rec.jsonl"), &text).unwrap();
            let model = RecordingModel::load(&dir.path().join("rec.jsonl"));
            let tip = last_time(&model);
            let store = open(&dir.path().join("index"));
            index(&store, &text, 4).await;
            let pages = MetricsPages::new(Arc::clone(&store));
            for metric in Metric::ALL {
                let got = pages.rolling(chain, metric).unwrap();
                assert_eq!(got.last_run, tip);
                let name = metric.name();
                if !ROLLING.contains(&name) {
                    assert!(windows_of(metric).is_empty() && got.values.is_empty());
                    continue;
                }
                let short = ["activeAddresses", "activeSenders"].contains(&name);
                let names: Vec<&str> = got.values.iter().map(|(w, _)| w.name()).collect();
                let all = [
                    "lastHour",
                    "lastDay",
                    "lastWeek",
                    "lastMonth",
                    "last90Days",
                    "lastYear",
                    "allTime",
                ];
                assert_eq!(names, all[..if short { 3 } else { 7 }], "{name}");
                let mut values = Vec::new();
                for (window, value) in &got.values {
                    let start = window_start(*window, tip);
                    let want = expected(&model, name, start);
                    assert!(
                        same(*value, want),
                        "chain {chain} {name} {}: got {value:?}, expected {want:?}",
                        window.name()
                    );
                    values.push(format!("{value:?}"));
                }
                values.dedup();
                differing += usize::from(values.len() > 1);
            }
        }
    }
    // The windows are not all the same: the retimed recordings spread over them.
    assert!(differing > 20, "{differing}");
}

/// A chain's model buckets: `(interval, start) -> bucket`.
type Buckets = std::collections::BTreeMap<(&'static str, u64), ExpectedBucket>;

/// The window's start, from the tip's hour, by the model's own arithmetic.
fn window_start(window: Window, tip: u64) -> u64 {
    let (_, hours) = WINDOWS.iter().find(|(n, _)| *n == window.name()).unwrap();
    model_window_start(*hours, tip)
}

fn plus(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Count(x), Value::Count(y)) => Value::Count(x + y),
        (Value::Ratio(x), Value::Ratio(y)) => Value::Ratio(x + y),
        _ => panic!("mixed values"),
    }
}

/// Zero of `name`'s kind (a count or a ratio).
fn zero(name: &str) -> Value {
    match name {
        "avgTps" | "avgGps" => Value::Ratio(0.0),
        _ => Value::Count(0),
    }
}

fn of(e: Expected) -> Value {
    match e {
        Expected::Count(n) => Value::Count(n),
        Expected::Ratio(x) => Value::Ratio(x),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sums_over_chains_equal_the_per_chain_models() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("index"));
    let texts = [
        (
            43112u64,
            retime(
                &std::fs::read_to_string(recording_path(43112)).unwrap(),
                1_700_000_000,
                &SPREAD_GAPS,
            ),
        ),
        (
            99999,
            retime(
                &std::fs::read_to_string(recording_path(99999)).unwrap(),
                1_700_005_000,
                &[7 * 3_600],
            ),
        ),
    ];
    let mut models: Vec<(RecordingModel, Buckets)> = Vec::new();
    for (chain, text) in &texts {
        let path = dir.path().join(format!("{chain}.jsonl"));
        std::fs::write(&path, text).unwrap();
        let model = RecordingModel::load(&path);
        let buckets = expected_metrics(&model);
        models.push((model, buckets));
        index(&store, text, 4).await;
    }
    let chains = [43112u64, 99999];
    let tip = models.iter().map(|(m, _)| last_time(m)).max().unwrap();
    let pages = MetricsPages::new(Arc::clone(&store));
    let mut compared = 0;
    for metric in Metric::ALL.into_iter().filter(|m| summable(*m)) {
        let name = metric.name();
        for interval in metric.intervals() {
            // The model: every bucket start any chain has, newest first, each the chains' sum.
            let mut starts: Vec<u64> = models
                .iter()
                .flat_map(|(_, e)| e.keys().filter(|(i, _)| *i == interval.name()))
                .map(|(_, s)| *s)
                .collect();
            starts.sort_unstable_by(|a, b| b.cmp(a));
            starts.dedup();
            let cumulative = name.starts_with("cumulative");
            let want: Vec<(u64, Value, bool)> = starts
                .iter()
                .map(|start| {
                    let mut sum = zero(name);
                    for (_, e) in &models {
                        let own = e.get(&(interval.name(), *start));
                        let carried = || {
                            e.range((interval.name(), 0)..(interval.name(), *start))
                                .next_back()
                                .map(|(_, b)| b)
                        };
                        let b = match own {
                            Some(b) => Some(b),
                            None if cumulative => carried(),
                            None => None,
                        };
                        if let Some(b) = b {
                            sum = plus(sum, of(b.values[name]));
                        }
                    }
                    (*start, sum, tip < bucket(interval.name(), *start).1)
                })
                .collect();
            for size in [1, 3, 1_000] {
                let mut got = Vec::new();
                let mut to = u64::MAX;
                loop {
                    let q = SeriesQuery {
                        chain: 0,
                        metric,
                        interval,
                        from: 0,
                        to,
                        page_size: size,
                    };
                    let page = pages.aggregate_series(&chains, &q).unwrap();
                    assert_eq!(page.last_run, tip);
                    assert!(page.points.len() <= size);
                    got.extend(page.points);
                    match page.next {
                        Some(next) => to = next,
                        None => break,
                    }
                }
                assert_eq!(got.len(), want.len(), "{name} {}", interval.name());
                for (p, (start, value, in_progress)) in got.iter().zip(&want) {
                    assert_eq!(p.timestamp, *start);
                    assert!(
                        same(p.value, *value),
                        "{name} {} at {start}: got {:?}, expected {value:?}",
                        interval.name(),
                        p.value
                    );
                    assert_eq!(p.in_progress, *in_progress);
                    compared += 1;
                }
            }
        }
        // Windows ending with the newest block of either chain.
        if !windows_of(metric).is_empty() {
            let got = pages.aggregate_rolling(&chains, metric).unwrap();
            assert_eq!(got.last_run, tip);
            for (window, value) in &got.values {
                let start = window_start(*window, tip);
                // A chain with no block in the window adds 0.
                let mut want = zero(name);
                for (model, _) in &models {
                    if let Some(value) = expected_window(model, name, start) {
                        want = plus(want, of(value));
                    }
                }
                assert!(
                    same(*value, want),
                    "{name} {}: got {value:?}, expected {want:?}",
                    window.name()
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared}");
    // Metrics that do not add up over chains are not offered summed.
    assert!(!summable(Metric::ActiveAddresses) && !summable(Metric::MaxTps));
}
