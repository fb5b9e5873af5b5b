//! Routing over a real server: literals, params, `:action`, percent-decoding, 404/405.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get, request, send, spawn};
use serde_json::{Map, Value, json};
use snowline_rest_api::{App, RateLimits, Reply, Request, Router, ServerConfig, Weight};
use std::sync::Arc;

async fn echo(req: Request) -> Result<Reply, snowline_rest_api::ApiError> {
    let params: Map<String, Value> = req
        .params()
        .map(|(k, v)| (k.to_owned(), Value::from(v)))
        .collect();
    Reply::json(&json!({
        "template": req.template(),
        "params": params,
        "a": req.query("a"),
    }))
}

fn router() -> Router {
    Router::new()
        .get("/v1/networks/{network}/rewards", Weight::MEDIUM, echo)
        .get(
            "/v1/networks/{network}/rewards:listPending",
            Weight::MEDIUM,
            echo,
        )
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight",
            Weight::XL,
            echo,
        )
        .get(
            "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
            Weight::MEDIUM,
            echo,
        )
        .post(
            "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex",
            Weight::XXL,
            echo,
        )
        .get("/v1/chains/{chainId}", Weight::FREE, echo)
}

async fn server() -> common::TestServer {
    spawn(
        App::new(router()).rate_limits(RateLimits::disabled()),
        ServerConfig::default(),
    )
    .await
}

#[tokio::test]
async fn literals_params_and_actions() {
    let s = server().await;
    let r = get(s.addr, "/v1/networks/mainnet/rewards:listPending", &[]).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json()["template"],
        "/v1/networks/{network}/rewards:listPending"
    );
    assert_eq!(r.json()["params"], json!({"network": "mainnet"}));

    let r = get(s.addr, "/v1/networks/mainnet/rewards?a=1&a=2", &[]).await;
    assert_eq!(r.json()["template"], "/v1/networks/{network}/rewards");
    assert_eq!(r.json()["a"], "1");

    let r = get(
        s.addr,
        "/v1/networks/fuji/blockchains/2oYM/vertices:listByHeight",
        &[],
    )
    .await;
    assert_eq!(
        r.json()["params"],
        json!({"network": "fuji", "blockchainId": "2oYM"})
    );

    let r = send(
        s.addr,
        &request(
            "POST",
            "/v1/chains/43114/nfts/collections/0xab/tokens/17:reindex",
            &[],
            "",
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(
        r.json()["params"],
        json!({"chainId": "43114", "address": "0xab", "tokenId": "17"})
    );
}

#[tokio::test]
async fn segments_are_percent_decoded_after_splitting() {
    let s = server().await;
    let r = get(s.addr, "/v1/chains/a%2Fb%20c", &[]).await;
    assert_eq!(r.json()["params"], json!({"chainId": "a/b c"}));
    let r = get(
        s.addr,
        "/v1/chains/1/addresses/0xab/balances%3AlistErc721",
        &[],
    )
    .await;
    assert_eq!(
        r.json()["template"],
        "/v1/chains/{chainId}/addresses/{address}/balances:listErc721"
    );
    let r = get(s.addr, "/v1/chains/%C3%A9", &[]).await;
    assert_eq!(r.json()["params"], json!({"chainId": "é"}));
}

#[tokio::test]
async fn bad_escapes_are_400() {
    let s = server().await;
    for path in ["/v1/chains/%zz", "/v1/chains/%ff", "/v1/chains/ab%4"] {
        let r = get(s.addr, path, &[]).await;
        let msg = assert_error(&r, 400, "Bad Request");
        assert!(
            msg.as_str().unwrap().contains("path segment")
                || msg.as_str().unwrap().contains("Path segment"),
            "{msg}"
        );
    }
}

/// A query that percent-decodes to invalid UTF-8 is a 400 naming the parameter (never U+FFFD
/// passed to the handler), as a path that does; counted in `/metrics` under its route.
#[tokio::test]
async fn queries_that_decode_to_invalid_utf8_are_400() {
    let s = server().await;
    for (query, name) in [
        ("a=%ff", "a"),
        ("x=1&%fe%ff=2", "%fe%ff"),
        ("a=%C3%28", "a"),
    ] {
        let r = get(s.addr, &format!("/v1/chains/43114?{query}"), &[]).await;
        let msg = assert_error(&r, 400, "Bad Request");
        assert_eq!(
            msg,
            format!("Query parameter {name:?} does not decode to valid UTF-8"),
            "{query}"
        );
    }
    // Valid escapes, and bad escapes the form decoding keeps as they are, still pass.
    let r = get(s.addr, "/v1/chains/43114?a=%C3%A9%zz", &[]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["a"], "é%zz");
    let m = get(s.addr, "/metrics", &[]).await.body;
    assert!(
        m.contains(
            r#"http_requests_total{route="/v1/chains/{chainId}",method="GET",status="400"} 3"#
        ),
        "{m}"
    );
}

#[tokio::test]
async fn unknown_path_is_404_and_wrong_method_is_405_with_allow() {
    let s = server().await;
    let r = get(s.addr, "/v1/nope", &[]).await;
    let msg = assert_error(&r, 404, "Not Found");
    assert_eq!(msg, "Cannot GET /v1/nope");

    let r = get(
        s.addr,
        "/v1/chains/1/nfts/collections/0xab/tokens/17:reindex",
        &[],
    )
    .await;
    assert_error(&r, 405, "Method Not Allowed");
    assert_eq!(r.header("allow"), Some("POST"));

    let r = send(s.addr, &request("DELETE", "/v1/chains/1", &[], "")).await;
    assert_error(&r, 405, "Method Not Allowed");
    assert_eq!(r.header("allow"), Some("GET"));

    // HEAD is not GET-without-body: it is a 405 like any other unregistered method.
    let r = send(s.addr, &request("HEAD", "/v1/chains/1", &[], "")).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("GET"));
}

/// A blocking route runs on the blocking pool: while its handler is stuck, a request on another
/// connection is served by the one async worker. (Had it run on the worker, the second request
/// could not be answered until the first was released, and the test would hang until its
/// timeout.)
#[tokio::test(flavor = "current_thread")]
async fn a_blocking_route_does_not_stall_the_async_worker() {
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let release_rx = std::sync::Mutex::new(release_rx);
    let (entered_tx, entered_rx) = tokio::sync::oneshot::channel::<()>();
    let entered_tx = std::sync::Mutex::new(Some(entered_tx));
    let router = Router::new()
        .get_blocking("/v1/slow", Weight::MEDIUM, move |_req| {
            if let Some(tx) = entered_tx.lock().unwrap().take() {
                let _ = tx.send(());
            }
            // Blocks its thread until the test releases it.
            release_rx.lock().unwrap().recv().unwrap();
            Reply::json(&json!({"slow": true}))
        })
        .get("/v1/fast", Weight::MEDIUM, echo);
    let app = App::new(router).rate_limits(RateLimits::disabled());
    let server = spawn(app, ServerConfig::default()).await;
    let addr = server.addr;
    let slow = tokio::spawn(async move { get(addr, "/v1/slow", &[]).await });
    entered_rx.await.unwrap();
    let fast = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        get(addr, "/v1/fast", &[]),
    )
    .await
    .expect("the fast request waited for the blocked handler");
    assert_eq!(fast.status, 200);
    release_tx.send(()).unwrap();
    let slow = slow.await.unwrap();
    assert_eq!((slow.status, slow.json()), (200, json!({"slow": true})));
}

/// Blocking handlers take turns: however many requests arrive at once, no more run together
/// than two per core, and every request is answered.
#[tokio::test]
async fn blocking_handlers_run_at_most_two_per_core() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let (r, m) = (Arc::clone(&running), Arc::clone(&most));
    let router = Router::new().get_blocking("/v1/read", Weight::MEDIUM, move |_req| {
        let now = r.fetch_add(1, Ordering::SeqCst) + 1;
        m.fetch_max(now, Ordering::SeqCst);
        // Long enough for the other requests to arrive while this one runs.
        std::thread::sleep(std::time::Duration::from_millis(20));
        r.fetch_sub(1, Ordering::SeqCst);
        Reply::json(&json!({"ok": true}))
    });
    let app = App::new(router).rate_limits(RateLimits::disabled());
    let server = spawn(app, ServerConfig::default()).await;
    let addr = server.addr;
    let requests: Vec<_> = (0..24)
        .map(|_| tokio::spawn(async move { get(addr, "/v1/read", &[]).await.status }))
        .collect();
    for r in requests {
        assert_eq!(r.await.unwrap(), 200);
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let most = most.load(Ordering::SeqCst);
    assert!(
        most >= 1 && most <= 2 * cores,
        "{most} ran at once on {cores} cores"
    );
}

/// A blocking handler that panics answers 500 in the spec's shape, and the threads keep serving.
#[tokio::test]
async fn a_panicking_blocking_handler_is_a_500_and_the_threads_survive() {
    let router = Router::new()
        .get_blocking("/v1/boom", Weight::MEDIUM, |_req| -> Result<Reply, _> {
            panic!("boom")
        })
        .get_blocking("/v1/fine", Weight::MEDIUM, |_req| {
            Reply::json(&json!({"ok": 1}))
        });
    let app = App::new(router).rate_limits(RateLimits::disabled());
    let server = spawn(app, ServerConfig::default()).await;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    // More panics than there are threads: each one must have survived the one before.
    for _ in 0..(2 * cores + 2) {
        assert_error(
            &get(server.addr, "/v1/boom", &[]).await,
            500,
            "Internal Server Error",
        );
    }
    let fine = get(server.addr, "/v1/fine", &[]).await;
    assert_eq!((fine.status, fine.json()), (200, json!({"ok": 1})));
}
