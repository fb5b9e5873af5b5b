//! The fourth stage: an admitted request to its handler. What did not route is answered here
//! (400, 404, 405 with `allow`); then the query and the declared body size are checked, the
//! body read within its limit, and the handler run under the request deadline with its panics
//! caught.

use super::conn::Conn;
use super::facts::Facts;
use super::route::Routed;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::reply::Reply;
use crate::request::Request;
use crate::route::{BoxFuture, Handler};
use crate::router::Match;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{ALLOW, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Method, StatusCode};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The handler's reply to the request, or the error that stopped it on the way.
pub(super) async fn dispatch(
    conn: &Conn,
    routed: Routed<'_>,
    (parts, body): (Parts, Incoming),
    caller: Option<Arc<Caller>>,
    facts: &mut Facts,
) -> Result<Reply, ApiError> {
    let shared = &*conn.shared;
    let (route, params) = match routed.route {
        Err(message) => return Err(ApiError::bad_request(message)),
        Ok(Match::NotFound) => {
            return Err(ApiError::not_found(format!(
                "Cannot {} {}",
                parts.method,
                parts.uri.path()
            )));
        }
        Ok(Match::MethodNotAllowed(_, methods)) => {
            let allow: Vec<&str> = methods.iter().map(Method::as_str).collect();
            let allow = allow.join(", ");
            if let Ok(v) = HeaderValue::from_str(&allow) {
                facts.headers.append(ALLOW, v);
            }
            return Err(ApiError::method_not_allowed(format!(
                "Cannot {} {}; allowed: {allow}",
                parts.method,
                parts.uri.path()
            )));
        }
        Ok(Match::Found(route, params)) => (route, params),
    };
    routed.query.map_err(ApiError::bad_request)?;
    let limit = shared.config.max_body_bytes;
    if parts
        .extensions
        .get::<snowline_http::DeclaredTooLarge>()
        .is_some()
    {
        facts.close = true;
        return Err(too_large(limit));
    }
    let mut request = Request::new(
        parts.method,
        parts.uri.path().to_owned(),
        Arc::clone(&route.meta.template),
        params,
        parts.uri.query(),
        parts.headers,
        conn.remote.ip(),
        caller,
        shared.app.profile,
    );
    let timeout = shared.config.request_timeout;
    let run = async {
        let body = match Limited::new(body, limit).collect().await {
            Ok(c) => c.to_bytes(),
            Err(e) if e.is::<http_body_util::LengthLimitError>() => {
                return Err(too_large(limit));
            }
            Err(e) => {
                return Err(ApiError::bad_request(format!(
                    "Reading the request body failed: {e}"
                )));
            }
        };
        request.set_body(body);
        call(&route.handler, request, &route.meta.template).await
    };
    match tokio::time::timeout(timeout, run).await {
        Ok(Err(e)) if e.status == StatusCode::PAYLOAD_TOO_LARGE => {
            facts.close = true;
            Err(e)
        }
        Ok(r) => r,
        Err(_) => Err(ApiError::service_unavailable(format!(
            "request timed out after {}ms",
            timeout.as_millis()
        ))),
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::payload_too_large(format!(
        "Request body too large: the limit is {limit} bytes"
    ))
}

/// Polls a handler's future, turning a panic into an `Err` instead of unwinding
/// through the connection (the future is dropped with the request on timeout).
struct CatchUnwind(BoxFuture<'static, Result<Reply, ApiError>>);

impl Future for CatchUnwind {
    type Output = std::thread::Result<Result<Reply, ApiError>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(r)) => Poll::Ready(Ok(r)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

/// Runs the handler so that a panic (building or polling its future) becomes a 500,
/// not a dead connection.
async fn call(handler: &Handler, request: Request, template: &str) -> Result<Reply, ApiError> {
    let outcome = match std::panic::catch_unwind(AssertUnwindSafe(|| handler(request))) {
        Ok(fut) => CatchUnwind(fut).await,
        Err(panic) => Err(panic),
    };
    outcome.unwrap_or_else(|_| {
        tracing::error!(route = %template, "handler panicked");
        Err(ApiError::internal("Internal server error"))
    })
}
