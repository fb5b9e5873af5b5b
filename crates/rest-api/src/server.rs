//! The HTTP/1.1 server: accept loop, connection cap, timeouts and graceful shutdown,
//! on raw hyper (the REST twin of `snowline-jsonrpc`'s server).

use crate::app::App;
use crate::error::RestError;
use crate::pipeline::{Conn, Shared, handle};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

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
        // The rate limiter forgets callers it has not seen for a while, once a minute.
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
        let config = snowline_http::ConnConfig {
            max_connections: shared.config.max_connections,
            header_read_timeout: shared.config.header_read_timeout,
            shutdown_grace: shared.config.shutdown_grace,
        };
        let connect = move |remote| {
            let conn = Arc::new(Conn::new(Arc::clone(&shared), remote));
            move |req| {
                let conn = Arc::clone(&conn);
                async move { handle(&conn, req).await }
            }
        };
        snowline_http::serve(listener, config, connect, shutdown).await;
        housekeeping.abort();
        Ok(())
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: pass it to [`Server::run_until`].
pub async fn shutdown_signal() {
    snowline_http::shutdown_signal().await;
}
