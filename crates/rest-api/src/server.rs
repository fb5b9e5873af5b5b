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

pub use snowline_http::ServerConfig;

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
        let config = shared.config;
        let refused = Arc::clone(&shared);
        let refuse: snowline_http::Refuse =
            Arc::new(move |status| crate::pipeline::refusal(&refused, status));
        let connect = move |remote, admission| {
            let conn = Arc::new(Conn::new(Arc::clone(&shared), remote, admission));
            move |req| {
                let conn = Arc::clone(&conn);
                async move { handle(&conn, req).await }
            }
        };
        snowline_http::serve(listener, config, connect, refuse, shutdown).await;
        housekeeping.abort();
        Ok(())
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: pass it to [`Server::run_until`].
pub async fn shutdown_signal() {
    snowline_http::shutdown_signal().await;
}
