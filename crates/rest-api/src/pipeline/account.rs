//! The last stage: the answer counted in `/metrics` and, when metering is on, recorded as a
//! usage event with its credits.

use super::facts::Facts;
use crate::app::Built;
use crate::metering::{UsageEventRef, credits};
use hyper::{Method, StatusCode};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Most bytes of a `User-Agent` kept in a usage event.
const USER_AGENT_MAX: usize = 256;

/// A header's text, cut at `max` bytes on a character boundary ("" if not visible ASCII).
fn header_text(v: Option<&hyper::header::HeaderValue>, max: usize) -> &str {
    let text = v.and_then(|v| v.to_str().ok()).unwrap_or("");
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or("")
}

/// Accounts for a routed (or refused) request in one call: counted in `/metrics` under its
/// route, then metered.
pub(super) fn account(
    app: &Built,
    facts: &Facts,
    method: &Method,
    status: StatusCode,
    elapsed: Duration,
) {
    observe(app, &facts.template, method, status, elapsed);
    meter(app, facts, status, elapsed);
}

/// Counts the answer in `/metrics` under `template`.
pub(super) fn observe(
    app: &Built,
    template: &Arc<str>,
    method: &Method,
    status: StatusCode,
    elapsed: Duration,
) {
    app.metrics
        .observe(template, method, status.as_u16(), elapsed.as_secs_f64());
}

/// Records the usage event of the request `facts` describe, when metering is on.
fn meter(app: &Built, facts: &Facts, status: StatusCode, elapsed: Duration) {
    let Some(sink) = &app.sink else {
        return;
    };
    let (used, wasted) = credits(facts.weight, status);
    let (org_id, api_key_id) = facts
        .caller
        .as_deref()
        .map_or(("", ""), |c| (c.org_id.as_str(), c.key_id.as_str()));
    // The address formatted on the stack: metering allocates nothing per request.
    let mut ip = [0u8; 64];
    let mut at = &mut ip[..];
    let (host, user_agent) = match &facts.client {
        Some((addr, host, agent)) => {
            let _ = write!(at, "{addr}");
            (
                header_text(host.as_ref(), USER_AGENT_MAX),
                header_text(agent.as_ref(), USER_AGENT_MAX),
            )
        }
        None => ("", ""),
    };
    let written = 64 - at.len();
    let ip_address = std::str::from_utf8(ip.get(..written).unwrap_or(&[])).unwrap_or("");
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
        ip_address,
        host,
        user_agent,
    });
}

/// Milliseconds since the Unix epoch of `t` (0 before it).
fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
