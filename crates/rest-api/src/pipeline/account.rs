//! The last stage: the answer counted in `/metrics` and, when metering is on, recorded as a
//! usage event with its credits.

use super::facts::Facts;
use crate::app::Built;
use crate::metering::{UsageEventRef, credits};
use hyper::{Method, StatusCode};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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
pub(super) fn meter(app: &Built, facts: &Facts, status: StatusCode, elapsed: Duration) {
    let Some(sink) = &app.sink else {
        return;
    };
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

/// Milliseconds since the Unix epoch of `t` (0 before it).
fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
