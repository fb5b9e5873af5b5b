//! The third stage: who calls (the API key), and whether they may now: the connection cap,
//! then the caller's rate limit. After routing, so a refusal is counted under its route and
//! metered to its caller; before the handler, so it costs nothing else.

use super::conn::Conn;
use super::facts::Facts;
use crate::auth::{ANONYMOUS_TIER, Caller, authenticate};
use crate::error::ApiError;
use crate::ratelimit::LimitKeyRef;
use hyper::HeaderMap;
use hyper::header::{HeaderValue, RETRY_AFTER};
use std::sync::Arc;

/// The caller, if a key was given, once the request is admitted.
pub(super) fn admit(
    conn: &Conn,
    headers: &HeaderMap,
    facts: &mut Facts,
) -> Result<Option<Arc<Caller>>, ApiError> {
    let shared = &*conn.shared;
    let app = &shared.app;
    let caller = authenticate(app.keys.as_ref(), headers)?.map(Arc::new);
    facts.caller.clone_from(&caller);
    // Past the connection cap with every connection busy: answered before rate limiting so it
    // costs the caller nothing.
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
        None => (ANONYMOUS_TIER, LimitKeyRef::Ip(conn.remote.ip())),
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
    Ok(caller)
}
