//! Usage metering: one [`UsageEvent`] per metered request, handed to a [`UsageSink`].

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

/// Receives usage events; `record` is called on the request path and must not block
/// (queue the event and write it elsewhere).
pub trait UsageSink: Send + Sync {
    /// Takes one event.
    fn record(&self, event: UsageEvent);
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
}
