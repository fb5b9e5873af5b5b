//! `/openapi.json` and `/docs` over a real server: the document names exactly the routes the
//! server answers (each one is routed, none is missing), and the document, the page and its
//! files are served without a key, a rate limit or metering.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get, request, send, spawn};
use serde_json::{Value, json};
use snowline_rest_api::openapi::{SNOWLINE_EXTENSION, shape};
use snowline_rest_api::{
    ApiDescription, ApiError, App, MemorySink, RateLimits, Reply, Request, Router, ServerConfig,
    TierLimit, Weight,
};
use std::sync::Arc;

const REFERENCE: &str = r##"{
  "openapi": "3.1.0",
  "info": { "title": "Reference", "version": "1" },
  "tags": [{ "name": "Chains" }],
  "paths": {
    "/v1/chains/{chainId}": { "get": { "operationId": "getChain", "tags": ["Chains"],
      "parameters": [{ "name": "chainId", "in": "path", "required": true, "schema": { "type": "string" } }],
      "responses": { "200": { "description": "ok" } } } },
    "/v1/chains/{chainId}:poke": { "post": { "operationId": "poke", "responses": { "200": { "description": "ok" } } } },
    "/v1/elsewhere": { "get": { "operationId": "notServed", "responses": {} } }
  }
}"##;

async fn chain(req: Request) -> Result<Reply, ApiError> {
    Reply::json(&json!({ "chainId": req.required_param("chainId")? }))
}

async fn ok(_: Request) -> Result<Reply, ApiError> {
    Reply::json(&json!({}))
}

fn app(sink: Arc<MemorySink>, limits: RateLimits) -> App {
    let router = Router::new()
        .get("/v1/chains/{chainId}", Weight::MEDIUM, chain)
        .post("/v1/chains/{id}:poke", Weight::SMALL, ok)
        .get("/v1/mine", Weight::FREE, ok);
    App::new(router)
        .rate_limits(limits)
        .usage_sink(sink)
        .describe(ApiDescription::new("Test", "1.0.0", "A test.").reference("ref.json", REFERENCE))
}

/// The path of a document's path template with every parameter filled in.
fn concrete(path: &str) -> String {
    shape(path).replace("{}", "x")
}

#[tokio::test]
async fn the_document_names_exactly_what_the_server_routes() {
    let sink = Arc::new(MemorySink::new());
    let server = spawn(app(sink, RateLimits::disabled()), ServerConfig::default()).await;
    let doc = get(server.addr, "/openapi.json", &[]).await.json();
    let mut ops: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            ops.push((m.to_uppercase(), path.clone()));
            assert_eq!(
                op.get(SNOWLINE_EXTENSION).is_some(),
                !path.starts_with("/v1/chains")
            );
        }
    }
    ops.sort();
    let expected: Vec<(String, String)> = [
        ("GET", "/docs"),
        ("GET", "/healthz"),
        ("GET", "/metrics"),
        ("GET", "/openapi.json"),
        ("GET", "/readyz"),
        ("GET", "/v1/chains/{chainId}"),
        ("GET", "/v1/health-check"),
        ("GET", "/v1/live-check"),
        ("GET", "/v1/mine"),
        ("POST", "/v1/chains/{chainId}:poke"),
    ]
    .iter()
    .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
    .collect();
    assert_eq!(ops, expected);
    assert_eq!(
        doc["paths"]["/v1/mine"]["get"][SNOWLINE_EXTENSION],
        "undocumented"
    );
    // Each is routed: the server's answer is not its "Cannot GET" of an unknown path.
    for (m, path) in &ops {
        let r = send(server.addr, &request(m, &concrete(path), &[], "")).await;
        assert!(r.status < 400, "{m} {path}: {} {}", r.status, r.body);
    }
    let r = get(server.addr, "/v1/elsewhere", &[]).await;
    assert_error(&r, 404, "Not Found");
}

#[tokio::test]
async fn the_document_and_the_page_cost_nothing_and_answer_only_get() {
    let sink = Arc::new(MemorySink::new());
    // One request's worth a minute for the anonymous tier: were the files metered or limited,
    // the second would be a 429.
    let mut limits = RateLimits::default();
    limits
        .tiers
        .insert("anonymous".into(), TierLimit::new(1, 1_000));
    let server = spawn(app(sink.clone(), limits), ServerConfig::default()).await;
    for _ in 0..3 {
        for path in [
            "/openapi.json",
            "/docs",
            "/docs/swagger-ui.css",
            "/docs/swagger-ui-bundle.js",
            "/docs/snowline-docs.js",
        ] {
            let r = get(server.addr, path, &[("x-data-api-key", "unknown")]).await;
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            assert!(r.header("etag").is_some(), "{path}");
            assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        }
    }
    assert!(sink.events().is_empty(), "{:?}", sink.events());
    let page = get(server.addr, "/docs", &[]).await;
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.body.contains("/docs/swagger-ui-bundle.js"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let css = get(server.addr, "/docs/swagger-ui.css", &[]).await;
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));
    let etag = css.header("etag").unwrap().to_owned();
    let again = get(
        server.addr,
        "/docs/swagger-ui.css",
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());

    for (method, path) in [("POST", "/docs"), ("HEAD", "/docs/swagger-ui.css")] {
        let r = send(server.addr, &request(method, path, &[], "")).await;
        assert_eq!(r.status, 405, "{method} {path}");
        assert_eq!(r.header("allow"), Some("GET"));
    }
    let r = get(server.addr, "/docs/nothing.js", &[]).await;
    assert_error(&r, 404, "Not Found");
    let doc: Value = get(server.addr, "/openapi.json", &[]).await.json();
    assert_eq!(
        doc["servers"],
        json!([{ "url": "/", "description": "This server" }])
    );
}

#[tokio::test]
async fn an_app_without_a_description_serves_neither() {
    let server = spawn(App::new(Router::new()), ServerConfig::default()).await;
    for path in ["/openapi.json", "/docs"] {
        assert_error(&get(server.addr, path, &[]).await, 404, "Not Found");
    }
}
