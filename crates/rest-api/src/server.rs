//! The HTTP/1.1 server: accept loop, connection cap, timeouts and graceful shutdown,
//! on raw hyper (the REST twin of `snowline-jsonrpc`'s server).

use crate::app::App;
use crate::error::RestError;
use crate::pipeline::{Shared, handle};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// Limits and timeouts of a [`Server`].
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest accepted request body; larger ones get 413 with the error body.
    pub max_body_bytes: usize,
    /// Time allowed to receive a request's headers; hyper closes the connection after it.
    /// It also bounds how long an idle keep-alive connection waits for its next request.
    pub header_read_timeout: Duration,
    /// Time allowed to read the body and run the handler; after it the answer is 503
    /// `request timed out after Nms` and the handler is cancelled.
    pub request_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog.
    pub max_connections: usize,
    /// On shutdown, how long in-flight requests may take before connections are dropped.
    pub shutdown_grace: Duration,
}

impl Default for ServerConfig {
    /// 1 MiB bodies, 10 s headers, 30 s requests, 1024 connections, 10 s grace.
    fn default() -> Self {
        Self {
            max_body_bytes: 1 << 20,
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 1024,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// A REST server bound to a TCP listener.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    /// Builds `app` and binds `addr` (port 0 for an ephemeral port).
    pub async fn bind(addr: SocketAddr, app: App, config: ServerConfig) -> Result<Self, RestError> {
        let built = app.build()?;
        let listener = TcpListener::bind(addr).await?;
        Ok(Self {
            listener,
            shared: Arc::new(Shared::new(built, config)),
        })
    }

    /// Builds `app` and serves on an existing listener.
    pub fn from_listener(
        listener: TcpListener,
        app: App,
        config: ServerConfig,
    ) -> Result<Self, RestError> {
        Ok(Self {
            listener,
            shared: Arc::new(Shared::new(app.build()?, config)),
        })
    }

    /// The bound address.
    pub fn local_addr(&self) -> Result<SocketAddr, RestError> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `shutdown` completes, then stops accepting, lets in-flight requests
    /// finish (up to `shutdown_grace`) and closes idle keep-alive connections.
    pub async fn run_until<F: Future<Output = ()>>(self, shutdown: F) -> Result<(), RestError> {
        let Self { listener, shared } = self;
        let limit = Arc::new(Semaphore::new(shared.config.max_connections.max(1)));
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut conns = JoinSet::new();
        let housekeeping = tokio::spawn({
            let shared = Arc::clone(&shared);
            async move {
                let mut tick = tokio::time::interval(Duration::from_secs(60));
                loop {
                    tick.tick().await;
                    shared.app.limiter.retain_recent();
                }
            }
        });
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
            let shared = Arc::clone(&shared);
            let mut stop = stop_rx.clone();
            conns.spawn(async move {
                let _permit = permit;
                let svc_shared = Arc::clone(&shared);
                let svc = hyper::service::service_fn(move |req| {
                    let shared = Arc::clone(&svc_shared);
                    async move { Ok::<_, Infallible>(handle(&shared, req, remote).await) }
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(shared.config.header_read_timeout)
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
        housekeeping.abort();
        let _ = stop_tx.send(true);
        let grace = shared.config.shutdown_grace;
        let drained =
            tokio::time::timeout(grace, async { while conns.join_next().await.is_some() {} }).await;
        if drained.is_err() {
            tracing::warn!(
                remaining = conns.len(),
                "shutdown grace elapsed; dropping connections"
            );
            conns.abort_all();
        }
        Ok(())
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: pass it to [`Server::run_until`].
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
