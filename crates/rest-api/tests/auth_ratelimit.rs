//! API keys and weighted rate limits over a real server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{Resp, assert_error, get, read_response, request, spawn};
use serde_json::json;
use snowline_rest_api::{
    App, Caller, InMemoryKeys, RateLimits, Reply, Request, Router, ServerConfig, TierLimit, Weight,
};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

fn caller(key: &str, tier: &str) -> Caller {
    Caller {
        key_id: key.to_owned(),
        org_id: format!("org-{key}"),
        tier: tier.to_owned(),
    }
}

async fn whoami(req: Request) -> Result<Reply, snowline_rest_api::ApiError> {
    Reply::json(&json!({
        "key": req.caller().map(|c| c.key_id.clone()),
        "ip": req.client_ip().to_string(),
    }))
}

fn app(limits: RateLimits) -> App {
    let keys = InMemoryKeys::new()
        .active("secret-a", caller("a", "t"))
        .active("secret-b", caller("b", "t"))
        .active("secret-u", caller("u", "unlimited"))
        .disabled("secret-off");
    App::new(
        Router::new()
            .get("/v1/small", Weight::SMALL, whoami)
            .get("/v1/medium", Weight::MEDIUM, whoami)
            .get("/v1/free", Weight::FREE, whoami)
            .get("/v1/large", Weight::LARGE, whoami),
    )
    .keys(Arc::new(keys))
    .rate_limits(limits)
}

fn limits(per_minute: u32, per_day: u32) -> RateLimits {
    let mut l = RateLimits::default();
    l.tiers
        .insert("t".into(), TierLimit::new(per_minute, per_day));
    l.tiers
        .insert("anonymous".into(), TierLimit::new(per_minute, per_day));
    l
}

#[tokio::test]
async fn keys_resolve_from_either_header() {
    let s = spawn(app(RateLimits::disabled()), ServerConfig::default()).await;
    let r = get(s.addr, "/v1/free", &[("x-data-api-key", "secret-a")]).await;
    assert_eq!(r.json()["key"], "a");
    let r = get(s.addr, "/v1/free", &[("x-glacier-api-key", "secret-b")]).await;
    assert_eq!(r.json()["key"], "b");
    let r = get(s.addr, "/v1/free", &[]).await;
    assert_eq!(r.json(), json!({"key": null, "ip": "127.0.0.1"}));
}

#[tokio::test]
async fn unknown_keys_are_401_and_disabled_keys_403() {
    let s = spawn(app(RateLimits::disabled()), ServerConfig::default()).await;
    let r = get(s.addr, "/v1/free", &[("x-data-api-key", "nope")]).await;
    assert_eq!(assert_error(&r, 401, "Unauthorized"), "Invalid API key");
    let r = get(s.addr, "/v1/free", &[("x-glacier-api-key", "nope")]).await;
    assert_eq!(assert_error(&r, 401, "Unauthorized"), "Invalid API key");
    let r = get(s.addr, "/v1/free", &[("x-data-api-key", "secret-off")]).await;
    assert_eq!(assert_error(&r, 403, "Forbidden"), "API key is disabled");
}

#[tokio::test]
async fn exceeding_the_limit_is_429_with_headers() {
    let s = spawn(app(limits(30, 1_000)), ServerConfig::default()).await;
    let key = [("x-data-api-key", "secret-a")];
    for left in ["20", "10", "0"] {
        let r = get(s.addr, "/v1/small", &key).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("ratelimit-policy"), Some("30;w=60, 1000;w=86400"));
        assert_eq!(r.header("ratelimit-limit"), Some("30"));
        assert_eq!(r.header("ratelimit-remaining"), Some(left));
        assert_eq!(r.header("retry-after"), None);
    }
    let r = get(s.addr, "/v1/small", &key).await;
    let msg = assert_error(&r, 429, "Too Many Requests");
    assert!(
        msg.as_str().unwrap().starts_with("Rate limit exceeded: "),
        "{msg}"
    );
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    // 10 units at 30 per minute come back within 20 s.
    assert!((1..=20).contains(&retry), "{retry}");
    assert_eq!(r.header("ratelimit-reset"), r.header("retry-after"));
    assert_eq!(r.header("ratelimit-remaining"), Some("0"));

    // Another key has its own budget.
    let r = get(s.addr, "/v1/small", &[("x-data-api-key", "secret-b")]).await;
    assert_eq!(
        (r.status, r.header("ratelimit-remaining")),
        (200, Some("20"))
    );
    // The unlimited tier gets no headers at all.
    let r = get(s.addr, "/v1/large", &[("x-data-api-key", "secret-u")]).await;
    assert_eq!((r.status, r.header("ratelimit-policy")), (200, None));
}

#[tokio::test]
async fn weights_count_and_a_request_that_never_fits_is_429() {
    let s = spawn(app(limits(25, 1_000)), ServerConfig::default()).await;
    let key = [("x-data-api-key", "secret-a")];
    let r = get(s.addr, "/v1/medium", &key).await;
    assert_eq!(r.header("ratelimit-remaining"), Some("5"));
    for left in (0..5).rev() {
        let r = get(s.addr, "/v1/free", &key).await;
        assert_eq!(
            r.header("ratelimit-remaining"),
            Some(left.to_string().as_str())
        );
    }
    assert_eq!(get(s.addr, "/v1/free", &key).await.status, 429);
    // 50 units can never fit in 25: refused, not a panic, with no retry hint.
    let r = get(s.addr, "/v1/large", &[("x-data-api-key", "secret-b")]).await;
    let msg = assert_error(&r, 429, "Too Many Requests");
    assert!(msg.as_str().unwrap().contains("costs 50"), "{msg}");
    assert_eq!(r.header("retry-after"), None);
}

async fn get_from(source: [u8; 4], addr: SocketAddr, path: &str) -> Resp {
    let sock = TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::from((source, 0))).unwrap();
    let mut s = sock.connect(addr).await.unwrap();
    s.write_all(request("GET", path, &[], "").as_bytes())
        .await
        .unwrap();
    read_response(&mut s).await.unwrap()
}

#[tokio::test]
async fn anonymous_callers_are_limited_per_ip() {
    let s = spawn(app(limits(20, 1_000)), ServerConfig::default()).await;
    for _ in 0..2 {
        assert_eq!(
            get_from([127, 0, 0, 1], s.addr, "/v1/small").await.status,
            200
        );
    }
    let r = get_from([127, 0, 0, 1], s.addr, "/v1/small").await;
    assert_eq!(r.status, 429);
    let r = get_from([127, 0, 0, 2], s.addr, "/v1/small").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["ip"], "127.0.0.2");
    assert_eq!(r.header("ratelimit-remaining"), Some("10"));
}
