//! The HTTP/1.1 server: accept loop, connection limit, timeouts, body limit and
//! graceful shutdown, on raw hyper.

use crate::dispatch::{self, Called};
use crate::gate::{CallOutcome, CallRecord, Gate, Verdict};
use crate::response::{self, HttpResponse, Refusals};
use crate::router::{Route, Router, not_found};
use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{CONNECTION, HeaderValue, USER_AGENT};
use hyper::{Request, StatusCode};
use snowline_http::Admission;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tokio::net::TcpListener;

pub use snowline_http::ServerConfig;

/// Why the server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Binding or inspecting the listening socket failed.
    #[error("listener error: {0}")]
    Io(#[from] std::io::Error),
}

struct Shared {
    router: Router,
    config: ServerConfig,
}

/// A JSON-RPC/HTTP server bound to a TCP listener.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Server {
    /// Binds `addr` (use port 0 for an ephemeral port).
    pub async fn bind(
        addr: SocketAddr,
        router: Router,
        config: ServerConfig,
    ) -> Result<Self, ServerError> {
        Ok(Self::from_listener(
            TcpListener::bind(addr).await?,
            router,
            config,
        ))
    }

    /// Serves on an existing listener.
    pub fn from_listener(listener: TcpListener, router: Router, config: ServerConfig) -> Self {
        Self {
            listener,
            shared: Arc::new(Shared { router, config }),
        }
    }

    /// The bound address.
    pub fn local_addr(&self) -> Result<SocketAddr, ServerError> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `shutdown` completes, then stops accepting, lets in-flight
    /// requests finish (up to `shutdown_grace`) and closes idle keep-alive connections.
    pub async fn run_until<F: Future<Output = ()>>(self, shutdown: F) -> Result<(), ServerError> {
        let Self { listener, shared } = self;
        let config = shared.config;
        let style = shared.router.refusal_style();
        let connect = move |remote, admission| {
            let shared = Arc::clone(&shared);
            move |req| {
                let shared = Arc::clone(&shared);
                async move {
                    match admission {
                        Admission::Served => handle(&shared, req, remote).await,
                        Admission::OverCapacity => over_capacity(shared.config.max_connections),
                    }
                }
            }
        };
        let refuse: snowline_http::Refuse = Arc::new(move |status| refusal(&config, style, status));
        snowline_http::serve(listener, config, connect, refuse, shutdown).await;
        Ok(())
    }
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: pass it to [`Server::run_until`].
pub async fn shutdown_signal() {
    snowline_http::shutdown_signal().await;
}

/// The answer to a request refused before it was read (not HTTP/1.1, a URI or headers too
/// large): under [`Refusals::GoText`] as Go's `net/http` under avalanchego writes it, the status
/// and reason as plain text, followed as Go's own `400 Bad Request: reason` by the limit that
/// refused it; under [`Refusals::JsonRpc`] a JSON-RPC error object whose message is that reason.
fn refusal(config: &ServerConfig, style: Refusals, status: StatusCode) -> (&'static str, Bytes) {
    let why = snowline_http::limit_refused(config, status)
        .unwrap_or_else(|| "not a valid HTTP/1.1 request".to_owned());
    if style == Refusals::JsonRpc {
        return (
            response::JSON_CONTENT_TYPE,
            Bytes::from(response::refusal_json(&why)),
        );
    }
    (
        response::TEXT_CONTENT_TYPE,
        Bytes::from(format!(
            "{} {}: {why}",
            status.as_str(),
            status.canonical_reason().unwrap_or("")
        )),
    )
}

/// The answer on a connection accepted past the cap with every connection busy: HTTP 503 with a JSON-RPC error object
/// (`id` null: the request is not read) and `connection: close`.
fn over_capacity(max_connections: usize) -> HttpResponse {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "error": {
            "code": crate::SERVER_ERROR,
            "message": format!(
                "the server is serving its limit of {max_connections} connections, all busy; retry shortly"
            ),
        },
        "id": null,
    });
    let mut r = response::with_body(
        StatusCode::SERVICE_UNAVAILABLE,
        response::JSON_CONTENT_TYPE,
        body.to_string(),
    );
    r.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    r.headers_mut()
        .insert(hyper::header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

fn too_large(limit: usize, style: Refusals) -> HttpResponse {
    let msg = format!("rpc: request body too large (limit {limit} bytes)");
    let mut r = response::refusal(style, StatusCode::PAYLOAD_TOO_LARGE, msg.clone(), &msg);
    r.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    r
}

async fn handle(shared: &Shared, req: Request<Incoming>, remote: SocketAddr) -> HttpResponse {
    let route = shared.router.route(req.uri().path()).cloned();
    let resp = match (route, shared.router.gate_ref()) {
        (Some(Route::Plain(h)), _) => h(req).await,
        (route, None) => answer(shared, route, req, remote).await.0,
        (route, Some(gate)) => gated(shared, gate.as_ref(), route, req, remote).await,
    };
    shared.router.decorate(resp)
}

/// Answers a JSON-RPC route or an unknown path; with what the call was, when one was read.
async fn answer(
    shared: &Shared,
    route: Option<Route>,
    req: Request<Incoming>,
    remote: SocketAddr,
) -> (HttpResponse, Option<Called>) {
    let Some(Route::Rpc(endpoint)) = route else {
        return (not_found(), None);
    };
    let (parts, body) = req.into_parts();
    let style = shared.router.refusal_style();
    match read_rpc_body(&shared.config, style, &parts, body).await {
        Ok(bytes) => {
            let timeout = shared.config.request_timeout;
            let (resp, called) =
                dispatch::call(&endpoint, parts, bytes, Some(remote), timeout).await;
            (resp, Some(called))
        }
        Err(r) => (*r, None),
    }
}

/// Longest `User-Agent` a gate is shown, in bytes.
const MAX_USER_AGENT: usize = 256;

/// [`answer`] behind the gate: admitted or refused by the head, then recorded with its time.
async fn gated(
    shared: &Shared,
    gate: &dyn Gate,
    route: Option<Route>,
    req: Request<Incoming>,
    remote: SocketAddr,
) -> HttpResponse {
    let started = Instant::now();
    let path = req.uri().path().to_owned();
    let user_agent = req
        .headers()
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| ua.get(..MAX_USER_AGENT).unwrap_or(ua).to_owned())
        .unwrap_or_default();
    let (parts, body) = req.into_parts();
    let admission = gate.admit(&parts);
    let (resp, called, caller) = match admission {
        Verdict::Refuse { status, message } => {
            let body = response::refusal_json(&message);
            let resp = response::with_body(status, response::JSON_CONTENT_TYPE, body);
            (resp, None, None)
        }
        Verdict::Admit(caller) => {
            let req = Request::from_parts(parts, body);
            let (resp, called) = answer(shared, route, req, remote).await;
            (resp, called, caller)
        }
    };
    let status = resp.status().as_u16();
    let outcome = match &called {
        Some(c) => c.outcome,
        None if status >= 500 => CallOutcome::Failed,
        None => CallOutcome::Invalid,
    };
    gate.record(&CallRecord {
        path: &path,
        method: called.as_ref().and_then(|c| c.method.as_deref()),
        status,
        rpc_error: called.as_ref().and_then(|c| c.rpc_error),
        outcome,
        latency: started.elapsed(),
        caller: caller.as_ref(),
        user_agent: &user_agent,
    });
    resp
}

async fn read_rpc_body(
    config: &ServerConfig,
    style: Refusals,
    parts: &hyper::http::request::Parts,
    body: Incoming,
) -> Result<Bytes, Box<HttpResponse>> {
    dispatch::precheck(parts, style)?;
    let limit = config.max_body_bytes;
    if parts
        .extensions
        .get::<snowline_http::DeclaredTooLarge>()
        .is_some()
    {
        return Err(Box::new(too_large(limit, style)));
    }
    match tokio::time::timeout(
        config.body_read_timeout,
        Limited::new(body, limit).collect(),
    )
    .await
    {
        Ok(Ok(c)) => Ok(c.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            Err(Box::new(too_large(limit, style)))
        }
        Ok(Err(e)) => {
            let msg = format!("rpc: reading request body failed: {e}");
            Err(Box::new(response::refusal(
                style,
                StatusCode::BAD_REQUEST,
                msg.clone(),
                &msg,
            )))
        }
        Err(_) => {
            let msg = format!(
                "rpc: request body read timed out (limit {} ms)",
                config.body_read_timeout.as_millis()
            );
            let mut r = response::refusal(
                style,
                StatusCode::REQUEST_TIMEOUT,
                "rpc: request body read timed out".to_owned(),
                &msg,
            );
            r.headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
            Err(Box::new(r))
        }
    }
}
