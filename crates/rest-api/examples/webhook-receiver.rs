//! Benchmark receiver for webhook deliveries (`bench/webhooks.sh`): answers every POST 200 and
//! records, per delivery, the Unix time in nanoseconds at which its body was read (just before
//! the 200 is written), the block number of `event.transaction`, the webhook id and the
//! `messageId`. It checks no signature (the tests do).
//!
//! `cargo run --release --workspace --example webhook-receiver -- 127.0.0.1:9800`
//!
//! `GET /count` answers how many deliveries arrived; `GET /events?from=K` lists them from the
//! K-th on, one per line: `RECV_NS BLOCK WEBHOOK_ID MESSAGE_ID`, tab-separated (a body that is
//! not an `address_activity` delivery has block `-`). Only loopback addresses are accepted.
//! Stops on Ctrl-C / SIGTERM.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;

/// One delivery as received.
struct Received {
    recv_ns: u128,
    block: Option<String>,
    webhook: String,
    message: String,
}

type Log = Arc<Mutex<Vec<Received>>>;

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r
}

fn record(body: &[u8], recv_ns: u128) -> Received {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let field = |p: &str| v.pointer(p).and_then(|x| x.as_str()).map(str::to_owned);
    Received {
        recv_ns,
        block: field("/event/transaction/blockNumber"),
        webhook: field("/webhookId").unwrap_or_default(),
        message: field("/messageId").unwrap_or_default(),
    }
}

fn listing(log: &Log, from: usize) -> String {
    let log = log.lock().unwrap_or_else(|e| e.into_inner());
    let mut out = String::new();
    for r in log.iter().skip(from) {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            r.recv_ns,
            r.block.as_deref().unwrap_or("-"),
            r.webhook,
            r.message
        ));
    }
    out
}

async fn handle(
    log: Log,
    req: Request<hyper::body::Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    if req.method() == Method::POST {
        let Ok(body) = req.into_body().collect().await else {
            return Ok(text(StatusCode::BAD_REQUEST, String::new()));
        };
        let recv_ns = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let r = record(&body.to_bytes(), recv_ns);
        log.lock().unwrap_or_else(|e| e.into_inner()).push(r);
        return Ok(text(StatusCode::OK, String::new()));
    }
    let from = req
        .uri()
        .query()
        .and_then(|q| q.strip_prefix("from="))
        .and_then(|k| k.parse().ok())
        .unwrap_or(0);
    Ok(match req.uri().path() {
        "/count" => {
            let n = log.lock().unwrap_or_else(|e| e.into_inner()).len();
            text(StatusCode::OK, format!("{n}\n"))
        }
        "/events" => text(StatusCode::OK, listing(&log, from)),
        _ => text(StatusCode::NOT_FOUND, String::new()),
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9800".to_owned())
        .parse()?;
    if !addr.ip().is_loopback() {
        return Err(format!("{addr} is not a loopback address").into());
    }
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    // A deep backlog: a fan-out to thousands of webhooks connects all at once.
    let listener = socket.listen(4096)?;
    println!("webhook-receiver listening on {}", listener.local_addr()?);
    let log: Log = Arc::default();
    let serve = async {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(move |req| handle(Arc::clone(&log), req));
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    };
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        () = serve => {}
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    Ok(())
}
