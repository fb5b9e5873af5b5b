//! The follower's Prometheus metrics, read from its [`FollowStatus`] at each scrape and
//! registered by every binary that follows an upstream (`data-api serve --upstream`,
//! `node-rpc follow`), so both expose the same names with current values.

use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;
use snowline_telemetry::{counter, flag, gauge, gauge_u64};

use snowline_store::Store;

use crate::status::FollowStatus;
use crate::store_metrics::StoreMetrics;

/// The follower's metrics, a collector over its status.
#[derive(Debug, Clone)]
pub struct FollowMetrics {
    status: Arc<FollowStatus>,
}

impl FollowMetrics {
    /// Registers the metrics of `status` in `registry`.
    pub fn register(registry: &mut Registry, status: Arc<FollowStatus>) {
        registry.register_collector(Box::new(Self { status }));
    }
}

impl Collector for FollowMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> std::fmt::Result {
        let s = self.status.snapshot();
        gauge_u64(
            &mut e,
            "snowline_ingest_behind_containers",
            "Containers the upstream has accepted that are not indexed here yet",
            s.behind(),
        )?;
        gauge_u64(
            &mut e,
            "snowline_ingest_indexed_containers",
            "Containers indexed here, over every followed path",
            s.paths.iter().map(|p| p.local).sum(),
        )?;
        flag(
            &mut e,
            "snowline_ingest_upstream_up",
            "1 when the last call to the upstream succeeded, else 0",
            s.upstream_up,
        )?;
        gauge(
            &mut e,
            "snowline_ingest_seconds_since_caught_up",
            "Seconds since the index last matched the upstream (-1: never)",
            ConstGauge::new(s.since_caught_up.map_or(-1.0, |d| d.as_secs_f64())),
        )?;
        flag(
            &mut e,
            "snowline_ingest_upstream_diverged",
            "1 while the upstream holds fewer or other containers than the index (nothing is written)",
            s.diverged.is_some(),
        )?;
        counter(
            &mut e,
            "snowline_ingest_retries",
            "Failed calls to the upstream retried after a pause",
            s.retries,
        )?;
        counter(
            &mut e,
            "snowline_ingest_refused_pages",
            "Upstream pages refused because they failed verification (checksum, id, index gap)",
            s.refused_pages,
        )
    }
}

/// The follower's metrics of `status`, and with `store` its memory gauges ([`StoreMetrics`]), as
/// Prometheus exposition text (for a server without a registry of its own).
pub fn follow_metrics_text(status: &Arc<FollowStatus>, store: Option<&Arc<Store>>) -> String {
    let mut registry = Registry::default();
    FollowMetrics::register(&mut registry, Arc::clone(status));
    if let Some(store) = store {
        StoreMetrics::register(&mut registry, Arc::clone(store));
    }
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_types::container::IndexPath;

    #[test]
    fn metrics_show_the_status_at_each_scrape() {
        let status = Arc::new(FollowStatus::new());
        status.set_local(IndexPath::XTx, 3);
        status.set_upstream(IndexPath::XTx, 10);
        status.call_failed("timeout", true);
        status.page_refused("checksum");
        let text = follow_metrics_text(&status, None);
        for line in [
            "snowline_ingest_behind_containers 7",
            "snowline_ingest_upstream_up 0",
            "snowline_ingest_seconds_since_caught_up -1.0",
            "snowline_ingest_upstream_diverged 0",
            "snowline_ingest_retries_total 1",
            "snowline_ingest_refused_pages_total 1",
            "# TYPE snowline_ingest_retries counter",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
        }
        status.set_diverged(Some("X/tx: fewer".into()));
        assert!(
            follow_metrics_text(&status, None).contains("snowline_ingest_upstream_diverged 1\n")
        );
    }
}
