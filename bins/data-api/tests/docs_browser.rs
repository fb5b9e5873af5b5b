//! `/docs` in a real headless Chromium, against the real `data-api` binary following the devnet: the
//! page loads with no failed request and none beyond this server, lists every operation of
//! `/openapi.json`, and its "Try it out" answers the X-Chain balances of a genesis address as the
//! API does. Skipped, saying so, when no Chromium is installed (`cargo xtask setup` installs
//! Debian's); `SNOWLINE_REQUIRE_BROWSER=1` makes that a failure. With `SNOWLINE_DOCS_SCREENSHOTS`
//! set to a folder, the page's screenshots are written there (`docs/` keeps them).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use snowline_test_support::docs_page;

#[test]
fn the_docs_page_lists_every_operation_and_tries_one_against_the_server() {
    let Some(exe) = docs_page::chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // data-api following a node that serves the small devnet, caught up.
    let up = common::upstream::start(1, 0);
    let api = common::follow(dir.path(), &up, 1, 120);
    let origin = format!("http://{}", api.addr);
    // A genesis address the devnet funds, from the examples the server prints.
    let example = api
        .stdout_line("balances?addresses=")
        .expect("an example address");
    let address = example
        .split("addresses=")
        .nth(1)
        .and_then(|s| s.split(['\'', '&']).next())
        .unwrap()
        .to_owned();
    let doc = api.get("/openapi.json").json();

    let mut b = docs_page::open(&exe, &origin, &doc, "Snowline Data API");
    docs_page::screenshot(&mut b, "data-api-docs.png");

    // Try it: the X-Chain balances of the genesis address, on the network served (the example
    // timestamp cleared, so the balances are today's).
    let status = docs_page::try_it(
        &mut b,
        "getBalancesByAddresses",
        &[
            ("addresses", "input", &address),
            ("blockTimestamp", "input", ""),
            ("blockchainId", "select", "x-chain"),
            ("network", "select", "local"),
        ],
    );
    assert_eq!(status, "200");

    // The page's call is the API's answer to the same request, and it holds AVAX.
    let (path, seen) = docs_page::response(&mut b, &origin, "/balances?");
    assert!(
        path.starts_with("/v1/networks/local/blockchains/x-chain/balances?"),
        "{path}"
    );
    assert_eq!(seen, api.get(&path).json());
    let unlocked = seen["balances"]["unlocked"].as_array().unwrap();
    assert!(
        unlocked
            .iter()
            .any(|a| a["amount"].as_str().is_some_and(|n| n != "0")),
        "{seen}"
    );
    b.eval("document.querySelector(\"[id$='-getBalancesByAddresses']\").scrollIntoView()");
    docs_page::screenshot(&mut b, "data-api-docs-try-it.png");

    docs_page::assert_clean(&mut b, &origin);
}
