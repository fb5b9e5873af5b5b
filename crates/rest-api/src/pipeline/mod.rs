//! One request, start to end, as a straight line of stages, each in its own file and entered
//! once, in this order:
//!
//! 1. `builtin`: what the edge answers itself (health, readiness, metrics, the API description
//!    and its page): no key, no limit, no metering; then straight to `respond` and `account`.
//! 2. `route`: the route of the method and path, the query checked, and what the route says
//!    about the request.
//! 3. `admit`: the caller's key, the connection cap, the caller's rate limit.
//! 4. `dispatch`: routing and query errors answered; the body limit; the handler under its
//!    deadline.
//! 5. `respond`: the reply or the error, in the app's profile, as hyper sends it.
//! 6. `account`: the answer counted in `/metrics` and metered.
//!
//! A request hyper refused before it was read (not HTTP/1.1, a URI or headers too large) takes
//! the short line: [`refusal`] gives the error body, then `account`.

mod account;
mod admit;
mod builtin;
mod conn;
mod dispatch;
mod facts;
mod respond;
mod route;

pub(crate) use conn::{Conn, HttpResponse, Shared};

use crate::error::ApiError;
use crate::reply::JSON_CONTENT_TYPE;
use bytes::Bytes;
use facts::Facts;
use hyper::body::Incoming;
use hyper::header::HeaderMap;
use hyper::{Method, StatusCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Serves one request through the stages.
pub(crate) async fn handle(conn: &Conn, req: hyper::Request<Incoming>) -> HttpResponse {
    let start = Instant::now();
    let shared = &*conn.shared;
    let app = &shared.app;
    let _in_flight = app.metrics.in_flight();
    let method = req.method().clone();
    if let Some((route, reply)) = builtin::answer(app, &method, req.uri().path(), req.headers()) {
        let resp = respond::respond(shared, Ok(reply), HeaderMap::new(), false);
        let route: Arc<str> = Arc::from(route);
        account::observe(app, &route, &method, resp.status(), start.elapsed());
        return resp;
    }
    let mut facts = Facts::unknown(&shared.unknown);
    let (parts, body) = req.into_parts();
    if app.sink.is_some() {
        let header = |name| parts.headers.get(name).cloned();
        facts.client = Some((
            conn.remote.ip(),
            header(hyper::header::HOST),
            header(hyper::header::USER_AGENT),
        ));
    }
    let routed = route::route(app, &parts.method, &parts.uri, &mut facts);
    let result = match admit::admit(conn, &parts.headers, &mut facts) {
        Ok(caller) => dispatch::dispatch(conn, routed, (parts, body), caller, &mut facts).await,
        Err(e) => Err(e),
    };
    let resp = respond::respond(
        shared,
        result,
        std::mem::take(&mut facts.headers),
        facts.close,
    );
    let elapsed = start.elapsed();
    account::account(app, &facts, &method, resp.status(), elapsed);
    resp
}

/// The answer to a request the HTTP layer refused before it was read: the spec's error body
/// under the app's profile, counted in `/metrics` and metered like any answer (anonymous, path
/// `unknown`, no credits).
pub(crate) fn refusal(shared: &Shared, status: StatusCode) -> (&'static str, Bytes) {
    let message = snowline_http::limit_refused(&shared.config, status).unwrap_or_else(|| {
        "the request is not valid HTTP/1.1 (a request line, headers and a body as RFC 9112 \
         gives them; a URI of visible ASCII, percent-encoded past it)"
            .to_owned()
    });
    let app = &shared.app;
    // The method was not read either.
    let method = Method::from_bytes(b"UNREAD").unwrap_or(Method::GET);
    let facts = Facts::unknown(&shared.unknown);
    account::account(app, &facts, &method, status, Duration::ZERO);
    (
        JSON_CONTENT_TYPE,
        app.error_body(&ApiError::new(status, message)),
    )
}
