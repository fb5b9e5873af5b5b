//! `/openapi.json` of the real `metrics-api` binary: every route it serves is described (from
//! the v2 document, the legacy one for its v1 operations, or the edge's own), every operation it
//! describes is routed, and `/docs` is the page that renders it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::Value;
use snowline_metrics_api::openapi::{METRICS_API_LEGACY_V1, METRICS_API_V2};
use snowline_rest_api::openapi::{SNOWLINE_EXTENSION, audit, shape};

/// `METHOD path` on a new connection: the status and the body.
fn call(addr: &str, method: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

#[test]
fn the_document_describes_exactly_the_routes_served() {
    let dir = tempfile::tempdir().unwrap();
    let store = common::index::open(dir.path(), Vec::new());
    let api = common::start(dir.path(), &[]);
    let (status, body) = call(&api.addr, "GET", "/openapi.json");
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&body).unwrap();
    let problems = audit(&doc, &[METRICS_API_V2, METRICS_API_LEGACY_V1]);
    assert!(problems.is_empty(), "{problems:#?}");
    let mut ours = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            let m = m.to_uppercase();
            let concrete = shape(path).replace("{}", "x");
            let (status, body) = call(&api.addr, &m, &concrete);
            let refused =
                matches!(status, 404 | 405) && body.contains(&format!("Cannot {m} {concrete}"));
            assert!(!refused, "{m} {path} is described but not served");
            if op.get(SNOWLINE_EXTENSION).is_some() {
                ours.push(format!("{m} {path}"));
            }
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
            "GET /v1/live-check",
            "GET /v2/chains/{chainId}/btcb/bridged:getAddresses",
        ]
    );
    // The legacy document describes the spec's avg_tps under its own parameter name; the
    // v2 document wins where both describe a route.
    assert_eq!(
        doc["paths"]["/v1/avg_tps/{chain}"]["get"]["operationId"],
        "getAvgTps"
    );
    assert_eq!(
        doc["paths"]["/v2/chains/{chainId}/metrics/{metric}"]["get"]["operationId"],
        "getEvmChainMetrics"
    );
    // Every operation of both documents is served and described: a path both describe with
    // v2's operation, the others with their own.
    let v2: Value = serde_json::from_str(METRICS_API_V2).unwrap();
    let legacy: Value = serde_json::from_str(METRICS_API_LEGACY_V1).unwrap();
    let served = |source: &Value, winner: Option<&Value>| {
        let mut n = 0;
        for (path, item) in source["paths"].as_object().unwrap() {
            for (m, op) in item.as_object().unwrap() {
                let id = winner
                    .and_then(|w| w["paths"][path][m]["operationId"].as_str())
                    .unwrap_or_else(|| op["operationId"].as_str().unwrap());
                assert_eq!(doc["paths"][path][m]["operationId"], id, "{m} {path}");
                n += 1;
            }
        }
        n
    };
    assert_eq!(served(&v2, None), 16);
    assert_eq!(served(&legacy, Some(&v2)), 45);
    assert_eq!(
        doc["paths"]["/v2/chains"]["get"]["parameters"],
        v2["paths"]["/v2/chains"]["get"]["parameters"]
    );
    let (status, page) = call(&api.addr, "GET", "/docs");
    assert_eq!(status, 200);
    assert!(page.contains("<title>Snowline Metrics API</title>"));
    drop(store);
}
