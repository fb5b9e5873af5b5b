//! The real `metrics-api` binary on port 0 over an index holding a devnet's P-Chain, opened as a
//! secondary: `GET /v2/subnets/{subnetId}/validators:getAddresses` page by page equals what
//! `PChainPages::validators_by_date_range` reads (itself checked against a model of the txs in
//! `chain-p`), each validator's reward owners in bech32 with the network's HRP (no chain
//! prefix, as the OpenAPI's `avax1…` example shows) and its tx's block time as a decimal
//! `sortKey`; and the errors are the spec's shape: 400 for bad parameters, 404 for another
//! network or an unknown subnet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use serde_json::{Value, json};
use snowline_chain_p::metrics::ValidatorRangeQuery;
use snowline_chain_p::pages::PChainPages;
use snowline_types::Id;
use snowline_types::address::format_bech32;

use common::MetricsApi;
use common::pchain::{index_devnet, start};

const PRIMARY: &str = "11111111111111111111111111111111LpoYY";

/// Every entry of `path`, following `nextPageToken`s; the page sizes seen.
fn walk(api: &MetricsApi, path: &str) -> (Vec<Value>, Vec<usize>) {
    let mut out = Vec::new();
    let mut sizes = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let url = match &token {
            Some(t) => format!("{path}&pageToken={t}"),
            None => path.to_owned(),
        };
        let (status, v) = api.get(&url);
        assert_eq!(status, 200, "{url}: {v}");
        let page = v["addresses"].as_array().unwrap();
        sizes.push(page.len());
        out.extend(page.iter().cloned());
        match v.get("nextPageToken") {
            Some(t) => token = Some(t.as_str().unwrap().to_owned()),
            None => break,
        }
    }
    (out, sizes)
}

#[test]
fn validators_by_date_range_over_http_equal_the_p_chain_reads() {
    let dir = tempfile::tempdir().unwrap();
    let store = index_devnet(dir.path());
    let pages = PChainPages::new(Arc::clone(&store));
    let read = |from, to| {
        pages
            .validators_by_date_range(&ValidatorRangeQuery {
                subnet: Id::default(),
                from,
                to,
                page_size: 5_000,
                after: None,
            })
            .unwrap()
            .validators
    };
    let all = read(0, u64::MAX);
    assert!(all.len() > 5, "{} validators", all.len());
    let first = all[0].accepted;
    let last = all[all.len() - 1].accepted;
    let api = start(dir.path());

    let ranges = [
        (None, None),
        (Some(0), Some(first - 1)),
        (Some(first + 1), Some(last)),
        (Some(last), None),
        (Some(u64::MAX - 1), None),
    ];
    for (from, to) in ranges {
        let want: Vec<Value> = read(from.unwrap_or(0), to.unwrap_or(u64::MAX))
            .iter()
            .map(|v| {
                let addresses: Vec<String> = v
                    .reward_owners
                    .iter()
                    .map(|a| format_bech32("local", a).unwrap())
                    .collect();
                json!({"addresses": addresses, "sortKey": v.accepted.to_string()})
            })
            .collect();
        let mut range = String::new();
        if let Some(f) = from {
            range.push_str(&format!("&startTimestamp={f}"));
        }
        if let Some(t) = to {
            range.push_str(&format!("&endTimestamp={t}"));
        }
        for size in [1, 2, 7, 5_000] {
            for network in ["", "&network=local"] {
                let path = format!(
                    "/v2/subnets/{PRIMARY}/validators:getAddresses?pageSize={size}{range}{network}"
                );
                let (got, sizes) = walk(&api, &path);
                assert_eq!(got, want, "{path}");
                assert!(sizes.iter().all(|n| *n <= size), "{path}: {sizes:?}");
                // Every page is full but the last.
                assert!(
                    sizes[..sizes.len() - 1].iter().all(|n| *n == size),
                    "{path}: {sizes:?}"
                );
            }
        }
    }
    // The default page size (1000) holds the devnet's validators in one page.
    let (status, v) = api.get(&format!("/v2/subnets/{PRIMARY}/validators:getAddresses"));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["addresses"].as_array().unwrap().len(), all.len());
    assert!(v.get("nextPageToken").is_none(), "{v}");
    assert!(
        v["addresses"][0]["addresses"][0]
            .as_str()
            .unwrap()
            .starts_with("local1"),
        "{v}"
    );

    // Errors: the spec's shape with an array message.
    let base = format!("/v2/subnets/{PRIMARY}/validators:getAddresses");
    let unknown_subnet = format!("/v2/subnets/{}/validators:getAddresses", Id::from([7; 32]));
    let cases = [
        ("/v2/subnets/nope/validators:getAddresses".to_owned(), 400),
        (format!("{base}?network=devnet"), 400),
        (format!("{base}?network=mainnet"), 404),
        (format!("{base}?network=fuji"), 404),
        (format!("{base}?network=testnet"), 404),
        (unknown_subnet, 404),
        (format!("{base}?pageSize=0"), 400),
        (format!("{base}?pageSize=5001"), 400),
        (format!("{base}?pageSize=x"), 400),
        (format!("{base}?startTimestamp=-1"), 400),
        (format!("{base}?endTimestamp=x"), 400),
        (format!("{base}?startTimestamp=10&endTimestamp=5"), 400),
        (format!("{base}?pageToken=bogus"), 400),
    ];
    for (path, status) in cases {
        let (got, v) = api.get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
        assert_eq!(v["statusCode"], json!(status), "{path}: {v}");
    }
    // A token sent with another query is refused.
    let (_, first_page) = api.get(&format!("{base}?pageSize=1"));
    let token = first_page["nextPageToken"].as_str().unwrap();
    for other in [
        "pageSize=2",
        "pageSize=1&startTimestamp=1",
        "pageSize=1&network=local",
    ] {
        let (status, v) = api.get(&format!("{base}?{other}&pageToken={token}"));
        assert_eq!(status, 400, "{other}: {v}");
    }
    // A series token is not one of this route's.
    let (_, series) = api.get("/v2/networks/local/metrics/validatorCount?pageSize=1");
    let token = series["nextPageToken"].as_str().unwrap();
    let (status, v) = api.get(&format!("{base}?pageSize=1&pageToken={token}"));
    assert_eq!(status, 400, "{v}");
}
