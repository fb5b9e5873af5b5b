//! The real `metrics-api` binary on port 0 over an index built here with the metrics hook (the
//! 43112 recording moved in time across days, weeks and a month; the 99999 one as recorded),
//! opened as a secondary: every metric at every interval over HTTP, page by page, equals
//! `snowline_evm_devnet::metrics_model`; rolling windows equal the room's; the spec's avg_tps in
//! both forms, of a chain and of the aggregates; the error shapes (message arrays, 400/404/429); tokens surviving a restart; new
//! blocks seen after catch-up.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use snowline_evm_devnet::metrics_model::{
    ANY_INTERVAL, Expected, INTERVALS, METRICS, expected_metrics,
};
use snowline_evm_devnet::model::RecordingModel;

use common::evm::{index, open_index, runtime, same, start, text};

#[test]
fn every_metric_over_http_equals_the_recordings() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let store = open_index(dir.path());
    for chain in [43112, 99999] {
        index(&rt, &store, chain, u64::MAX);
    }
    let api = start(dir.path(), &["--no-rate-limits"]);
    let mut compared = 0;
    for chain in [43112u64, 99999] {
        let tmp = dir.path().join(format!("{chain}.jsonl"));
        std::fs::write(&tmp, text(chain)).unwrap();
        let expected = expected_metrics(&RecordingModel::load(&tmp));
        for metric in METRICS {
            for interval in INTERVALS {
                let path = format!(
                    "/v2/chains/{chain}/metrics/{metric}?timeInterval={interval}&pageSize=3"
                );
                if interval != "day" && !ANY_INTERVAL.contains(&metric) {
                    let (status, v) = api.get(&path);
                    assert_eq!(status, 400, "{path}");
                    assert!(v["message"].is_array(), "{v}");
                    continue;
                }
                let got = api.series(&path);
                let want: Vec<_> = expected
                    .iter()
                    .filter(|((i, _), _)| *i == interval)
                    .rev()
                    .collect();
                assert_eq!(got.len(), want.len(), "{path}");
                for (p, ((_, start), bucket)) in got.iter().zip(want) {
                    assert_eq!(p["timestamp"], json!(start), "{path}");
                    let w = bucket.values[metric];
                    assert!(same(&p["value"], w), "{path} at {start}: {p} vs {w:?}");
                    assert_eq!(p.get("inProgress").is_some(), bucket.in_progress, "{p}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 100, "{compared}");

    // Rolling windows: each window the metric has equals the room's read (itself checked
    // against the model in chain-metrics); the others are left out; cumulative metrics are 400s.
    let pages = snowline_chain_metrics::MetricsPages::new(Arc::clone(&store));
    let mut windows = 0;
    for chain in [43112u64, 99999] {
        for metric in snowline_chain_metrics::Metric::ALL {
            let path = format!("/v2/chains/{chain}/rollingWindowMetrics/{}", metric.name());
            let (status, v) = api.get(&path);
            let want = pages.rolling(chain, metric).unwrap();
            if want.values.is_empty() {
                assert_eq!(status, 400, "{path}: {v}");
                assert!(v["message"].is_array(), "{v}");
                continue;
            }
            assert_eq!(status, 200, "{path}: {v}");
            let result = v["result"].as_object().unwrap();
            assert_eq!(result.len(), want.values.len(), "{path}: {v}");
            for (window, value) in &want.values {
                let got = &result[window.name()];
                let ok = match *value {
                    snowline_chain_metrics::Value::Count(n) => same(got, Expected::Count(n)),
                    snowline_chain_metrics::Value::Ratio(x) => same(got, Expected::Ratio(x)),
                };
                assert!(ok, "{path} {}: {got} vs {value:?}", window.name());
                windows += 1;
            }
        }
    }
    assert!(windows > 80, "{windows}");
    for (path, status) in [
        ("/v2/chains/43112/rollingWindowMetrics/nope", 400),
        (
            "/v2/chains/43112/rollingWindowMetrics/cumulativeTxCount",
            400,
        ),
        ("/v2/chains/43113/rollingWindowMetrics/txCount", 404),
        ("/v2/chains/mainnet/rollingWindowMetrics/txCount", 404),
        ("/v2/chains/total/rollingWindowMetrics/activeAddresses", 400),
        ("/v2/chains/total/metrics/maxTps", 400),
        ("/v2/chains/mainnet/metrics/txCount", 404),
        ("/v2/chains/not-an-id/rollingWindowMetrics/txCount", 400),
    ] {
        let (got, v) = api.get(path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(v["message"].as_array().is_some_and(|m| m.len() == 1), "{v}");
    }

    // The spec's avg_tps and its legacy form give the v2 daily avgTps.
    let v2 = api.series("/v2/chains/43112/metrics/avgTps?timeInterval=day");
    let (status, v1) = api.get("/v1/avg_tps/43112");
    assert_eq!(status, 200);
    assert_eq!(v1["results"], json!(v2));
    assert_eq!(v1["status"], 200);
    assert!(v1["lastRun"].as_u64().unwrap() > 1_700_000_000);
    let (_, legacy) = api.get("/v1/avg_tps/43112?from=0&to=4000000000");
    assert_eq!(legacy["results"], v1["results"]);

    // Errors: the spec's shape with an array message.
    for (path, status) in [
        ("/v2/chains/43112/metrics/nope", 400),
        ("/v2/chains/43112/metrics/avgTps?timeInterval=hour", 400),
        ("/v2/chains/43112/metrics/txCount?pageToken=f00", 400),
        ("/v2/chains/43113/metrics/txCount", 404),
        ("/v1/avg_tps/5", 404),
        ("/v1/avg_tps/mainnet", 404),
        ("/v2/chains/5", 404),
    ] {
        let (got, v) = api.get(path);
        assert_eq!(got, status, "{path}: {v}");
        assert_eq!(v["statusCode"], status);
        assert!(v["message"].as_array().is_some_and(|m| m.len() == 1), "{v}");
    }

    // Aggregates: both chains are local ones (testnet): total and testnet sum them, page by
    // page, as the room's sums over chains (themselves checked against the per-chain models).
    for metric in snowline_chain_metrics::Metric::ALL {
        let summed = snowline_chain_metrics::summable(metric);
        for target in ["total", "testnet"] {
            let path = format!(
                "/v2/chains/{target}/metrics/{}?timeInterval=day&pageSize=2",
                metric.name()
            );
            if !summed {
                assert_eq!(api.get(&path).0, 400, "{path}");
                continue;
            }
            let q = snowline_chain_metrics::SeriesQuery {
                chain: 0,
                metric,
                interval: snowline_chain_metrics::Interval::Day,
                from: 0,
                to: u64::MAX,
                page_size: 10_000,
            };
            let want = pages.aggregate_series(&[43112, 99999], &q).unwrap();
            let got = api.series(&path);
            assert_eq!(got.len(), want.points.len(), "{path}");
            for (g, w) in got.iter().zip(&want.points) {
                assert_eq!(g["timestamp"], json!(w.timestamp), "{path}");
                let ok = match w.value {
                    snowline_chain_metrics::Value::Count(n) => {
                        same(&g["value"], Expected::Count(n))
                    }
                    snowline_chain_metrics::Value::Ratio(x) => {
                        same(&g["value"], Expected::Ratio(x))
                    }
                };
                assert!(ok, "{path}: {g} vs {w:?}");
            }
            if metric == snowline_chain_metrics::Metric::AvgTps {
                // The legacy OpenAPI's avg_tps takes the aggregates too (both forms).
                let (status, v1) = api.get(&format!("/v1/avg_tps/{target}"));
                assert_eq!(status, 200, "{target}: {v1}");
                let first_page = json!(got[..got.len().min(100)]);
                assert_eq!(v1["results"], first_page, "{target}");
                assert_eq!(v1["lastRun"], json!(want.last_run), "{target}");
                let (_, legacy) = api.get(&format!("/v1/avg_tps/{target}?from=0"));
                assert_eq!(legacy["results"], first_page, "{target}");
            }
            if !snowline_chain_metrics::windows_of(metric).is_empty() {
                let path = format!("/v2/chains/{target}/rollingWindowMetrics/{}", metric.name());
                let (status, v) = api.get(&path);
                assert_eq!(status, 200, "{path}: {v}");
                let want = pages.aggregate_rolling(&[43112, 99999], metric).unwrap();
                for (window, value) in &want.values {
                    let got = &v["result"][window.name()];
                    let ok = match *value {
                        snowline_chain_metrics::Value::Count(n) => same(got, Expected::Count(n)),
                        snowline_chain_metrics::Value::Ratio(x) => same(got, Expected::Ratio(x)),
                    };
                    assert!(ok, "{path} {}: {got} vs {value:?}", window.name());
                }
            }
        }
    }

    let (_, chains) = api.get("/v2/chains");
    let ids: Vec<u64> = chains["chains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["evmChainId"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [43112, 99999]);
    let (_, l1) = api.get("/v2/chains/99999");
    assert_eq!(l1["chainName"], "Snowline L1");
    assert_eq!(l1["network"], "testnet");
    assert_eq!(api.get("/v2/health-check").1["status"], "ok");
    assert_eq!(api.get("/v2/live-check").0, 200);
    assert_eq!(api.get("/healthz").0, 200);
}

#[test]
fn tokens_survive_a_restart_and_new_blocks_show_after_catch_up() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let store = open_index(dir.path());
    index(&rt, &store, 43112, 6);
    let path = "/v2/chains/43112/metrics/txCount?timeInterval=hour&pageSize=2";
    let (token, first) = {
        let api = start(dir.path(), &["--no-rate-limits"]);
        let (_, v) = api.get(path);
        let token = v["nextPageToken"].as_str().unwrap().to_owned();
        (token, api.series(path))
    };
    let api = start(dir.path(), &["--no-rate-limits"]);
    let (status, v) = api.get(&format!("{path}&pageToken={token}"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["results"][0], first[2]);

    // The writer indexes the rest; the secondary sees it within a few catch-ups.
    let before = api.get("/v1/avg_tps/43112").1["lastRun"].clone();
    index(&rt, &store, 43112, u64::MAX);
    let end = Instant::now() + Duration::from_secs(20);
    while api.get("/v1/avg_tps/43112").1["lastRun"] == before {
        assert!(Instant::now() < end, "the new blocks never showed");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(api.series(path).len() > first.len());
}

#[test]
fn rate_limits_answer_429_in_the_spec_shape_and_keys_are_data_apis() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let store = open_index(dir.path());
    index(&rt, &store, 99999, u64::MAX);
    let (_, secret) = snowline_access::keys::ApiKeys::open(dir.path().join("data-api/keys"))
        .unwrap()
        .create("metrics", "org", snowline_access::keys::Tier::Pro)
        .unwrap();
    let api = start(dir.path(), &[]);
    // Anonymous callers get 1,000 compute units a minute; a series costs 10.
    let limited = (0..110)
        .map(|_| api.get("/v1/avg_tps/99999"))
        .find(|(status, _)| *status == 429);
    let (_, v) = limited.expect("no 429 within 110 requests");
    assert_eq!(v["error"], "Too Many Requests");
    assert!(v["message"].is_array(), "{v}");

    // A data-api key has its tier's budget; an unknown key is a 401.
    let keyed = format!("x-data-api-key: {secret}\r\n");
    assert_eq!(api.get_with("/v1/avg_tps/99999", &keyed).0, 200);
    let (status, v) = api.get_with("/v1/avg_tps/99999", "x-data-api-key: nope\r\n");
    assert_eq!(status, 401, "{v}");
    assert!(v["message"].is_array(), "{v}");
}
