//! Request limits over a real server: body size, slow headers, request timeout,
//! connection cap and graceful shutdown.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{assert_error, get, read_response, request, send, spawn};
use snowline_rest::{ApiError, App, RateLimits, Reply, Request, Router, ServerConfig, Weight};
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

/// Past the cap a client gets a fast answer, never a wait: a 503 in the spec's shape with
/// `retry-after`, and its connection closed; once the slot is free, a new client is served.
#[tokio::test]
async fn a_connection_beyond_the_cap_gets_a_503_at_once() {
    let count = Arc::new(AtomicU64::new(0));
    let cfg = ServerConfig {
        max_connections: 1,
        header_read_timeout: Duration::from_secs(30),
        ..config()
    };
    let s = spawn(app(Arc::default(), Arc::default(), Arc::clone(&count)), cfg).await;
    let mut a = TcpStream::connect(s.addr).await.unwrap();
    a.write_all(request("GET", "/v1/count", &[], "").as_bytes())
        .await
        .unwrap();
    assert_eq!(read_response(&mut a).await.unwrap().body, "1");

    // A holds the only slot (idle, kept alive). B is answered at once (the timeout only turns
    // a wait into a failure), and its handler never ran.
    let mut b = TcpStream::connect(s.addr).await.unwrap();
    b.write_all(request("GET", "/v1/count", &[], "").as_bytes())
        .await
        .unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(20), read_response(&mut b))
        .await
        .expect("a client past the cap waited")
        .unwrap();
    let msg = assert_error(&refused, 503, "Service Unavailable");
    assert_eq!(
        msg,
        "the server is serving its limit of 1 connections; retry shortly"
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.header("connection"), Some("close"));
    let mut rest = Vec::new();
    assert_eq!(b.read_to_end(&mut rest).await.unwrap(), 0, "B is closed");

    a.write_all(request("GET", "/v1/count", &[], "").as_bytes())
        .await
        .unwrap();
    assert_eq!(read_response(&mut a).await.unwrap().body, "2");
    // A leaves; its slot comes free once the server has seen it close.
    drop(a);
    let mut served = None;
    for _ in 0..200 {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        c.write_all(request("GET", "/v1/count", &[], "").as_bytes())
            .await
            .unwrap();
        let r = read_response(&mut c).await.unwrap();
        if r.status == 200 {
            served = Some(r.body);
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(served.as_deref(), Some("3"));
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
