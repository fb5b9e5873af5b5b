//! `/openapi.json` of the real `data-api` binary: every route it serves is described (a route
//! neither the Glacier document nor the additions describe fails here), every operation it
//! describes is routed, all 81 Glacier operations are there as published, what Snowline adds is
//! marked, and `--compat` shows in the shapes; `/docs` is the page that renders it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use serde_json::Value;
use snowline_data_api::openapi::{ADDITIONS, GLACIER_DATA_API};
use snowline_metrics_api::openapi::{METRICS_API_LEGACY_V1, METRICS_API_V2};
use snowline_rest_api::openapi::{SNOWLINE_EXTENSION, audit, shape};

/// Every (METHOD, path, operation) of a document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            out.push((m.to_uppercase(), path.clone(), op.clone()));
        }
    }
    out
}

#[test]
fn the_document_describes_exactly_the_routes_served() {
    let dir = tempfile::tempdir().unwrap();
    let api = common::start(dir.path(), &["--no-rate-limits"]);
    let doc = api.get("/openapi.json").json();
    assert!(
        audit(&doc, &[GLACIER_DATA_API]).is_empty(),
        "{:#?}",
        audit(&doc, &[GLACIER_DATA_API])
    );
    let glacier: Value = serde_json::from_str(GLACIER_DATA_API).unwrap();
    let ops = operations(&doc);
    let mut ours: Vec<String> = Vec::new();
    for (m, path, op) in &ops {
        // Routed: whatever the handler makes of placeholder values, the router found it (its
        // own answers to an unknown path or method are "Cannot METHOD PATH").
        let concrete = shape(path).replace("{}", "x");
        let r = common::request(&api.addr, m, &concrete, &[], "");
        let router_refused = matches!(r.status, 404 | 405)
            && r.json()["message"]
                .as_str()
                .is_some_and(|s| s.starts_with(&format!("Cannot {m} {concrete}")));
        assert!(!router_refused, "{m} {path} is described but not served");
        match op.get(SNOWLINE_EXTENSION) {
            None => {
                // As published, parameters and request body included.
                let published = &glacier["paths"][path][m.to_lowercase()];
                for member in ["operationId", "parameters", "requestBody", "summary"] {
                    assert_eq!(op.get(member), published.get(member), "{m} {path} {member}");
                }
            }
            Some(_) => ours.push(format!("{m} {path}")),
        }
    }
    ours.sort();
    assert_eq!(
        ours,
        [
            "GET /docs",
            "GET /healthz",
            "GET /metrics",
            "GET /openapi.json",
            "GET /readyz",
            "GET /v1/operations/{operationId}/download",
            "GET /v1/teleporter/addresses/{address}/messages",
            "GET /v1/teleporter/messages",
            "GET /v1/teleporter/messages/{messageId}",
            "GET /v1/webhooks/{id}/events",
        ]
    );
    // Every operation of the Glacier document is served: all 81 of them.
    let published: Vec<String> = operations(&glacier)
        .iter()
        .filter_map(|(_, _, op)| op["operationId"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(published.len(), 81);
    let unserved: Vec<&String> = published
        .iter()
        .filter(|id| {
            !ops.iter()
                .any(|(_, _, op)| op["operationId"] == id.as_str())
        })
        .collect();
    assert!(unserved.is_empty(), "not served: {unserved:?}");
    // The additions file names only routes that are served.
    let additions: Value = serde_json::from_str(ADDITIONS).unwrap();
    for path in additions["paths"].as_object().unwrap().keys() {
        assert!(doc["paths"].get(path).is_some(), "{path} is not served");
    }
    // The operations a newcomer tries first are there, from the Glacier document.
    for id in [
        "getBalancesByAddresses",
        "getUtxosByAddresses",
        "supportedChains",
        "aggregateSignatures",
        "listIcmMessages",
        "data-health-check",
    ] {
        assert!(ops.iter().any(|(_, _, op)| op["operationId"] == id), "{id}");
    }
    // The devnet's network is one a `network` parameter takes, by default.
    let network = &doc["components"]["schemas"]["Network"];
    assert_eq!(network["default"], "local");

    let page = api.get("/docs");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.body.contains("<title>Snowline Data API</title>"));
}

#[test]
fn the_profile_shows_in_the_document() {
    let post = "/v1/signatureAggregator/{network}/aggregateSignatures";
    for (compat, status) in [("spec", "200"), ("glacier", "201")] {
        let dir = tempfile::tempdir().unwrap();
        let api = common::start(dir.path(), &["--compat", compat]);
        let doc = api.get("/openapi.json").json();
        let responses = doc["paths"][post]["post"]["responses"].as_object().unwrap();
        let success: Vec<&String> = responses.keys().filter(|k| k.starts_with('2')).collect();
        assert_eq!(success, [status], "{compat}");
        let value = &doc["components"]["schemas"]["Money"]["properties"]["value"]["type"];
        assert_eq!(value, if compat == "spec" { "string" } else { "number" });
    }
}

#[test]
fn the_metrics_listener_describes_the_metrics_service() {
    let dir = tempfile::tempdir().unwrap();
    let api = common::start(dir.path(), &["--metrics-listen", "127.0.0.1:0"]);
    let line = api
        .stdout_line("metrics service listening on http://")
        .expect("the metrics listener's address");
    let addr = line.split("http://").nth(1).unwrap().trim().to_owned();
    let doc = common::request(&addr, "GET", "/openapi.json", &[], "").json();
    assert_eq!(doc["info"]["title"], "Snowline Metrics API");
    let problems = audit(&doc, &[METRICS_API_V2, METRICS_API_LEGACY_V1]);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(
        doc["paths"]
            .get("/v2/chains/{chainId}/metrics/{metric}")
            .is_some()
    );
    // The Data API's own routes are not the metrics service's.
    assert!(doc["paths"].get("/v1/chains").is_none());
}
