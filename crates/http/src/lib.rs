//! The HTTP/1.1 connection loop under Snowline's servers (`snowline-jsonrpc`, `snowline-rest`):
//! accept with a cap on concurrent connections, a header read timeout (which also closes idle
//! keep-alive connections), keep-alive, and graceful shutdown that lets in-flight requests finish
//! for a grace period. What a request gets is the caller's handler; this crate knows nothing of
//! JSON-RPC or REST.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::{Body, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// The limits of a server, the connection loop's and its edge's (`snowline-jsonrpc`,
/// `snowline-rest`) in one place.
#[derive(Debug, Clone, Copy)]
pub struct ServerConfig {
    /// Largest accepted request body; larger ones get HTTP 413 in the edge's error shape.
    pub max_body_bytes: usize,
    /// Time allowed to receive a request's headers; hyper closes the connection after it. It
    /// also bounds how long an idle keep-alive connection waits for its next request.
    pub header_read_timeout: Duration,
    /// Time allowed to receive a JSON-RPC request's body; after it the answer is HTTP 408. (The
    /// REST edge reads the body within `request_timeout`.)
    pub body_read_timeout: Duration,
    /// Time allowed for a request's handler (with the body, on the REST edge); after it the
    /// answer is the edge's timeout error `request timed out after Nms`.
    pub request_timeout: Duration,
    /// Connections served at once; further connections wait in the listen backlog until one
    /// closes (they are not refused).
    pub max_connections: usize,
    /// On shutdown, how long in-flight requests may take before connections are dropped.
    pub shutdown_grace: Duration,
}

impl Default for ServerConfig {
    /// 1 MiB bodies, 10 s headers, 30 s bodies and requests, 1024 connections, 10 s grace.
    fn default() -> Self {
        Self {
            max_body_bytes: 1 << 20,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
            max_connections: 1024,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Whether the request's `content-length` declares a body larger than `limit`, so it can be
/// refused before a byte of it is read (a body without a declared length is bounded while read).
pub fn declares_more_than(headers: &hyper::HeaderMap, limit: usize) -> bool {
    headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > limit as u64)
}

/// Serves `listener` until `shutdown` completes; then stops accepting, asks every connection to
/// finish its in-flight request and close, and waits up to `shutdown_grace` before dropping what
/// remains. `connect` is called once per accepted connection with the peer's address and returns
/// that connection's handler, which answers its requests one after another: state a connection
/// keeps between its requests lives in the handler, without any lookup per request.
pub async fn serve<M, H, Fut, B, F>(
    listener: TcpListener,
    config: ServerConfig,
    connect: M,
    shutdown: F,
) where
    M: Fn(SocketAddr) -> H,
    H: Fn(Request<Incoming>) -> Fut + Send + 'static,
    Fut: Future<Output = Response<B>> + Send + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    F: Future<Output = ()>,
{
    let limit = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut conns = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        while conns.try_join_next().is_some() {}
        let permit = tokio::select! {
            p = Arc::clone(&limit).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, remote) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let handler = connect(remote);
        let mut stop = stop_rx.clone();
        conns.spawn(async move {
            let _permit = permit;
            let svc = hyper::service::service_fn(move |req| {
                let response = handler(req);
                async move { Ok::<_, Infallible>(response.await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(config.header_read_timeout)
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), svc);
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(error = %e, %remote, "connection ended with error");
                    }
                }
                _ = async { stop.wait_for(|s| *s).await.is_ok() } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(config.shutdown_grace, async {
        while conns.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            remaining = conns.len(),
            "shutdown grace elapsed; dropping connections"
        );
        conns.abort_all();
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: the usual `shutdown` of [`serve`].
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use bytes::Bytes;
    use http_body_util::Full;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn get(addr: SocketAddr) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    #[test]
    fn a_declared_length_over_the_limit_is_seen_before_reading() {
        let with = |v: &str| {
            let mut h = hyper::HeaderMap::new();
            h.insert(hyper::header::CONTENT_LENGTH, v.parse().unwrap());
            h
        };
        assert!(declares_more_than(&with("11"), 10));
        assert!(!declares_more_than(&with("10"), 10));
        // Undeclared or unreadable lengths are left to the bounded read.
        assert!(!declares_more_than(&hyper::HeaderMap::new(), 10));
        assert!(!declares_more_than(&with("lots"), 10));
    }

    #[tokio::test]
    async fn serves_until_shutdown_and_finishes_in_flight_requests() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let config = ServerConfig {
            max_connections: 1,
            header_read_timeout: Duration::from_secs(5),
            shutdown_grace: Duration::from_secs(5),
            ..ServerConfig::default()
        };
        let server = tokio::spawn(serve(
            listener,
            config,
            |remote: SocketAddr| {
                move |req: Request<Incoming>| async move {
                    // A slow handler, so shutdown arrives while the request is in flight.
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Response::new(Full::new(Bytes::from(format!(
                        "{} from {}",
                        req.uri().path(),
                        remote.ip()
                    ))))
                }
            },
            async {
                let _ = stop_rx.await;
            },
        ));
        let first = tokio::spawn(get(addr));
        tokio::time::sleep(Duration::from_millis(50)).await;
        stop_tx.send(()).unwrap();
        let answer = first.await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("/x from 127.0.0.1"), "{answer}");
        server.await.unwrap();
        // Stopped: nothing listens any more.
        assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    }
}
