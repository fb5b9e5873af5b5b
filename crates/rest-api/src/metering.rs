//! Usage metering: one event per metered request, handed to a [`UsageSink`] as a borrowed
//! [`UsageEventRef`] (its strings stay owned by the route, the caller and the request, so
//! metering allocates nothing unless the sink does).

use crate::weight::Weight;
use hyper::StatusCode;
use std::sync::Mutex;

pub use snowline_types::access::{UsageEvent, UsageEventRef};

/// The `request_path` of requests that matched no route.
pub const UNKNOWN_PATH: &str = "unknown";

/// `(credits_used, credits_wasted)` of a request of `weight` answered with `status`.
pub fn credits(weight: Weight, status: StatusCode) -> (u32, u32) {
    if status.is_client_error() {
        (0, weight.units.get())
    } else if status.as_u16() < 400 {
        (weight.units.get(), 0)
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
            ip_address: "127.0.0.1".into(),
            host: "localhost".into(),
            user_agent: "test".into(),
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
