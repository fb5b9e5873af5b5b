//! Usage events, `/metrics` and the health routes over a real server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get};
use serde_json::json;
use snowline_rest_api::prometheus_client::metrics::gauge::Gauge;
use snowline_rest_api::{
    ApiError, App, Caller, Check, InMemoryKeys, MemorySink, RateLimits, Readiness, Reply, Request,
    Router, ServerConfig, TierLimit, UsageEvent, Weight,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

async fn chain(req: Request) -> Result<Reply, ApiError> {
    match req.required_param("chainId")? {
        "bad" => Err(ApiError::bad_request("chainId is bad")),
        "oops" => Err(ApiError::internal("oops")),
        c => Reply::json(&json!({ "chainId": c })),
    }
}

struct Flag(Arc<AtomicBool>);

impl Readiness for Flag {
    fn check(&self) -> Vec<Check> {
        if self.0.load(Ordering::SeqCst) {
            vec![Check::up("database")]
        } else {
            vec![
                Check::up("database"),
                Check::down("ingest", "lagging 120 s"),
            ]
        }
    }
}

fn app(sink: Arc<MemorySink>, ready: Arc<AtomicBool>, lag: Gauge) -> App {
    let mut limits = RateLimits::default();
    limits.tiers.insert("t".into(), TierLimit::new(61, 1_000));
    let keys = InMemoryKeys::new().active(
        "secret",
        Caller {
            key_id: "k1".into(),
            org_id: "o1".into(),
            tier: "t".into(),
        },
    );
    App::new(Router::new().get("/v1/chains/{chainId}", Weight::MEDIUM, chain))
        .keys(Arc::new(keys))
        .rate_limits(limits)
        .usage_sink(sink)
        .readiness(Arc::new(Flag(ready)))
        .metrics(move |reg| reg.register("ingest_lag_seconds", "Ingest lag", lag))
}

fn by_path(events: &[UsageEvent], path: &str, code: u16) -> UsageEvent {
    events
        .iter()
        .find(|e| e.request_path == path && e.response_code == code)
        .unwrap_or_else(|| panic!("no {path} {code} event in {events:?}"))
        .clone()
}

#[tokio::test]
async fn usage_events_carry_template_status_key_and_credits() {
    let sink = Arc::new(MemorySink::new());
    let s = spawn_app(app(Arc::clone(&sink), Arc::default(), Gauge::default())).await;
    let key = [("x-data-api-key", "secret")];
    // 61 units per minute: 20 + 20 + 1 (the 404) + 20 fit, the next 20 do not.
    assert_eq!(get(s.addr, "/v1/chains/43114", &key).await.status, 200);
    assert_eq!(get(s.addr, "/v1/chains/bad", &key).await.status, 400);
    assert_eq!(get(s.addr, "/v1/chains/oops", &[]).await.status, 500);
    assert_eq!(get(s.addr, "/v1/nowhere", &key).await.status, 404);
    assert_eq!(get(s.addr, "/v1/chains/1", &key).await.status, 200);
    assert_eq!(get(s.addr, "/v1/chains/1", &key).await.status, 429);
    assert_eq!(get(s.addr, "/healthz", &[]).await.status, 200);

    let events = sink.events();
    assert_eq!(events.len(), 6, "{events:?}");
    let ok = by_path(&events, "/v1/chains/{chainId}", 200);
    assert_eq!(
        (
            ok.org_id.as_str(),
            ok.api_key_id.as_str(),
            ok.chain_id.as_deref()
        ),
        ("o1", "k1", Some("43114"))
    );
    assert_eq!((ok.credits_used, ok.credits_wasted), (20, 0));
    assert_eq!(ok.request_type, "data");
    assert!(ok.timestamp_ms > 1_600_000_000_000);

    let bad = by_path(&events, "/v1/chains/{chainId}", 400);
    assert_eq!(
        (
            bad.credits_used,
            bad.credits_wasted,
            bad.chain_id.as_deref()
        ),
        (0, 20, Some("bad"))
    );
    let oops = by_path(&events, "/v1/chains/{chainId}", 500);
    assert_eq!((oops.credits_used, oops.credits_wasted), (0, 0));
    assert_eq!((oops.org_id.as_str(), oops.api_key_id.as_str()), ("", ""));
    let unknown = by_path(&events, "unknown", 404);
    assert_eq!((unknown.credits_wasted, unknown.chain_id), (1, None));
    let limited = by_path(&events, "/v1/chains/{chainId}", 429);
    assert_eq!((limited.credits_used, limited.credits_wasted), (0, 20));
}

#[tokio::test]
async fn metering_can_be_switched_off() {
    let sink = Arc::new(MemorySink::new());
    let app = app(Arc::clone(&sink), Arc::default(), Gauge::default()).metering(false);
    let s = spawn_app(app).await;
    assert_eq!(get(s.addr, "/v1/chains/1", &[]).await.status, 200);
    assert!(sink.events().is_empty());
}

/// Parses exposition text into `series -> value`.
fn parse_metrics(text: &str) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (series, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("bad line {line:?}"));
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("bad value in {line:?}"));
        out.insert(series.to_owned(), value);
    }
    out
}

#[tokio::test]
async fn metrics_count_requests_and_expose_application_metrics() {
    let lag = Gauge::default();
    let s = spawn_app(app(
        Arc::new(MemorySink::new()),
        Arc::default(),
        lag.clone(),
    ))
    .await;
    lag.set(42);
    let key = [("x-data-api-key", "secret")];
    // 61 units per minute: three 20-unit requests fit, the fourth does not.
    for _ in 0..4 {
        get(s.addr, "/v1/chains/1", &key).await;
    }
    get(s.addr, "/v1/nowhere", &[]).await;
    let r = get(s.addr, "/metrics", &[]).await;
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    assert!(r.body.ends_with("# EOF\n"));
    let m = parse_metrics(&r.body);
    let get_ = |k: &str| {
        m.get(k)
            .copied()
            .unwrap_or_else(|| panic!("no {k} in\n{}", r.body))
    };
    assert_eq!(
        get_(r#"http_requests_total{route="/v1/chains/{chainId}",method="GET",status="200"}"#),
        3.0
    );
    assert_eq!(
        get_(r#"http_requests_total{route="/v1/chains/{chainId}",method="GET",status="429"}"#),
        1.0
    );
    assert_eq!(
        get_(r#"http_requests_total{route="unknown",method="GET",status="404"}"#),
        1.0
    );
    assert_eq!(
        get_(r#"http_request_duration_seconds_count{route="/v1/chains/{chainId}"}"#),
        4.0
    );
    assert_eq!(get_(r#"rate_limit_rejections_total{tier="t"}"#), 1.0);
    // The scrape itself is in flight while it renders.
    assert_eq!(get_("http_requests_in_flight"), 1.0);
    assert_eq!(get_("ingest_lag_seconds"), 42.0);
}

#[tokio::test]
async fn health_routes_follow_readiness() {
    let ready = Arc::new(AtomicBool::new(true));
    let s = spawn_app(app(
        Arc::new(MemorySink::new()),
        Arc::clone(&ready),
        Gauge::default(),
    ))
    .await;
    assert_eq!(
        get(s.addr, "/healthz", &[]).await.json(),
        json!({"status": "ok"})
    );
    assert_eq!(
        get(s.addr, "/readyz", &[]).await.json(),
        json!({"status": "ok"})
    );
    let r = get(s.addr, "/v1/health-check", &[]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "ok");
    assert_eq!(r.json()["details"], json!({"database": {"status": "up"}}));
    assert_eq!(get(s.addr, "/v1/live-check", &[]).await.status, 200);

    ready.store(false, Ordering::SeqCst);
    let r = get(s.addr, "/readyz", &[]).await;
    assert_eq!(r.status, 503);
    assert_eq!(
        r.json(),
        json!({"status": "error", "reasons": ["ingest: lagging 120 s"]})
    );
    let r = get(s.addr, "/v1/health-check", &[]).await;
    let msg = assert_error(&r, 503, "Service Unavailable");
    assert!(msg.as_str().unwrap().contains("ingest: lagging 120 s"));
    assert_eq!(get(s.addr, "/healthz", &[]).await.status, 200);
}

async fn spawn_app(app: App) -> common::TestServer {
    common::spawn(app, ServerConfig::default()).await
}

/// A request the HTTP layer refuses before reading it (a URI over 64 KiB, headers too large) is
/// answered in the spec's error shape, metered and counted, not an empty body.
#[tokio::test]
async fn requests_refused_before_routing_are_answered_metered_and_counted() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let sink = Arc::new(MemorySink::new());
    let s = spawn_app(app(Arc::clone(&sink), Arc::default(), Gauge::default())).await;
    let raw = |head: String| async move {
        let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
        let _ = c.write_all(head.as_bytes()).await;
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out).await;
        String::from_utf8_lossy(&out).into_owned()
    };
    let addresses = vec!["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p"; 4_000].join(",");
    let long = raw(format!(
        "GET /v1/networks/local/blockchains/x-chain/utxos?addresses={addresses} HTTP/1.1\r\n\
         host: x\r\n\r\n"
    ))
    .await;
    let big = raw(format!(
        "GET /v1/chains HTTP/1.1\r\nhost: x\r\nx-junk: {}\r\n\r\n",
        "j".repeat(2_000_000)
    ))
    .await;
    // 101 small header fields: over hyper's count, not its bytes.
    let fields: String = (0..101).map(|i| format!("x-f{i}: v\r\n")).collect();
    let many = raw(format!(
        "GET /v1/chains HTTP/1.1\r\nhost: x\r\n{fields}\r\n"
    ))
    .await;
    // Raw bytes that are not visible ASCII in the path (invalid UTF-8 too): not HTTP/1.1.
    let bytes = {
        let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
        let _ = c
            .write_all(b"GET /v1/chains/\xff\xfe HTTP/1.1\r\nhost: x\r\n\r\n")
            .await;
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out).await;
        String::from_utf8_lossy(&out).into_owned()
    };
    let too_big = "the request's headers are over the limit of 262144 bytes or 100 fields";
    for (answer, status, error, message) in [
        (
            &long,
            414,
            "URI Too Long",
            "the request URI is longer than the limit of 65534 bytes",
        ),
        (&big, 431, "Request Header Fields Too Large", too_big),
        (&many, 431, "Request Header Fields Too Large", too_big),
        (
            &bytes,
            400,
            "Bad Request",
            "the request is not valid HTTP/1.1 (a request line, headers and a body as \
             RFC 9112 gives them; a URI of visible ASCII, percent-encoded past it)",
        ),
    ] {
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"message": message, "statusCode": status, "error": error})
        );
    }
    let codes: Vec<(String, u16, u32)> = sink
        .events()
        .into_iter()
        .map(|e| (e.request_path, e.response_code, e.credits_used))
        .collect();
    assert_eq!(
        codes,
        [
            ("unknown".to_owned(), 414, 0),
            ("unknown".to_owned(), 431, 0),
            ("unknown".to_owned(), 431, 0),
            ("unknown".to_owned(), 400, 0)
        ]
    );
    let m = parse_metrics(&get(s.addr, "/metrics", &[]).await.body);
    for (status, n) in [(414, 1.0), (431, 2.0), (400, 1.0)] {
        let key =
            format!(r#"http_requests_total{{route="unknown",method="other",status="{status}"}}"#);
        assert_eq!(m.get(key.as_str()).copied(), Some(n), "{key}");
    }
}
