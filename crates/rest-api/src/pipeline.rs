//! One request, start to end: built-in routes; then authentication, rate limiting,
//! routing errors, the body limit, the handler under a deadline with its panics
//! caught; then metrics and metering.

use crate::app::{BUILTIN_ROUTES, Built};
use crate::auth::{ANONYMOUS_TIER, Caller, authenticate};
use crate::docs_site;
use crate::error::ApiError;
use crate::health;
use crate::metering::{UNKNOWN_PATH, UsageEventRef, credits};
use crate::metrics::{self, METRICS_CONTENT_TYPE};
use crate::path::{check_query, decode_segments};
use crate::ratelimit::{BudgetCache, LimitKeyRef};
use crate::reply::{JSON_CONTENT_TYPE, Reply};
use crate::request::Request;
use crate::route::{BoxFuture, Handler, Weight};
use crate::router::Match;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{ALLOW, CONNECTION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use hyper::{Method, Response, StatusCode};
use snowline_http::{Admission, ServerConfig};
use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The response type of the server.
pub(crate) type HttpResponse = Response<Full<Bytes>>;

/// Everything a connection needs, shared.
pub(crate) struct Shared {
    pub(crate) app: Built,
    pub(crate) config: ServerConfig,
    unknown: Arc<str>,
}

impl Shared {
    pub(crate) fn new(app: Built, config: ServerConfig) -> Self {
        Self {
            app,
            config,
            unknown: Arc::from(UNKNOWN_PATH),
        }
    }
}

/// One connection: the server, the peer, and what its requests keep from one to the next.
pub(crate) struct Conn {
    shared: Arc<Shared>,
    remote: SocketAddr,
    /// The rate-limit budget of the connection's last caller.
    budget: BudgetCache,
    /// Accepted past the connection cap: its request is answered 503.
    over_capacity: bool,
}

impl Conn {
    pub(crate) fn new(shared: Arc<Shared>, remote: SocketAddr, admission: Admission) -> Self {
        Self {
            shared,
            remote,
            budget: BudgetCache::new(),
            over_capacity: admission == Admission::OverCapacity,
        }
    }
}

/// What the request turned out to be, for metrics and metering.
struct Facts {
    template: Arc<str>,
    weight: Weight,
    request_type: Option<Arc<str>>,
    /// Only filled when metering is on.
    chain_id: Option<String>,
    caller: Option<Arc<Caller>>,
    /// The answer's headers so far (the rate-limit ones, `allow`), added to in place so the
    /// limiter's headers need no list of their own; [`respond`] adds `content-type`.
    headers: HeaderMap,
    close: bool,
}

/// Milliseconds since the Unix epoch of `t` (0 before it).
fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The answer to a request the HTTP layer refused before it was read (not HTTP/1.1, a URI or
/// headers too large): the spec's error body under the app's profile, counted in `/metrics` and
/// metered like any answer (anonymous, path `unknown`, no credits).
pub(crate) fn refusal(shared: &Shared, status: StatusCode) -> (&'static str, Bytes) {
    let message = refusal_message(&shared.config, status);
    let app = &shared.app;
    // The method was not read either.
    let method = Method::from_bytes(b"UNREAD").unwrap_or(Method::GET);
    app.metrics
        .observe(&shared.unknown, &method, status.as_u16(), 0.0);
    if let Some(sink) = &app.sink {
        sink.record_ref(&UsageEventRef {
            timestamp_ms: unix_ms(SystemTime::now()),
            org_id: "",
            api_key_id: "",
            request_path: &shared.unknown,
            response_code: status.as_u16(),
            chain_id: None,
            request_type: "data",
            latency_us: 0,
            credits_used: 0,
            credits_wasted: 0,
        });
    }
    (
        JSON_CONTENT_TYPE,
        app.error_body(&ApiError::new(status, message)),
    )
}

/// What a refusal says: the limit it enforces.
fn refusal_message(config: &ServerConfig, status: StatusCode) -> String {
    snowline_http::limit_refused(config, status).unwrap_or_else(|| {
        "the request is not valid HTTP/1.1 (a request line, headers and a body as RFC 9112 \
         gives them; a URI of visible ASCII, percent-encoded past it)"
            .to_owned()
    })
}

pub(crate) async fn handle(conn: &Conn, req: hyper::Request<Incoming>) -> HttpResponse {
    let start = Instant::now();
    let shared = &*conn.shared;
    let app = &shared.app;
    let _in_flight = app.metrics.in_flight();
    let method = req.method().clone();
    if let Some((route, reply)) = builtin(app, &method, req.uri().path(), req.headers()) {
        let resp = respond(shared, Ok(reply), HeaderMap::new(), false);
        let route: Arc<str> = Arc::from(route);
        app.metrics.observe(
            &route,
            &method,
            resp.status().as_u16(),
            start.elapsed().as_secs_f64(),
        );
        return resp;
    }
    let mut facts = Facts {
        template: Arc::clone(&shared.unknown),
        weight: Weight::FREE,
        request_type: None,
        chain_id: None,
        caller: None,
        headers: HeaderMap::new(),
        close: false,
    };
    let result = serve(conn, req, &mut facts).await;
    let resp = respond(
        shared,
        result,
        std::mem::take(&mut facts.headers),
        facts.close,
    );
    let status = resp.status();
    let elapsed = start.elapsed();
    app.metrics.observe(
        &facts.template,
        &method,
        status.as_u16(),
        elapsed.as_secs_f64(),
    );
    if let Some(sink) = &app.sink {
        let (used, wasted) = credits(facts.weight, status);
        let (org_id, api_key_id) = facts
            .caller
            .as_deref()
            .map_or(("", ""), |c| (c.org_id.as_str(), c.key_id.as_str()));
        sink.record_ref(&UsageEventRef {
            // Arrival, not completion: the event belongs to the moment the request was made.
            timestamp_ms: SystemTime::now().checked_sub(elapsed).map_or(0, unix_ms),
            org_id,
            api_key_id,
            request_path: &facts.template,
            response_code: status.as_u16(),
            chain_id: facts.chain_id.as_deref(),
            request_type: facts.request_type.as_deref().unwrap_or("data"),
            latency_us: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            credits_used: used,
            credits_wasted: wasted,
        });
    }
    resp
}

/// `/healthz`, `/readyz`, `/metrics`, and `/openapi.json`, `/docs` with its files when the app
/// is described: no key, no limit, no metering.
fn builtin(
    app: &Built,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> Option<(&'static str, Reply)> {
    if let Some(site) = &app.docs {
        if method == Method::GET {
            if let Some(found) = site.answer(path, headers) {
                return Some(found);
            }
        } else if let Some((route, _)) = site.answer(path, headers) {
            let e = docs_site::method_not_allowed(method, path);
            let reply = Reply::bytes(e.status, app.error_body(&e))
                .with_header(ALLOW, HeaderValue::from_static("GET"));
            return Some((route, reply));
        }
    }
    let route = *BUILTIN_ROUTES.iter().find(|r| **r == path)?;
    if method != Method::GET {
        let e = ApiError::method_not_allowed(format!("Cannot {method} {path}; allowed: GET"));
        let reply = Reply::bytes(e.status, app.error_body(&e))
            .with_header(ALLOW, HeaderValue::from_static("GET"));
        return Some((route, reply));
    }
    let reply = match route {
        "/healthz" => health::healthz(),
        "/readyz" => health::readyz(app.readiness.as_ref()),
        _ => match metrics::render(&app.registry) {
            Ok(text) => Reply::bytes(StatusCode::OK, text)
                .with_header(CONTENT_TYPE, HeaderValue::from_static(METRICS_CONTENT_TYPE)),
            Err(_) => {
                let e = ApiError::internal("encoding the metrics failed");
                Reply::bytes(e.status, app.error_body(&e))
            }
        },
    };
    Some((route, reply))
}

async fn serve(
    conn: &Conn,
    req: hyper::Request<Incoming>,
    facts: &mut Facts,
) -> Result<Reply, ApiError> {
    let (shared, remote) = (&*conn.shared, conn.remote);
    let app = &shared.app;
    let (parts, body) = req.into_parts();
    let routed =
        decode_segments(parts.uri.path()).map(|segs| app.router.lookup(&parts.method, &segs));
    match &routed {
        Ok(Match::Found(route, params)) => {
            facts.template = Arc::clone(&route.meta.template);
            facts.weight = route.meta.weight;
            facts.request_type = Some(Arc::clone(&route.meta.request_type));
            if app.sink.is_some() {
                facts.chain_id = route.meta.chain_param.as_ref().and_then(|name| {
                    params
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| v.clone())
                });
            }
        }
        Ok(Match::MethodNotAllowed(route, _)) => {
            facts.template = Arc::clone(&route.meta.template);
            facts.request_type = Some(Arc::clone(&route.meta.request_type));
        }
        Ok(Match::NotFound) | Err(_) => {}
    }
    let caller = authenticate(app.keys.as_ref(), &parts.headers)?.map(Arc::new);
    facts.caller.clone_from(&caller);
    // Past the connection cap with every connection busy: answered here, after routing and
    // authentication so the answer is counted under its route and metered to its caller, and
    // before rate limiting so it costs the caller nothing.
    if conn.over_capacity {
        facts.close = true;
        facts
            .headers
            .insert(RETRY_AFTER, HeaderValue::from_static("1"));
        return Err(ApiError::service_unavailable(format!(
            "the server is serving its limit of {} connections, all busy; retry shortly",
            shared.config.max_connections
        )));
    }
    let (tier, key) = match caller.as_deref() {
        Some(c) => (c.tier.as_str(), LimitKeyRef::Key(&c.key_id)),
        None => (ANONYMOUS_TIER, LimitKeyRef::Ip(remote.ip())),
    };
    let rejected = app.limiter.check_into(
        tier,
        key,
        facts.weight,
        &mut facts.headers,
        Some(&conn.budget),
    );
    if let Some(message) = rejected {
        app.metrics.rejected(tier);
        return Err(ApiError::too_many_requests(message));
    }
    let (route, params) = match routed {
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
    if let Some(query) = parts.uri.query() {
        check_query(query).map_err(ApiError::bad_request)?;
    }
    let limit = shared.config.max_body_bytes;
    if snowline_http::declares_more_than(&parts.headers, limit) {
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
        remote.ip(),
        caller,
        app.profile,
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

/// The response: `headers` (the pipeline's: rate-limit headers and `allow`), `content-type`,
/// then the reply's own headers.
fn respond(
    shared: &Shared,
    result: Result<Reply, ApiError>,
    headers: HeaderMap,
    close: bool,
) -> HttpResponse {
    let reply = match result {
        Ok(r) => r,
        Err(e) => Reply::bytes(e.status, shared.app.error_body(&e)),
    };
    let mut resp = Response::new(Full::new(reply.body));
    *resp.status_mut() = reply.status;
    *resp.headers_mut() = headers;
    let h = resp.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    for (n, v) in reply.headers {
        if n == CONTENT_TYPE {
            h.insert(n, v);
        } else {
            h.append(n, v);
        }
    }
    if close {
        h.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    resp
}
