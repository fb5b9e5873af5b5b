//! The fleet's Prometheus metrics, read from its [`FleetStatus`] at each scrape.

use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::DescriptorEncoder;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;
use snowline_telemetry::{counter, flag, gauge, gauge_u64, histogram};

use crate::status::{FleetStatus, Role};

/// A collector over the status.
#[derive(Debug)]
pub struct FleetMetrics {
    status: Arc<FleetStatus>,
}

impl FleetMetrics {
    /// Registers the metrics of `status` in `registry`.
    pub fn register(registry: &mut Registry, status: Arc<FleetStatus>) {
        registry.register_collector(Box::new(Self { status }));
    }
}

impl Collector for FleetMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> std::fmt::Result {
        let s = self.status.snapshot();
        let replica = s.role == Role::Replica;
        flag(
            &mut e,
            "snowline_fleet_replica",
            "1 on a replica, 0 on the primary",
            replica,
        )?;
        flag(
            &mut e,
            "snowline_fleet_connected",
            "1 when the last call to NATS succeeded, else 0",
            s.connected,
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_position",
            "The last batch committed here (primary) or applied here (replica)",
            s.position,
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_acked",
            "The last batch the stream acknowledged (primary)",
            s.acked,
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_head",
            "The newest batch on the stream, as last seen",
            s.head.unwrap_or(0),
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_behind_batches",
            "Batches on the stream not applied here (replica), or committed and not acknowledged \
             (primary)",
            s.behind(),
        )?;
        gauge(
            &mut e,
            "snowline_fleet_behind_seconds",
            "How much older the replica's data is than the stream's newest batch",
            ConstGauge::new(s.seconds_behind()),
        )?;
        counter(
            &mut e,
            "snowline_fleet_batches",
            "Batches published (primary) or applied (replica) since start",
            s.batches,
        )?;
        counter(
            &mut e,
            "snowline_fleet_gaps",
            "Messages refused because they did not follow the replica's position",
            s.gaps,
        )?;
        counter(
            &mut e,
            "snowline_fleet_bad_checksums",
            "Batches refused because their checksum did not match",
            s.bad_checksums,
        )?;
        counter(
            &mut e,
            "snowline_fleet_duplicates",
            "Batches skipped because they were applied already",
            s.duplicates,
        )?;
        counter(
            &mut e,
            "snowline_fleet_refused",
            "Batches the replica's store refused to apply",
            s.refused,
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_checkpoint_batch",
            "The batch of the last checkpoint this node published to the fleet's bucket (0: none \
             since start)",
            s.checkpoint_seq,
        )?;
        gauge_u64(
            &mut e,
            "snowline_fleet_checkpoint_timestamp_seconds",
            "When the last checkpoint this node published was taken, Unix seconds (0: none)",
            s.checkpoint_ms / 1000,
        )?;
        counter(
            &mut e,
            "snowline_fleet_checkpoints",
            "Checkpoints this node published to the fleet's bucket since start",
            s.checkpoints,
        )?;
        counter(
            &mut e,
            "snowline_fleet_checkpoint_failures",
            "Checkpoints this node could not take or publish since start",
            s.checkpoint_failures,
        )?;
        if replica {
            histogram(
                &mut e,
                "snowline_fleet_lag_seconds",
                "Seconds from the primary's commit of a batch to this replica serving it, one \
                 observation per applied batch (the primary's clock against this one's)",
                self.status.lag(),
            )?;
        }
        Ok(())
    }
}
