//! URL paths to JSON-RPC endpoints or plain HTTP handlers (exact path match, as
//! avalanchego's gorilla/mux routes are).

use crate::gate::Gate;
use crate::response::{self, HttpResponse, Refusals};
use crate::service::{BoxFuture, Endpoint};
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Request, StatusCode};
use std::collections::HashMap;
use std::sync::Arc;

/// A plain HTTP handler (health checks, metrics, ...). It gets the whole request.
pub type PlainHandler = Arc<dyn Fn(Request<Incoming>) -> BoxFuture<HttpResponse> + Send + Sync>;

#[derive(Clone)]
pub(crate) enum Route {
    Rpc(Endpoint),
    Plain(PlainHandler),
}

/// Maps paths such as `/ext/bc/X`, `/ext/bc/avm`, `/ext/index/X/tx` to endpoints.
#[derive(Clone, Default)]
pub struct Router {
    routes: HashMap<String, Route>,
    headers: Vec<(HeaderName, HeaderValue)>,
    refusals: Refusals,
    gate: Option<Arc<dyn Gate>>,
}

impl Router {
    /// An empty router; unknown paths answer Go's `404 page not found`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves `endpoint` at `path` (call again with the same endpoint for aliases).
    pub fn rpc(mut self, path: impl Into<String>, endpoint: Endpoint) -> Self {
        self.routes.insert(path.into(), Route::Rpc(endpoint));
        self
    }

    /// Mounts a plain HTTP handler at `path` (any HTTP method).
    pub fn http<F, Fut>(mut self, path: impl Into<String>, f: F) -> Self
    where
        F: Fn(Request<Incoming>) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = HttpResponse> + Send + 'static,
    {
        let h: PlainHandler = Arc::new(move |req| Box::pin(f(req)));
        self.routes.insert(path.into(), Route::Plain(h));
        self
    }

    /// Adds a header to every response (avalanchego adds `node-id`).
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    /// How requests refused before a call is read are answered (plain text as avalanchego, by
    /// default, or JSON-RPC error objects).
    pub fn refusals(mut self, style: Refusals) -> Self {
        self.refusals = style;
        self
    }

    /// Admits and meters every request but the plain handlers' through `gate` (API keys,
    /// usage); without one every request is served and nothing is recorded.
    pub fn gate(mut self, gate: Arc<dyn Gate>) -> Self {
        self.gate = Some(gate);
        self
    }

    pub(crate) fn gate_ref(&self) -> Option<&Arc<dyn Gate>> {
        self.gate.as_ref()
    }

    /// The refusal style set with [`Router::refusals`].
    pub fn refusal_style(&self) -> Refusals {
        self.refusals
    }

    pub(crate) fn route(&self, path: &str) -> Option<&Route> {
        self.routes.get(path)
    }

    pub(crate) fn decorate(&self, mut resp: HttpResponse) -> HttpResponse {
        for (k, v) in &self.headers {
            resp.headers_mut().insert(k.clone(), v.clone());
        }
        resp
    }
}

/// Go's `http.NotFound`: 404, `404 page not found\n`, nosniff.
pub(crate) fn not_found() -> HttpResponse {
    let mut r = response::text(StatusCode::NOT_FOUND, "404 page not found\n");
    r.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}
