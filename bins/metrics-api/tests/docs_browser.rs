//! `/docs` of the real `metrics-api` binary in a headless Chromium: the page lists every operation
//! of `/openapi.json`, loads nothing from elsewhere, and its "Try it out" on a chain answers what
//! the API answers to the same request. Skipped, saying so, without Chromium;
//! `SNOWLINE_REQUIRE_BROWSER=1` makes that a failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use snowline_chain_metrics::ChainMetrics;
use snowline_test_support::docs_page;

#[test]
fn the_docs_page_lists_every_operation_and_tries_one_against_the_server() {
    let Some(exe) = docs_page::chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The 43112 recording's first blocks indexed with the metrics hook.
    let store = common::index::open(dir.path(), Vec::new());
    let rt = common::index::runtime();
    let text = std::fs::read_to_string(snowline_evm_devnet::recording_path(43112)).unwrap();
    common::index::recording(&rt, &store, &text, 20, ChainMetrics::hooks());
    let api = common::start(dir.path(), &["--no-rate-limits"]);
    let origin = format!("http://{}", api.addr);
    let (status, doc) = api.get("/openapi.json");
    assert_eq!(status, 200);

    let mut b = docs_page::open(&exe, &origin, &doc, "Snowline Metrics API");
    docs_page::screenshot(&mut b, "metrics-api-docs.png");

    let status = docs_page::try_it(&mut b, "getChain", &[("chainId", "input", "43112")]);
    assert_eq!(status, "200");
    let (path, seen) = docs_page::response(&mut b, &origin, "/v2/chains/43112");
    assert_eq!(path, "/v2/chains/43112");
    assert_eq!(seen, api.get(&path).1);
    assert_eq!(seen["evmChainId"], 43112, "{seen}");

    docs_page::assert_clean(&mut b, &origin);
    drop(store);
}
