//! Request limits over a real server: body size, slow headers, request timeout,
//! connection cap and graceful shutdown.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get, read_response, request, send, spawn};
use snowline_rest_api::{
    ApiError, App, Caller, InMemoryKeys, MemorySink, RateLimits, Reply, Request, Router,
    ServerConfig, Weight,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Notify;

#[derive(serde::Deserialize)]
struct Body {
    n: u64,
}

fn config() -> ServerConfig {
    ServerConfig {
        max_body_bytes: 64,
        header_read_timeout: Duration::from_millis(300),
        request_timeout: Duration::from_millis(300),
        max_connections: 64,
        shutdown_grace: Duration::from_secs(10),
        ..ServerConfig::default()
    }
}

fn app(release: Arc<Notify>, started: Arc<Notify>, count: Arc<AtomicU64>) -> App {
    App::new(
        Router::new()
            .post("/v1/echo", Weight::FREE, |req: Request| async move {
                let b: Body = req.json()?;
                Reply::json(&b.n)
            })
            .get("/v1/forever", Weight::FREE, |_| async {
                std::future::pending::<Result<Reply, ApiError>>().await
            })
            .get("/v1/wait", Weight::FREE, move |_| {
                let (release, started) = (Arc::clone(&release), Arc::clone(&started));
                async move {
                    started.notify_one();
                    release.notified().await;
                    Reply::json(&"released")
                }
            })
            .get("/v1/count", Weight::FREE, move |_| {
                let n = count.fetch_add(1, Ordering::SeqCst) + 1;
                async move { Reply::json(&n) }
            }),
    )
    .rate_limits(RateLimits::disabled())
}

fn plain_app() -> App {
    app(Arc::default(), Arc::default(), Arc::default())
}

#[tokio::test]
async fn bodies_decode_and_bad_json_is_400() {
    let s = spawn(plain_app(), config()).await;
    let r = send(s.addr, &request("POST", "/v1/echo", &[], r#"{"n":7}"#)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "7"));
    let r = send(s.addr, &request("POST", "/v1/echo", &[], r#"{"n":"x"}"#)).await;
    let msg = assert_error(&r, 400, "Bad Request");
    assert!(
        msg.as_str()
            .unwrap()
            .starts_with("Invalid JSON body: invalid type"),
        "{msg}"
    );
}

#[tokio::test]
async fn too_large_bodies_are_413_declared_or_streamed() {
    let s = spawn(plain_app(), config()).await;
    let big = format!(r#"{{"n":1,"pad":"{}"}}"#, "x".repeat(100));
    let r = send(s.addr, &request("POST", "/v1/echo", &[], &big)).await;
    let msg = assert_error(&r, 413, "Payload Too Large");
    assert_eq!(msg, "Request body too large: the limit is 64 bytes");
    assert_eq!(r.header("connection"), Some("close"));

    // Chunked, so only reading finds out.
    let chunked = format!(
        "POST /v1/echo HTTP/1.1\r\nhost: t\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{big}\r\n0\r\n\r\n",
        big.len()
    );
    let r = send(s.addr, &chunked).await;
    assert_error(&r, 413, "Payload Too Large");
}

#[tokio::test]
async fn slow_headers_close_the_connection() {
    let s = spawn(plain_app(), config()).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(b"GET /v1/count HTTP/1.1\r\nhost: t\r\n")
        .await
        .unwrap();
    // Never finish the headers: the server must hang up (EOF or reset), not wait forever.
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), c.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "connection still open");
    assert!(!String::from_utf8_lossy(&buf).contains("200 OK"));
}

#[tokio::test]
async fn a_slow_handler_times_out_with_503() {
    let s = spawn(plain_app(), config()).await;
    let r = get(s.addr, "/v1/forever", &[]).await;
    let msg = assert_error(&r, 503, "Service Unavailable");
    assert_eq!(msg, "request timed out after 300ms");
}

/// Opens a connection and, when `request` is set, makes one keep-alive request on it, so it
/// sits idle between requests; otherwise it sits idle before its first.
async fn idle_connection(addr: std::net::SocketAddr, request_first: bool) -> TcpStream {
    let mut c = TcpStream::connect(addr).await.unwrap();
    if request_first {
        c.write_all(request("GET", "/v1/count", &[], "").as_bytes())
            .await
            .unwrap();
        assert_eq!(read_response(&mut c).await.unwrap().status, 200);
    }
    c
}

/// Whether the server has closed `c` (EOF or reset) within a bound far below the header
/// timeout that would close it anyway.
async fn closed(c: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(Duration::from_secs(10), c.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// Past the cap a client is served, not kept waiting until the header timeout closes idle
/// connections: each new connection closes the one idle the longest (no request in flight).
/// The cap is full of idle connections, twice over; every bound here is a third of the 30 s
/// header timeout, so only a wait for it fails.
#[tokio::test]
async fn past_the_cap_the_connection_idle_the_longest_makes_room() {
    let cfg = ServerConfig {
        max_connections: 4,
        header_read_timeout: Duration::from_secs(30),
        ..config()
    };
    let s = spawn(plain_app(), cfg).await;
    // The cap, full: two idle between requests, two that never sent one.
    let mut first = Vec::new();
    for i in 0..4 {
        first.push(idle_connection(s.addr, i % 2 == 0).await);
    }
    // Four more idle ones past the cap: each makes room by closing one of the first four.
    let mut second = Vec::new();
    for _ in 0..4 {
        second.push(idle_connection(s.addr, true).await);
    }
    for c in &mut first {
        assert!(
            closed(c).await,
            "an idle connection of the first four stayed open"
        );
    }
    // A new client, the cap full of idle connections again: answered, and 200.
    let r = tokio::time::timeout(Duration::from_secs(10), get(s.addr, "/v1/count", &[]))
        .await
        .expect("a client past the cap waited for the header timeout");
    assert_eq!(r.status, 200, "{}", r.body);
    // The one idle the longest of the second four made room for it.
    assert!(closed(&mut second[0]).await);
    let m = get(s.addr, "/metrics", &[]).await.body;
    assert!(
        m.contains(r#"http_requests_total{route="/v1/count",method="GET",status="200"} 7"#),
        "{m}"
    );
}

/// Past the cap with every connection busy (none idle to close), a client gets a fast answer,
/// never a wait: a 503 in the spec's shape with `retry-after`, its connection closed, counted in
/// `/metrics`; the busy connection finishes its request.
#[tokio::test]
async fn past_the_cap_with_every_connection_busy_a_client_gets_a_503_at_once() {
    let (release, started) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let cfg = ServerConfig {
        max_connections: 1,
        header_read_timeout: Duration::from_secs(30),
        request_timeout: Duration::from_secs(60),
        ..config()
    };
    let sink = Arc::new(MemorySink::new());
    let keys = InMemoryKeys::new().active(
        "secret",
        Caller {
            key_id: "k1".into(),
            org_id: "o1".into(),
            tier: "free".into(),
        },
    );
    let s = spawn(
        app(Arc::clone(&release), Arc::clone(&started), Arc::default())
            .keys(Arc::new(keys))
            .usage_sink(Arc::clone(&sink) as Arc<dyn snowline_rest_api::UsageSink>),
        cfg,
    )
    .await;
    let mut a = TcpStream::connect(s.addr).await.unwrap();
    a.write_all(request("GET", "/v1/wait", &[], "").as_bytes())
        .await
        .unwrap();
    started.notified().await;

    let mut b = TcpStream::connect(s.addr).await.unwrap();
    let keyed = [("x-data-api-key", "secret")];
    b.write_all(request("GET", "/v1/count", &keyed, "").as_bytes())
        .await
        .unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(10), read_response(&mut b))
        .await
        .expect("a client past the cap waited")
        .unwrap();
    let msg = assert_error(&refused, 503, "Service Unavailable");
    assert_eq!(
        msg,
        "the server is serving its limit of 1 connections, all busy; retry shortly"
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.header("connection"), Some("close"));
    let mut rest = Vec::new();
    assert_eq!(b.read_to_end(&mut rest).await.unwrap(), 0, "B is closed");

    release.notify_one();
    let r = read_response(&mut a).await.unwrap();
    assert_eq!((r.status, r.body.as_str()), (200, "\"released\""));
    // Metered to its caller, under its route, at no cost.
    let e = sink
        .events()
        .into_iter()
        .find(|e| e.response_code == 503)
        .unwrap();
    assert_eq!(
        (
            e.org_id.as_str(),
            e.api_key_id.as_str(),
            e.request_path.as_str()
        ),
        ("o1", "k1", "/v1/count")
    );
    assert_eq!((e.credits_used, e.credits_wasted), (0, 0));
    let m = get(s.addr, "/metrics", &[]).await.body;
    assert!(
        m.contains(r#"http_requests_total{route="/v1/count",method="GET",status="503"} 1"#),
        "{m}"
    );
}

#[tokio::test]
async fn graceful_shutdown_finishes_in_flight_requests() {
    let (release, started) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let cfg = ServerConfig {
        request_timeout: Duration::from_secs(60),
        ..config()
    };
    let mut s = spawn(
        app(Arc::clone(&release), Arc::clone(&started), Arc::default()),
        cfg,
    )
    .await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    // No request timeout may interfere: the handler waits for our signal.
    c.write_all(request("GET", "/v1/wait", &[], "").as_bytes())
        .await
        .unwrap();
    started.notified().await;
    s.stop();
    // Once the listener is closed, new connections are refused.
    let mut refused = false;
    for _ in 0..100 {
        if TcpStream::connect(s.addr).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(refused, "still accepting after shutdown");
    release.notify_one();
    let r = read_response(&mut c).await.unwrap();
    assert_eq!((r.status, r.body.as_str()), (200, "\"released\""));
    s.handle.await.unwrap().unwrap();
}

#[tokio::test]
async fn idle_keep_alive_connections_close_after_the_header_timeout() {
    let s = spawn(plain_app(), config()).await;
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(request("GET", "/v1/count", &[], "").as_bytes())
        .await
        .unwrap();
    assert_eq!(read_response(&mut c).await.unwrap().status, 200);
    // Kept alive, then idle: the wait for the next request's head is bounded too.
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), c.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "idle connection still open");
    assert!(buf.is_empty());
}
