//! Usage metering: one event per metered request, handed to a [`UsageSink`] as a borrowed
//! [`UsageEventRef`] (its strings stay owned by the route, the caller and the request, so
//! metering allocates nothing unless the sink does).

use crate::route::Weight;
use hyper::StatusCode;
use std::sync::Mutex;

/// The `request_path` of requests that matched no route.
pub const UNKNOWN_PATH: &str = "unknown";

/// One request, as the usage-metrics API aggregates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageEvent {
    /// When the request finished, milliseconds since the UNIX epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation; empty for anonymous callers.
    pub org_id: String,
    /// The caller's API-key id; empty for anonymous callers.
    pub api_key_id: String,
    /// The route template (e.g. `/v1/chains/{chainId}`), or `unknown`.
    pub request_path: String,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The value of the route's chain parameter, if it has one.
    pub chain_id: Option<String>,
    /// The route's request type (`data`).
    pub request_type: String,
    /// Time from request start to answer, microseconds.
    pub latency_us: u64,
    /// The route weight on success (status below 400), else 0.
    pub credits_used: u32,
    /// The route weight on a client error (4xx), else 0.
    pub credits_wasted: u32,
}

/// One request as the pipeline hands it to a sink: [`UsageEvent`]'s fields, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsageEventRef<'a> {
    /// When the request finished, milliseconds since the UNIX epoch.
    pub timestamp_ms: u64,
    /// The caller's organisation; empty for anonymous callers.
    pub org_id: &'a str,
    /// The caller's API-key id; empty for anonymous callers.
    pub api_key_id: &'a str,
    /// The route template (e.g. `/v1/chains/{chainId}`), or `unknown`.
    pub request_path: &'a str,
    /// The HTTP status answered.
    pub response_code: u16,
    /// The value of the route's chain parameter, if it has one.
    pub chain_id: Option<&'a str>,
    /// The route's request type (`data`).
    pub request_type: &'a str,
    /// Time from request start to answer, microseconds.
    pub latency_us: u64,
    /// The route weight on success (status below 400), else 0.
    pub credits_used: u32,
    /// The route weight on a client error (4xx), else 0.
    pub credits_wasted: u32,
}

impl UsageEventRef<'_> {
    /// An owned copy.
    pub fn to_event(&self) -> UsageEvent {
        UsageEvent {
            timestamp_ms: self.timestamp_ms,
            org_id: self.org_id.to_owned(),
            api_key_id: self.api_key_id.to_owned(),
            request_path: self.request_path.to_owned(),
            response_code: self.response_code,
            chain_id: self.chain_id.map(str::to_owned),
            request_type: self.request_type.to_owned(),
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
        }
    }
}

impl UsageEvent {
    /// A borrowed view of this event.
    pub fn as_ref(&self) -> UsageEventRef<'_> {
        UsageEventRef {
            timestamp_ms: self.timestamp_ms,
            org_id: &self.org_id,
            api_key_id: &self.api_key_id,
            request_path: &self.request_path,
            response_code: self.response_code,
            chain_id: self.chain_id.as_deref(),
            request_type: &self.request_type,
            latency_us: self.latency_us,
            credits_used: self.credits_used,
            credits_wasted: self.credits_wasted,
        }
    }
}

/// `(credits_used, credits_wasted)` of a request of `weight` answered with `status`.
pub fn credits(weight: Weight, status: StatusCode) -> (u32, u32) {
    if status.is_client_error() {
        (0, weight.units())
    } else if status.as_u16() < 400 {
        (weight.units(), 0)
    } else {
        (0, 0)
    }
}

/// Receives usage events; called on the request path, so it must not block (queue the event
/// and write it elsewhere).
pub trait UsageSink: Send + Sync {
    /// Takes one event.
    fn record(&self, event: UsageEvent);

    /// Takes one borrowed event: what the pipeline calls. The default copies it into a
    /// [`UsageEvent`] for [`record`](Self::record); a sink that can store the borrowed form
    /// (copying bytes into a queue) overrides it and saves the per-request allocations.
    fn record_ref(&self, event: &UsageEventRef<'_>) {
        self.record(event.to_event());
    }
}

/// A sink keeping events in memory, for tests.
#[derive(Debug, Default)]
pub struct MemorySink {
    events: Mutex<Vec<UsageEvent>>,
}

impl MemorySink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// The events recorded so far, in order.
    pub fn events(&self) -> Vec<UsageEvent> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }
}

impl UsageSink for MemorySink {
    fn record(&self, event: UsageEvent) {
        if let Ok(mut e) = self.events.lock() {
            e.push(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credits_follow_the_status_class() {
        let w = Weight::MEDIUM;
        assert_eq!(credits(w, StatusCode::OK), (20, 0));
        assert_eq!(credits(w, StatusCode::NOT_FOUND), (0, 20));
        assert_eq!(credits(w, StatusCode::TOO_MANY_REQUESTS), (0, 20));
        assert_eq!(credits(w, StatusCode::INTERNAL_SERVER_ERROR), (0, 0));
    }

    #[test]
    fn the_default_record_ref_hands_the_owned_event_over() {
        let e = UsageEvent {
            timestamp_ms: 1_700_000_000_123,
            org_id: "org".into(),
            api_key_id: "key".into(),
            request_path: "/v1/chains/{chainId}".into(),
            response_code: 404,
            chain_id: Some("43114".into()),
            request_type: "data".into(),
            latency_us: 77,
            credits_used: 0,
            credits_wasted: 20,
        };
        let sink = MemorySink::new();
        sink.record_ref(&e.as_ref());
        sink.record_ref(&UsageEventRef {
            chain_id: None,
            ..e.as_ref()
        });
        let no_chain = UsageEvent {
            chain_id: None,
            ..e.clone()
        };
        assert_eq!(sink.events(), [e, no_chain]);
    }
}
