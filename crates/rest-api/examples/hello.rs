//! Benchmark hook: one trivial route on the REST framework and, for comparison, a plain
//! hyper handler answering the same bytes on another port.
//!
//! `cargo run --release -p snowline-rest-api --example rest-hello -- [REST_ADDR] [PLAIN_ADDR] [--limits] [--metering]`
//! (defaults 127.0.0.1:9700 and 127.0.0.1:9701), then `GET` (or `POST`) `/v1/hello` on either.
//! `--limits` runs the rate limiter on every request with a budget that never runs out;
//! `--metering` sends every usage event to a counting sink. Stops on Ctrl-C / SIGTERM.

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use snowline_rest_api::{
    App, RateLimits, Reply, Router, Server, ServerConfig, TierLimit, UsageEvent, UsageSink, Weight,
};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

const BODY: &str = r#"{"hello":"world"}"#;

/// Counts events without keeping them.
#[derive(Default)]
struct Counting(AtomicU64);

impl UsageSink for Counting {
    fn record(&self, _event: UsageEvent) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let mut addrs = args.iter().filter(|a| !a.starts_with("--"));
    let rest: SocketAddr = addrs.next().map_or("127.0.0.1:9700", |s| s).parse()?;
    let plain: SocketAddr = addrs.next().map_or("127.0.0.1:9701", |s| s).parse()?;

    let limits = if flag("--limits") {
        let mut l = RateLimits::default();
        l.tiers.insert(
            "anonymous".into(),
            TierLimit::new(4_000_000_000, 4_000_000_000),
        );
        l
    } else {
        RateLimits::disabled()
    };
    // POST too, so the JSON-RPC load generator (which POSTs) can drive it.
    let hello = |_| async { Ok(Reply::bytes(snowline_rest_api::hyper::StatusCode::OK, BODY)) };
    let router =
        Router::new()
            .get("/v1/hello", Weight::FREE, hello)
            .post("/v1/hello", Weight::FREE, hello);
    let mut app = App::new(router).rate_limits(limits);
    if flag("--metering") {
        app = app.usage_sink(Arc::new(Counting::default()));
    }
    let server = Server::bind(rest, app, ServerConfig::default()).await?;
    println!("rest-api listening on {}", server.local_addr()?);

    let listener = tokio::net::TcpListener::bind(plain).await?;
    println!("plain hyper listening on {}", listener.local_addr()?);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(|_req| async {
                    let mut r =
                        hyper::Response::new(Full::new(Bytes::from_static(BODY.as_bytes())));
                    r.headers_mut().insert(
                        hyper::header::CONTENT_TYPE,
                        hyper::header::HeaderValue::from_static("application/json"),
                    );
                    Ok::<_, Infallible>(r)
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    server
        .run_until(snowline_rest_api::shutdown_signal())
        .await?;
    Ok(())
}
