//! Where a node of the fleet stands, shared by its task, `/readyz` and `/metrics`.

use std::sync::Mutex;

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
#[derive(Debug, Default)]
pub struct FleetStatus {
    inner: Mutex<FleetSnapshot>,
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
        }
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
    /// commit time).
    pub fn record(&self, outcome: &Outcome, committed_ms: u64) {
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
}
