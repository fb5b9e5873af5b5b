//! The handlers over a store of a few synthetic blocks: paging newest first with UUID tokens,
//! a token's query and expiry (an injected clock), the 400s of unknown metrics and of intervals
//! a metric does not allow, the 404s of chains without metrics, both forms of `avg_tps`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use serde_json::{Value, json};
use snowline_chain_evm::parse::Block;
use snowline_chain_metrics::{
    ChainMetrics, ManualClock, MetricsPages, StoredPageTokens, TOKEN_LIFETIME,
};
use snowline_chain_registry::ChainRegistry;
use snowline_derive::write_batch;
use snowline_evm_devnet::metrics_model::{ANY_INTERVAL, INTERVALS, METRICS};
use snowline_rest_api::hyper::{Method, StatusCode};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_store::{Schema, Store, WriteBatch};
use snowline_types::evm::{Address, B256};

use crate::MetricsApi;

/// 43112 (the local C-Chain of the built-in registry), one empty block a day for 5 days from
/// 2023-11-14.
const CHAIN: u64 = 43_112;
const T0: u64 = 1_700_000_000;
const DAY: u64 = 86_400;

struct Fixture {
    api: MetricsApi,
    clock: Arc<ManualClock>,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_chain_metrics::tables()
        .into_iter()
        .fold(Schema::new(1), Schema::with_spec);
    let store = Arc::new(Store::open(dir.path().join("index"), &schema).unwrap());
    let mut metrics = ChainMetrics::open(&store, CHAIN).unwrap();
    let mut batch = WriteBatch::new();
    for n in 0..5 {
        let block = Block {
            number: n,
            hash: B256::with_last_byte(n as u8 + 1),
            parent: B256::with_last_byte(n as u8),
            timestamp: T0 + n * DAY,
            miner: Address::ZERO,
            gas_limit: 8_000_000,
            gas_used: 21_000 * n,
            base_fee: None,
            block_gas_cost: None,
            txs: Vec::new(),
        };
        metrics.add(&store, &block).unwrap();
    }
    write_batch(&store, &mut metrics, &mut batch).unwrap();
    let clock = Arc::new(ManualClock::at(T0 + 10 * DAY));
    let tokens = StoredPageTokens::open(&dir.path().join("tokens"), clock.clone()).unwrap();
    let api = MetricsApi::new(
        MetricsPages::new(store),
        tokens,
        ChainRegistry::builtin().unwrap(),
    );
    Fixture {
        api,
        clock,
        _dir: dir,
    }
}

type Handler = fn(&MetricsApi, &Request) -> Result<Reply, ApiError>;

fn call(
    f: &Fixture,
    handler: Handler,
    uri: &str,
    params: &[(&str, &str)],
) -> Result<Value, ApiError> {
    let req = params
        .iter()
        .fold(Request::mock(Method::GET, uri), |r, (k, v)| {
            r.with_param(k, v)
        });
    handler(&f.api, &req).map(|reply| serde_json::from_slice(&reply.body).unwrap())
}

fn metric(f: &Fixture, chain: &str, metric: &str, query: &str) -> Result<Value, ApiError> {
    let uri = format!("/v2/chains/{chain}/metrics/{metric}?{query}");
    call(
        f,
        crate::series::chain_metric,
        &uri,
        &[("chainId", chain), ("metric", metric)],
    )
}

fn timestamps(v: &Value) -> Vec<u64> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["timestamp"].as_u64().unwrap())
        .collect()
}

fn is_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[test]
fn pages_go_newest_first_with_uuid_tokens_bound_to_their_query() {
    let f = fixture();
    let days: Vec<u64> = (0..5).rev().map(|n| (T0 + n * DAY) / DAY * DAY).collect();
    let mut got = Vec::new();
    let mut query = "timeInterval=day&pageSize=2".to_owned();
    let mut pages = 0;
    loop {
        let v = metric(&f, "43112", "gasUsed", &query).unwrap();
        got.extend(timestamps(&v));
        pages += 1;
        match v.get("nextPageToken") {
            Some(t) => {
                let t = t.as_str().unwrap();
                assert!(is_uuid(t), "{t}");
                query = format!("timeInterval=day&pageSize=2&pageToken={t}");
            }
            None => break,
        }
    }
    assert_eq!((got, pages), (days.clone(), 3));

    // The newest day is in progress (no block after it yet); values are exact integers.
    let v = metric(&f, "43112", "gasUsed", "pageSize=2").unwrap();
    assert_eq!(
        v["results"][0],
        json!({"timestamp": days[0], "value": 84_000, "inProgress": true})
    );
    assert_eq!(
        v["results"][1],
        json!({"timestamp": days[1], "value": 63_000})
    );

    // A token belongs to its query.
    let token = v["nextPageToken"].as_str().unwrap().to_owned();
    let e = metric(
        &f,
        "43112",
        "txCount",
        &format!("pageSize=2&pageToken={token}"),
    )
    .unwrap_err();
    assert_eq!(e.status, StatusCode::BAD_REQUEST);
    assert!(e.message.contains("another query"), "{}", e.message);
    let e = metric(&f, "43112", "gasUsed", "pageSize=2&pageToken=not-a-token").unwrap_err();
    assert_eq!(e.status, StatusCode::BAD_REQUEST);

    // Valid for 24 hours, then a 400 saying it expired.
    let next = format!("pageSize=2&pageToken={token}");
    f.clock.advance(TOKEN_LIFETIME - 1);
    assert_eq!(
        timestamps(&metric(&f, "43112", "gasUsed", &next).unwrap()),
        days[2..4]
    );
    f.clock.advance(1);
    let e = metric(&f, "43112", "gasUsed", &next).unwrap_err();
    assert_eq!(e.status, StatusCode::BAD_REQUEST);
    assert!(e.message.contains("expired"), "{}", e.message);
}

#[test]
fn unknown_metrics_and_disallowed_intervals_are_400s() {
    let f = fixture();
    for m in METRICS {
        for i in INTERVALS {
            let r = metric(&f, "43112", m, &format!("timeInterval={i}"));
            let allowed = i == "day" || ANY_INTERVAL.contains(&m);
            match r {
                Ok(v) => assert!(allowed && !timestamps(&v).is_empty(), "{m} {i}"),
                Err(e) => {
                    assert!(!allowed, "{m} {i}: {}", e.message);
                    assert_eq!(e.status, StatusCode::BAD_REQUEST);
                    assert!(e.message.contains("timeInterval"), "{}", e.message);
                }
            }
        }
    }
    for (m, q) in [
        ("avg_tps", ""),
        ("txCount", "timeInterval=year"),
        ("txCount", "pageSize=0"),
        ("txCount", "pageSize=2161"),
        ("txCount", "startTimestamp=-1"),
        ("txCount", "startTimestamp=10&endTimestamp=9"),
    ] {
        let e = metric(&f, "43112", m, q).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST, "{m}?{q}: {}", e.message);
    }
    assert!(metric(&f, "43112", "txCount", "pageSize=2160").is_ok());
}

#[test]
fn chains_without_metrics_are_404s_and_aggregates_sum_the_served_ones() {
    let f = fixture();
    // 43113 (Fuji's C-Chain) is listed but has no metrics; 5 is not listed; "mainnet" sums the
    // mainnet chains, of which none is served.
    for chain in ["43113", "5", "mainnet"] {
        let e = metric(&f, chain, "txCount", "").unwrap_err();
        assert_eq!(e.status, StatusCode::NOT_FOUND, "{chain}: {}", e.message);
        let e = call(
            &f,
            crate::chains::get,
            "/v2/chains/x",
            &[("chainId", chain)],
        )
        .unwrap_err();
        assert_eq!(e.status, StatusCode::NOT_FOUND);
    }
    // "total" and "testnet" sum the one chain served: its own series; a metric that does not
    // add up over chains is a 400; GET /v2/chains/total names no chain.
    let own = metric(&f, "43112", "txCount", "").unwrap();
    for chain in ["total", "testnet"] {
        assert_eq!(
            metric(&f, chain, "txCount", "").unwrap()["results"],
            own["results"]
        );
        let e = metric(&f, chain, "activeAddresses", "").unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST, "{}", e.message);
    }
    let e = call(
        &f,
        crate::chains::get,
        "/v2/chains/x",
        &[("chainId", "total")],
    )
    .unwrap_err();
    assert_eq!(e.status, StatusCode::NOT_FOUND);
    let list = call(&f, crate::chains::list, "/v2/chains", &[]).unwrap();
    assert_eq!(list["chains"].as_array().unwrap().len(), 1);
    assert_eq!(list["chains"][0]["evmChainId"], 43112);
    assert_eq!(list["chains"][0]["network"], "testnet");
    let none = call(&f, crate::chains::list, "/v2/chains?network=mainnet", &[]).unwrap();
    assert_eq!(none["chains"], json!([]));
}

#[test]
fn avg_tps_spec_and_legacy_forms_agree() {
    let f = fixture();
    let avg = |q: &str| {
        call(
            &f,
            crate::series::avg_tps,
            &format!("/v1/avg_tps/43112?{q}"),
            &[("chainId", "43112")],
        )
    };
    let spec = avg("").unwrap();
    assert_eq!(spec["status"], 200);
    assert_eq!(spec["lastRun"], T0 + 4 * DAY);
    assert!(spec.get("nextPageToken").is_none());
    let legacy = avg(&format!("from={T0}&to={}", T0 + 10 * DAY)).unwrap();
    assert_eq!(legacy["results"], spec["results"]);
    assert_eq!(timestamps(&spec).len(), 5);
    // Daily blocks with no txs: 0 TPS each day.
    assert!(
        spec["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["value"].as_f64() == Some(0.0))
    );
    assert_eq!(avg("from=abc").unwrap_err().status, StatusCode::BAD_REQUEST);
    assert_eq!(
        avg("startKey=nope").unwrap_err().status,
        StatusCode::BAD_REQUEST
    );
}

#[test]
fn legacy_listings_page_a_hundred_rows_by_start_key_bound_to_their_query() {
    let f = fixture();
    let rows: Vec<u64> = (0..250).collect();
    let mut got = Vec::new();
    let mut key: Option<String> = None;
    let mut pages = 0;
    loop {
        let uri = match &key {
            Some(k) => format!("/v1/mapping?startKey={k}"),
            None => "/v1/mapping".to_owned(),
        };
        let req = Request::mock(Method::GET, &uri);
        let (page, next) = crate::networks::page(&f.api, &req, "q", rows.clone()).unwrap();
        assert!(page.len() <= 100);
        got.extend(page);
        pages += 1;
        match next {
            Some(next) => {
                assert!(is_uuid(&next), "{next}");
                key = Some(next);
            }
            None => break,
        }
    }
    assert_eq!((got, pages), (rows.clone(), 3));
    // A key of another query, or none issued here: 400s.
    let (_, next) = crate::networks::page(
        &f.api,
        &Request::mock(Method::GET, "/v1/mapping"),
        "q",
        rows.clone(),
    )
    .unwrap();
    let other = Request::mock(
        Method::GET,
        &format!("/v1/mapping?startKey={}", next.unwrap()),
    );
    let err = crate::networks::page(&f.api, &other, "another", rows.clone()).unwrap_err();
    assert_eq!(err.status, StatusCode::BAD_REQUEST);
    let bogus = Request::mock(Method::GET, "/v1/mapping?startKey=bogus");
    let err = crate::networks::page(&f.api, &bogus, "q", rows).unwrap_err();
    assert_eq!(err.status, StatusCode::BAD_REQUEST);
    // An empty listing is one empty page.
    let (page, next) = crate::networks::page(
        &f.api,
        &Request::mock(Method::GET, "/v1/mapping"),
        "q",
        Vec::<u64>::new(),
    )
    .unwrap();
    assert!(page.is_empty() && next.is_none());
}
