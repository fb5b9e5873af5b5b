//! The server's Prometheus metrics: requests by route template, method and status;
//! latency by route template; requests in flight; rate-limit refusals by tier. The
//! application adds its own to the same registry (see [`crate::App::metrics`]).

use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue, LabelValueEncoder};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::sync::Arc;

/// The `content-type` of `/metrics` (prometheus-client writes OpenMetrics text).
pub const METRICS_CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A route template as a label value, shared rather than copied per request.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
struct Route(Arc<str>);

impl EncodeLabelValue for Route {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        EncodeLabelValue::encode(&&*self.0, encoder)
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: Route,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: Route,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TierLabels {
    tier: String,
}

type HistogramFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// Handles on the server's metrics (registered in a [`Registry`] at construction).
#[derive(Clone)]
pub(crate) struct HttpMetrics {
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily,
    in_flight: Gauge,
    rejections: Family<TierLabels, Counter>,
}

fn latency_histogram() -> Histogram {
    // 50 µs .. ~6.5 s.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 18))
}

impl HttpMetrics {
    /// Creates the metrics and registers them in `registry`.
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let m = Self {
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram as fn() -> Histogram),
            in_flight: Gauge::default(),
            rejections: Family::default(),
        };
        registry.register(
            "http_requests",
            "HTTP requests answered, by route template, method and status",
            m.requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request, by route template",
            m.latency.clone(),
        );
        registry.register(
            "http_requests_in_flight",
            "HTTP requests being answered now",
            m.in_flight.clone(),
        );
        registry.register(
            "rate_limit_rejections",
            "Requests refused with 429 by the rate limiter, by tier",
            m.rejections.clone(),
        );
        m
    }

    /// Counts one answered request.
    pub(crate) fn observe(&self, route: &Arc<str>, method: &hyper::Method, status: u16, secs: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                route: Route(Arc::clone(route)),
                method: method_label(method),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: Route(Arc::clone(route)),
            })
            .observe(secs);
    }

    /// Counts one rate-limit refusal.
    pub(crate) fn rejected(&self, tier: &str) {
        self.rejections
            .get_or_create(&TierLabels {
                tier: tier.to_owned(),
            })
            .inc();
    }

    /// Marks a request in flight until the guard drops (also on cancellation).
    pub(crate) fn in_flight(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }
}

/// Decrements the in-flight gauge on drop.
pub(crate) struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// A bounded label for the method: the standard ones by name, anything else `other`.
fn method_label(m: &hyper::Method) -> &'static str {
    match *m {
        hyper::Method::GET => "GET",
        hyper::Method::POST => "POST",
        hyper::Method::PUT => "PUT",
        hyper::Method::DELETE => "DELETE",
        hyper::Method::HEAD => "HEAD",
        hyper::Method::OPTIONS => "OPTIONS",
        hyper::Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// Renders `registry` as exposition text.
pub(crate) fn render(registry: &Registry) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    prometheus_client::encoding::text::encode(&mut out, registry)?;
    Ok(out)
}
