//! Where a node of the fleet stands, shared by its task, `/readyz` and `/metrics`.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

use crate::apply::Outcome;

/// The node's part in the fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Publishes its batches.
    #[default]
    Primary,
    /// Applies the primary's batches.
    Replica,
}

/// A copy of the status at one instant.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FleetSnapshot {
    /// The node's part.
    pub role: Role,
    /// Whether the last call to NATS succeeded.
    pub connected: bool,
    /// The last batch committed (primary) or applied (replica).
    pub position: u64,
    /// The primary's commit time of that batch, Unix milliseconds.
    pub position_ms: u64,
    /// The last batch the stream acknowledged (primary).
    pub acked: u64,
    /// The newest batch on the stream, once known.
    pub head: Option<u64>,
    /// The primary's commit time of the newest batch, Unix milliseconds.
    pub head_ms: u64,
    /// Batches published (primary) or applied (replica) since start.
    pub batches: u64,
    /// Messages refused because they did not follow the position.
    pub gaps: u64,
    /// Batches refused because their checksum did not match.
    pub bad_checksums: u64,
    /// Batches skipped because they were applied already.
    pub duplicates: u64,
    /// Batches the store refused to apply.
    pub refused: u64,
    /// The last problem, kept until the next success.
    pub last_error: Option<String>,
    /// The batch of the last checkpoint this node published (0: none since start).
    pub checkpoint_seq: u64,
    /// When that checkpoint was taken, Unix milliseconds.
    pub checkpoint_ms: u64,
    /// Checkpoints published since start.
    pub checkpoints: u64,
    /// Checkpoints that could not be taken or published since start.
    pub checkpoint_failures: u64,
}

impl FleetSnapshot {
    /// Batches the stream holds that are not applied here (replica), or committed here and
    /// not yet acknowledged (primary).
    pub fn behind(&self) -> u64 {
        match self.role {
            Role::Replica => self.head.unwrap_or(0).saturating_sub(self.position),
            Role::Primary => self.position.saturating_sub(self.acked),
        }
    }

    /// How much older what this node serves is than the newest batch on the stream, in
    /// seconds of the primary's clock (0 when caught up).
    pub fn seconds_behind(&self) -> f64 {
        if self.role == Role::Replica && self.behind() > 0 {
            self.head_ms.saturating_sub(self.position_ms) as f64 / 1000.0
        } else {
            0.0
        }
    }

    /// Why the node should not take reads, if it should not: a replica unconnected, without the
    /// stream, or more than `max_lag_secs` behind; a primary whose stream refuses it.
    pub fn problem(&self, max_lag_secs: f64) -> Option<String> {
        let why = self
            .last_error
            .as_deref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        match self.role {
            Role::Replica if !self.connected => Some(format!("NATS not reached{why}")),
            Role::Replica if self.head.is_none() => {
                Some(format!("the stream's newest batch is not known yet{why}"))
            }
            Role::Replica if self.behind() > 0 && self.seconds_behind() > max_lag_secs => {
                Some(format!(
                    "{} batches ({:.1} s) behind the primary{why}",
                    self.behind(),
                    self.seconds_behind()
                ))
            }
            Role::Primary if !self.connected => Some(format!(
                "not publishing: NATS not reached, {} batches waiting{why}",
                self.behind()
            )),
            _ => None,
        }
    }
}

/// The live status: updated by the fleet's task, read by `/readyz` and `/metrics`.
#[derive(Debug)]
pub struct FleetStatus {
    inner: Mutex<FleetSnapshot>,
    lag: Histogram,
}

impl Default for FleetStatus {
    fn default() -> Self {
        Self::new(Role::default(), 0, 0)
    }
}

/// The lag histogram's buckets, in seconds: 1 ms to about 5 minutes, each 1.5 times the last,
/// fine enough to read a p50 and a p99 from at a live rate and during a catch-up alike.
fn lag_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.001, 1.5, 32)
}

/// The time now, Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl FleetStatus {
    /// A status for `role` at `position`.
    pub fn new(role: Role, position: u64, position_ms: u64) -> Self {
        Self {
            inner: Mutex::new(FleetSnapshot {
                role,
                position,
                position_ms,
                ..FleetSnapshot::default()
            }),
            lag: Histogram::new(lag_buckets()),
        }
    }

    /// Seconds from the primary's commit of each batch applied here to its being readable here,
    /// one observation per applied batch.
    pub fn lag(&self) -> &Histogram {
        &self.lag
    }

    /// A copy of the status now.
    pub fn snapshot(&self) -> FleetSnapshot {
        self.inner.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Applies `f` to the status.
    pub fn update(&self, f: impl FnOnce(&mut FleetSnapshot)) {
        if let Ok(mut s) = self.inner.lock() {
            f(&mut s);
        }
    }

    /// Counts what became of one message offered to a replica (`committed_ms`: its batch's
    /// commit time), called once the offer has returned: an applied batch is readable then.
    pub fn record(&self, outcome: &Outcome, committed_ms: u64) {
        self.record_at(outcome, committed_ms, now_ms());
    }

    /// [`record`](Self::record) at `now_ms`: an applied batch adds `now_ms - committed_ms` to
    /// the lag (0 when the replica's clock is behind the primary's).
    fn record_at(&self, outcome: &Outcome, committed_ms: u64, now_ms: u64) {
        if let Outcome::Applied(_) = outcome {
            self.lag
                .observe(now_ms.saturating_sub(committed_ms) as f64 / 1000.0);
        }
        self.update(|s| match outcome {
            Outcome::Applied(seq) => {
                s.position = *seq;
                s.position_ms = committed_ms;
                s.batches += 1;
                if s.head.is_none_or(|h| h < *seq) {
                    s.head = Some(*seq);
                    s.head_ms = committed_ms;
                }
                s.last_error = None;
            }
            Outcome::Partial => {}
            Outcome::Duplicate(_) => s.duplicates += 1,
            Outcome::Gap { expected, got } => {
                s.gaps += 1;
                s.last_error = Some(format!(
                    "batch {got} offered where {expected} comes next; fetching again"
                ));
            }
            Outcome::BadChecksum(seq) => {
                s.bad_checksums += 1;
                s.last_error = Some(format!("batch {seq} failed its checksum; fetching again"));
            }
            Outcome::Refused(seq, why) => {
                s.refused += 1;
                s.last_error = Some(format!("batch {seq} refused: {why}"));
            }
        });
    }

    /// Records a failed call to NATS.
    pub fn failed(&self, error: impl std::fmt::Display) {
        let e = error.to_string();
        self.update(|s| {
            s.connected = false;
            s.last_error = Some(e);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readiness_says_how_far_behind_and_why() {
        let status = FleetStatus::new(Role::Replica, 10, 5_000);
        assert!(status.snapshot().problem(2.0).unwrap().contains("NATS"));
        status.update(|s| s.connected = true);
        assert!(
            status
                .snapshot()
                .problem(2.0)
                .unwrap()
                .contains("not known")
        );
        status.update(|s| {
            s.head = Some(14);
            s.head_ms = 9_500;
        });
        let s = status.snapshot();
        assert_eq!((s.behind(), s.seconds_behind()), (4, 4.5));
        assert_eq!(
            s.problem(2.0).unwrap(),
            "4 batches (4.5 s) behind the primary"
        );
        assert_eq!(s.problem(5.0), None);
        status.record(
            &Outcome::Gap {
                expected: 11,
                got: 13,
            },
            0,
        );
        assert!(
            status
                .snapshot()
                .problem(2.0)
                .unwrap()
                .contains("batch 13 offered where 11 comes next")
        );
        for seq in 11..=14 {
            status.record(&Outcome::Applied(seq), 9_000 + seq * 100 - 1_300);
        }
        let s = status.snapshot();
        assert_eq!((s.behind(), s.seconds_behind(), s.gaps), (0, 0.0, 1));
        assert_eq!(s.problem(0.0), None);
    }

    /// The lag histogram as the exposition writes it: (sum, count, count at or under 0.5 s).
    fn lag_of(status: &FleetStatus) -> (f64, u64, u64) {
        let mut registry = prometheus_client::registry::Registry::default();
        registry.register("lag_seconds", "lag", status.lag().clone());
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        let value = |name: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
                .unwrap_or_else(|| panic!("{name} not in\n{text}"))
        };
        // The buckets' bounds are 1 ms times powers of 1.5: 0.438 s is the last under 0.5 s.
        let under = text
            .lines()
            .filter_map(|l| {
                let rest = l.strip_prefix("lag_seconds_bucket{le=\"")?;
                let (le, count) = rest.split_once("\"} ")?;
                let le: f64 = le.parse().ok()?;
                (le <= 0.5).then(|| count.parse::<u64>().ok())?
            })
            .max()
            .unwrap_or(0);
        (
            value("lag_seconds_sum"),
            value("lag_seconds_count") as u64,
            under,
        )
    }

    #[test]
    fn the_lag_counts_each_applied_batch_once() {
        let status = FleetStatus::new(Role::Replica, 10, 5_000);
        status.update(|s| s.connected = true);
        // Batch 11 in two parts, a republished batch 10, a gap, a bad checksum, a refusal:
        // none of them is a batch made readable.
        for outcome in [
            Outcome::Partial,
            Outcome::Duplicate(10),
            Outcome::Gap {
                expected: 11,
                got: 13,
            },
            Outcome::BadChecksum(11),
            Outcome::Refused(11, "a failed write".to_owned()),
        ] {
            status.record_at(&outcome, 6_000, 6_050);
        }
        assert_eq!(lag_of(&status), (0.0, 0, 0));
        // Batches 11 to 13 readable 250 ms, 2 s and 0 s after their commit (the last on a
        // replica whose clock runs behind the primary's: counted as 0).
        status.record_at(&Outcome::Applied(11), 6_000, 6_250);
        status.record_at(&Outcome::Applied(12), 7_000, 9_000);
        status.record_at(&Outcome::Applied(13), 9_500, 9_400);
        assert_eq!(lag_of(&status), (2.25, 3, 2));
        // A republish of an applied batch adds nothing.
        status.record_at(&Outcome::Duplicate(12), 7_000, 9_600);
        assert_eq!(lag_of(&status).1, 3);
        assert_eq!(status.snapshot().batches, 3);
    }
}
