//! The legacy OpenAPI's v1 chain metrics (`metrics-api-legacy-v1.json`) on the real
//! `metrics-api` binary on port 0: every `/v1/{metric}/{chain}` series at every interval it
//! names, page by page with `startKey`, and with `from`/`to`, equals
//! `snowline_evm_devnet::metrics_model` over the recordings; every
//! `/v1/{metric}/{chainId}/rollingWindow` window equals the model's window; both equal the v2
//! answers for the same metric; aggregates; the 400/404 shapes; paging across pages over a
//! chain of 250 hourly blocks against a model written here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use snowline_chain_evm::parse::Block;
use snowline_chain_metrics::ChainMetrics;
use snowline_derive::write_batch;
use snowline_evm_devnet::metrics_model::{
    INTERVALS, WINDOWS, bucket, expected_metrics, expected_window, last_time, window_start,
};
use snowline_evm_devnet::model::RecordingModel;
use snowline_store::WriteBatch;
use snowline_types::evm::{Address, B256};

use common::MetricsApi;
use common::evm::{index, open_index, runtime, same, start, text};

/// The legacy series: path segment, the v2 metric it is, whether the OpenAPI gives it
/// `interval` (the others are daily). From `metrics-api-legacy-v1.json`'s paths.
const SERIES: [(&str, &str, bool); 14] = [
    ("active_senders", "activeSenders", true),
    ("active_addresses", "activeAddresses", true),
    ("gas_used", "gasUsed", true),
    ("tx_count", "txCount", true),
    ("avg_gps", "avgGps", false),
    ("max_gps", "maxGps", false),
    ("avg_tps", "avgTps", false),
    ("max_tps", "maxTps", false),
    ("avg_gas_price", "avgGasPrice", false),
    ("max_gas_price", "maxGasPrice", false),
    ("cumulative/addresses", "cumulativeAddresses", false),
    ("cumulative/contracts", "cumulativeContracts", false),
    ("cumulative/tx_count", "cumulativeTxCount", false),
    ("cumulative/deployers", "cumulativeDeployers", false),
];

/// The legacy rolling windows: path segment and v2 metric.
const ROLLING: [(&str, &str); 8] = [
    ("gas_used", "gasUsed"),
    ("tx_count", "txCount"),
    ("avg_gps", "avgGps"),
    ("max_gps", "maxGps"),
    ("avg_tps", "avgTps"),
    ("max_tps", "maxTps"),
    ("avg_gas_price", "avgGasPrice"),
    ("max_gas_price", "maxGasPrice"),
];

/// The legacy `RollingWindowResponse`'s fields and the v2 windows they are.
const LEGACY_WINDOWS: [(&str, &str); 5] = [
    ("last_hour", "lastHour"),
    ("last_day", "lastDay"),
    ("last_month", "lastMonth"),
    ("last_year", "lastYear"),
    ("all_time", "allTime"),
];

/// Every point of a legacy series, following `nextPageStartKey` (`path` has a query string);
/// checks each page's envelope.
fn legacy_series(api: &MetricsApi, path: &str) -> (Vec<Value>, usize) {
    let mut out = Vec::new();
    let mut key: Option<String> = None;
    let mut pages = 0;
    loop {
        let p = match &key {
            Some(k) => format!("{path}&startKey={k}"),
            None => path.to_owned(),
        };
        let (status, v) = api.get(&p);
        assert_eq!(status, 200, "{p}: {v}");
        assert_eq!(v["status"], 200, "{p}");
        assert!(v["lastRun"].is_u64(), "{p}: {v}");
        assert!(v.get("nextPageToken").is_none(), "{p}: {v}");
        let results = v["results"].as_array().unwrap();
        assert!(results.len() <= 100, "{p}");
        out.extend(results.iter().cloned());
        pages += 1;
        match v.get("nextPageStartKey") {
            Some(k) => key = Some(k.as_str().unwrap().to_owned()),
            None => return (out, pages),
        }
    }
}

#[test]
fn legacy_series_and_windows_equal_the_recordings_and_v2() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let store = open_index(dir.path());
    for chain in [43112, 99999] {
        index(&rt, &store, chain, u64::MAX);
    }
    let api = start(dir.path(), &["--no-rate-limits"]);
    let (mut compared, mut windows, mut ranged) = (0, 0, 0);
    for chain in [43112u64, 99999] {
        let tmp = dir.path().join(format!("{chain}.jsonl"));
        std::fs::write(&tmp, text(chain)).unwrap();
        let model = RecordingModel::load(&tmp);
        let expected = expected_metrics(&model);
        let tip = last_time(&model);
        for (op, metric, with_interval) in SERIES {
            let intervals: &[&str] = if with_interval { &INTERVALS } else { &["day"] };
            for interval in intervals {
                let path = if with_interval {
                    format!("/v1/{op}/{chain}?interval={interval}")
                } else {
                    format!("/v1/{op}/{chain}?from=0")
                };
                let (got, _) = legacy_series(&api, &path);
                let want: Vec<_> = expected
                    .iter()
                    .filter(|((i, _), _)| i == interval)
                    .rev()
                    .collect();
                assert_eq!(got.len(), want.len(), "{path}");
                for (p, ((_, start), b)) in got.iter().zip(&want) {
                    assert_eq!(p["timestamp"], json!(start), "{path}");
                    let w = b.values[metric];
                    assert!(same(&p["value"], w), "{path} at {start}: {p} vs {w:?}");
                    assert_eq!(p.get("inProgress").is_some(), b.in_progress, "{p}");
                    compared += 1;
                }
                // The same points as v2's series of the metric.
                let v2 = api.series(&format!(
                    "/v2/chains/{chain}/metrics/{metric}?timeInterval={interval}"
                ));
                assert_eq!(json!(got), json!(v2), "{path}");
                // `from`/`to`: the buckets from the one holding `from` to those starting by
                // `to`, for a window around each bucket of the model.
                let base = if with_interval {
                    format!("/v1/{op}/{chain}?interval={interval}&")
                } else {
                    format!("/v1/{op}/{chain}?")
                };
                for ((_, start), _) in &want {
                    let (from, to) = (start + 1, start + 2 * 86_400);
                    let (got, _) = legacy_series(&api, &format!("{base}from={from}&to={to}"));
                    let first = bucket(interval, from).0;
                    let inside: Vec<u64> = want
                        .iter()
                        .map(|((_, s), _)| *s)
                        .filter(|s| (first..=to).contains(s))
                        .collect();
                    let stamps: Vec<u64> = got
                        .iter()
                        .map(|p| p["timestamp"].as_u64().unwrap())
                        .collect();
                    assert_eq!(stamps, inside, "{base}from={from}&to={to}");
                    ranged += 1;
                }
            }
        }
        for (op, metric) in ROLLING {
            let path = format!("/v1/{op}/{chain}/rollingWindow");
            let (status, v) = api.get(&path);
            assert_eq!(status, 200, "{path}: {v}");
            assert_eq!(v["status"], 200);
            assert_eq!(v["lastRun"], json!(tip), "{path}");
            let result = v["result"].as_object().unwrap();
            assert_eq!(result.len(), LEGACY_WINDOWS.len(), "{path}: {v}");
            let (_, v2) = api.get(&format!("/v2/chains/{chain}/rollingWindowMetrics/{metric}"));
            for (field, window) in LEGACY_WINDOWS {
                let hours = WINDOWS.iter().find(|(n, _)| *n == window).unwrap().1;
                let want = expected_window(&model, metric, window_start(hours, tip)).unwrap();
                assert!(
                    same(&result[field], want),
                    "{path} {field}: {} vs {want:?}",
                    result[field]
                );
                assert_eq!(result[field], v2["result"][window], "{path} {field}");
                windows += 1;
            }
        }
    }
    assert!(compared > 150, "{compared}");
    assert!(windows == 2 * 8 * 5, "{windows}");
    assert!(ranged > 100, "{ranged}");

    // Aggregates (both chains are local ones: testnet): the v2 sums, for the metrics summed
    // over chains; a 400 for the others.
    for target in ["total", "testnet"] {
        for (path, v2) in [
            (
                format!("/v1/tx_count/{target}?interval=hour"),
                format!("/v2/chains/{target}/metrics/txCount?timeInterval=hour"),
            ),
            (
                format!("/v1/cumulative/tx_count/{target}?from=0"),
                format!("/v2/chains/{target}/metrics/cumulativeTxCount?timeInterval=day"),
            ),
            (
                format!("/v1/avg_gps/{target}?from=0"),
                format!("/v2/chains/{target}/metrics/avgGps?timeInterval=day"),
            ),
        ] {
            let (got, _) = legacy_series(&api, &path);
            assert!(!got.is_empty(), "{path}");
            assert_eq!(json!(got), json!(api.series(&v2)), "{path}");
        }
        let (status, v) = api.get(&format!("/v1/tx_count/{target}/rollingWindow"));
        assert_eq!(status, 200, "{v}");
        let (_, v2) = api.get(&format!("/v2/chains/{target}/rollingWindowMetrics/txCount"));
        for (field, window) in LEGACY_WINDOWS {
            assert_eq!(v["result"][field], v2["result"][window], "{target} {field}");
        }
    }

    // Bad input: the spec's error shape, a 400 or a 404.
    for (path, status) in [
        ("/v1/tx_count/43112?interval=year".to_owned(), 400),
        ("/v1/active_senders/43112?interval=".to_owned(), 400),
        ("/v1/gas_used/43112?from=-1".to_owned(), 400),
        ("/v1/avg_gps/43112?from=abc".to_owned(), 400),
        ("/v1/max_gps/43112?from=10&to=5".to_owned(), 400),
        ("/v1/max_tps/43112?startKey=bogus".to_owned(), 400),
        ("/v1/max_tps/total".to_owned(), 400),
        ("/v1/active_addresses/testnet".to_owned(), 400),
        ("/v1/cumulative/addresses/total".to_owned(), 400),
        ("/v1/max_tps/total/rollingWindow".to_owned(), 400),
        ("/v1/tx_count/not-an-id".to_owned(), 400),
        ("/v1/tx_count/5".to_owned(), 404),
        ("/v1/cumulative/deployers/43113".to_owned(), 404),
        ("/v1/avg_gas_price/mainnet".to_owned(), 404),
        ("/v1/max_gas_price/43113/rollingWindow".to_owned(), 404),
        ("/v1/avg_tps/mainnet/rollingWindow".to_owned(), 404),
    ] {
        let (got, v) = api.get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert_eq!(v["statusCode"], status, "{path}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
    }
}

/// 43112 (the built-in registry's local C-Chain) with 250 empty blocks an hour apart, block
/// `n`'s gas `21_000 × (n % 7 + 1)`: more than two pages of hourly buckets.
const BLOCKS: u64 = 250;
const T0: u64 = 1_700_000_000;

fn gas(n: u64) -> u64 {
    21_000 * (n % 7 + 1)
}

#[test]
fn legacy_pages_follow_start_keys_across_pages() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_index(dir.path());
    let mut metrics = ChainMetrics::open(&store, 43112).unwrap();
    for n in 0..BLOCKS {
        let block = Block {
            number: n,
            hash: B256::with_last_byte((n % 250) as u8 + 1),
            parent: B256::with_last_byte((n % 250) as u8),
            timestamp: T0 + n * 3_600,
            miner: Address::ZERO,
            gas_limit: 8_000_000,
            gas_used: gas(n),
            base_fee: None,
            block_gas_cost: None,
            txs: Vec::new(),
        };
        metrics.add(&store, &block).unwrap();
    }
    write_batch(&store, &mut metrics, &mut WriteBatch::new()).unwrap();
    drop(metrics);
    let api = start(dir.path(), &["--no-rate-limits"]);

    // The model: gas per hour and per UTC day, newest first.
    let mut hours = BTreeMap::new();
    let mut days = BTreeMap::new();
    for n in 0..BLOCKS {
        let t = T0 + n * 3_600;
        *hours.entry(t / 3_600 * 3_600).or_insert(0u64) += gas(n);
        *days.entry(t / 86_400 * 86_400).or_insert(0u64) += gas(n);
    }
    for (interval, want) in [("hour", &hours), ("day", &days)] {
        let path = format!("/v1/gas_used/43112?interval={interval}");
        let (got, pages) = legacy_series(&api, &path);
        assert_eq!(pages, want.len().div_ceil(100), "{path}");
        let want: Vec<Value> = want
            .iter()
            .rev()
            .map(|(t, g)| json!({"timestamp": t, "value": g}))
            .collect();
        let got: Vec<Value> = got
            .into_iter()
            .map(|mut p| {
                p.as_object_mut().unwrap().remove("inProgress");
                p
            })
            .collect();
        assert_eq!(got, want, "{path}");
    }
    // Within `from`/`to`: 120 hours, two pages.
    let (from, to) = (T0 + 10 * 3_600, T0 + 129 * 3_600);
    let (got, pages) = legacy_series(
        &api,
        &format!("/v1/gas_used/43112?interval=hour&from={from}&to={to}"),
    );
    assert_eq!((got.len(), pages), (120, 2));
    // The cumulative series page the same way (daily: one page here).
    let (got, pages) = legacy_series(&api, "/v1/cumulative/tx_count/43112?from=0");
    assert_eq!((got.len(), pages), (days.len(), 1));
    // A start key is bound to its query: another metric, interval or range is a 400.
    let (_, first) = api.get("/v1/gas_used/43112?interval=hour");
    let key = first["nextPageStartKey"].as_str().unwrap();
    for other in [
        format!("/v1/tx_count/43112?interval=hour&startKey={key}"),
        format!("/v1/gas_used/43112?interval=day&startKey={key}"),
        format!("/v1/gas_used/43112?interval=hour&from={from}&startKey={key}"),
        format!("/v2/chains/43112/metrics/gasUsed?timeInterval=hour&pageToken={key}"),
    ] {
        let (status, v) = api.get(&other);
        assert_eq!(status, 400, "{other}: {v}");
        assert!(v["message"].is_array(), "{v}");
    }
    drop(store);
}
