//! [`SyncStatus`]: where a follower of one EVM chain stands (node reachable, blocks behind, the
//! last error), written by the follower and the deriver, read by readiness checks and metrics.

use std::sync::Mutex;
use std::time::Instant;

use crate::error::EvmError;

/// Where a follower stands.
#[derive(Debug, Default)]
pub struct SyncStatus {
    inner: Mutex<SyncSnapshot>,
}

/// A copy of a [`SyncStatus`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncSnapshot {
    /// The next block to index.
    pub next: u64,
    /// The node's last block, when asked.
    pub tip: Option<u64>,
    /// Whether the last call to the node succeeded.
    pub node_up: bool,
    /// Why the last call failed, when it did.
    pub last_error: Option<String>,
    /// When the index last reached the node's tip.
    pub caught_up_at: Option<Instant>,
}

impl SyncSnapshot {
    /// Blocks the node has that the index does not.
    pub fn behind(&self) -> u64 {
        self.tip
            .map_or(0, |t| t.saturating_add(1).saturating_sub(self.next))
    }
}

impl SyncStatus {
    fn with(&self, f: impl FnOnce(&mut SyncSnapshot)) {
        if let Ok(mut s) = self.inner.lock() {
            f(&mut s);
        }
    }

    /// A copy of the status.
    pub fn snapshot(&self) -> SyncSnapshot {
        self.inner.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub(crate) fn tip(&self, tip: u64) {
        self.with(|s| {
            s.tip = Some(tip);
            s.node_up = true;
            s.last_error = None;
        });
    }

    pub(crate) fn indexed(&self, next: u64) {
        self.with(|s| s.next = next);
    }

    pub(crate) fn caught_up(&self) {
        self.with(|s| s.caught_up_at = Some(Instant::now()));
    }

    pub(crate) fn failed(&self, e: &EvmError) {
        self.with(|s| {
            s.node_up = false;
            s.last_error = Some(e.to_string());
        });
    }
}
