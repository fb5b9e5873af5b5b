//! The follower's Prometheus metrics, registered by every binary that follows an upstream
//! (`data-api serve --upstream`, `node-rpc follow`), so both expose the same names.

use std::sync::atomic::AtomicU64;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use crate::status::FollowSnapshot;

/// Handles on the follower's metrics; [`FollowMetrics::update`] copies a [`FollowSnapshot`] in.
#[derive(Debug, Clone, Default)]
pub struct FollowMetrics {
    behind: Gauge,
    upstream_up: Gauge,
    since_caught_up: Gauge<f64, AtomicU64>,
    diverged: Gauge,
    retries: Counter,
    refused: Counter,
}

impl FollowMetrics {
    /// Creates the metrics and registers them in `registry`.
    pub fn register(registry: &mut Registry) -> Self {
        let m = Self::default();
        registry.register(
            "snowline_ingest_behind_containers",
            "Containers the upstream has accepted that are not indexed here yet",
            m.behind.clone(),
        );
        registry.register(
            "snowline_ingest_upstream_up",
            "1 when the last call to the upstream succeeded, else 0",
            m.upstream_up.clone(),
        );
        registry.register(
            "snowline_ingest_seconds_since_caught_up",
            "Seconds since the index last matched the upstream (-1: never)",
            m.since_caught_up.clone(),
        );
        registry.register(
            "snowline_ingest_upstream_diverged",
            "1 while the upstream holds fewer or other containers than the index (nothing is written)",
            m.diverged.clone(),
        );
        registry.register(
            "snowline_ingest_retries",
            "Failed calls to the upstream retried after a pause",
            m.retries.clone(),
        );
        registry.register(
            "snowline_ingest_refused_pages",
            "Upstream pages refused because they failed verification (checksum, id, index gap)",
            m.refused.clone(),
        );
        m
    }

    /// Sets every metric from `s`.
    pub fn update(&self, s: &FollowSnapshot) {
        self.behind
            .set(i64::try_from(s.behind()).unwrap_or(i64::MAX));
        self.upstream_up.set(i64::from(s.upstream_up));
        self.since_caught_up
            .set(s.since_caught_up.map_or(-1.0, |d| d.as_secs_f64()));
        self.diverged.set(i64::from(s.diverged.is_some()));
        // Counters only go up: add what the status counted since the last update.
        self.retries
            .inc_by(s.retries.saturating_sub(self.retries.get()));
        self.refused
            .inc_by(s.refused_pages.saturating_sub(self.refused.get()));
    }
}

/// The follower's metrics for `s` as Prometheus exposition text (for a server without a
/// registry of its own).
pub fn follow_metrics_text(s: &FollowSnapshot) -> String {
    let mut registry = Registry::default();
    FollowMetrics::register(&mut registry).update(s);
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
    out
}
