//! What a running [`Follower`](crate::Follower) knows about its upstream, shared with the serving
//! side so `/readyz` and `/metrics` can show whether the upstream answers and how far behind the
//! local index is.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use snowline_types::container::IndexPath;

/// One path's position here and upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathLag {
    /// The path.
    pub path: IndexPath,
    /// Containers held here (our next index).
    pub local: u64,
    /// Containers the upstream had accepted at its last answer, when known.
    pub upstream: Option<u64>,
}

impl PathLag {
    /// Containers the upstream has and we do not yet (0 when unknown).
    pub fn behind(&self) -> u64 {
        self.upstream.map_or(0, |u| u.saturating_sub(self.local))
    }
}

/// A consistent copy of a [`FollowStatus`].
#[derive(Debug, Clone, PartialEq)]
pub struct FollowSnapshot {
    /// Whether the last call to the upstream succeeded (a refused page counts as a failure).
    pub upstream_up: bool,
    /// Failed syncs since the last success.
    pub consecutive_failures: u32,
    /// The last failure, if the upstream is down.
    pub last_error: Option<String>,
    /// Time since the last complete sync (every path caught up), if there was one.
    pub since_caught_up: Option<Duration>,
    /// Per served path.
    pub paths: Vec<PathLag>,
    /// Failed calls to the upstream that were retried after a pause, since the start.
    pub retries: u64,
    /// Pages refused because they failed verification (checksum, id, index continuity, shape),
    /// since the start.
    pub refused_pages: u64,
    /// Why the upstream disagrees with what is held here (it has fewer containers, or another
    /// container at an index we hold), while it does: nothing is written meanwhile.
    pub diverged: Option<String>,
}

impl FollowSnapshot {
    /// Containers behind the upstream, over every path.
    pub fn behind(&self) -> u64 {
        self.paths.iter().map(PathLag::behind).sum()
    }

    /// Why the index is not ready to serve as a mirror of the upstream, or `None`: diverged, the
    /// upstream failing (each failed call, not only a failed round), never caught up, or more
    /// than `tolerance` containers behind. The lag is part of every message.
    pub fn problem(&self, tolerance: u64) -> Option<String> {
        let behind = self.behind();
        if let Some(why) = &self.diverged {
            return Some(format!("upstream diverged, not following: {why}"));
        }
        if !self.upstream_up {
            return Some(match &self.last_error {
                Some(e) => format!("upstream unavailable ({behind} containers behind): {e}"),
                None => "upstream not reached yet".to_owned(),
            });
        }
        if self.since_caught_up.is_none() {
            return Some(format!("catching up: {behind} containers behind"));
        }
        (behind > tolerance).then(|| format!("behind the upstream: {behind} containers behind"))
    }
}

#[derive(Debug, Default)]
struct Inner {
    upstream_up: bool,
    consecutive_failures: u32,
    last_error: Option<String>,
    caught_up_at: Option<Instant>,
    paths: Vec<PathLag>,
    retries: u64,
    refused_pages: u64,
    diverged: Option<String>,
}

/// Shared, updated by the follower and read by anyone (a `Mutex` held only to copy a few words).
#[derive(Debug, Default)]
pub struct FollowStatus {
    inner: Mutex<Inner>,
}

impl FollowStatus {
    /// A status with nothing known yet (upstream not yet reached).
    pub fn new() -> Self {
        Self::default()
    }

    fn with<R>(&self, f: impl FnOnce(&mut Inner) -> R) -> R {
        // A poisoned lock only means a panic elsewhere mid-update of plain counters: keep going.
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut guard)
    }

    fn path_mut(inner: &mut Inner, path: IndexPath) -> &mut PathLag {
        let i = match inner.paths.iter().position(|p| p.path == path) {
            Some(i) => i,
            None => {
                inner.paths.push(PathLag {
                    path,
                    local: 0,
                    upstream: None,
                });
                inner.paths.len() - 1
            }
        };
        &mut inner.paths[i]
    }

    /// Records our next index on `path`.
    pub fn set_local(&self, path: IndexPath, next_index: u64) {
        self.with(|i| {
            let p = Self::path_mut(i, path);
            p.local = next_index;
            if let Some(u) = p.upstream {
                p.upstream = Some(u.max(next_index));
            }
        });
    }

    /// Records how many containers the upstream has accepted on `path` (it answered, so it is
    /// up).
    pub fn set_upstream(&self, path: IndexPath, accepted: u64) {
        self.with(|i| {
            i.upstream_up = true;
            i.consecutive_failures = 0;
            i.last_error = None;
            Self::path_mut(i, path).upstream = Some(accepted);
        });
    }

    /// Forgets a path the upstream does not serve.
    pub fn remove_path(&self, path: IndexPath) {
        self.with(|i| i.paths.retain(|p| p.path != path));
    }

    /// A sync completed: every path caught up.
    pub fn caught_up(&self) {
        self.with(|i| {
            i.upstream_up = true;
            i.consecutive_failures = 0;
            i.last_error = None;
            i.caught_up_at = Some(Instant::now());
            // Caught up means the upstream had nothing beyond our index when we asked.
            for p in &mut i.paths {
                p.upstream = Some(p.local);
            }
        });
    }

    /// A call to the upstream answered (whatever comes of its answer).
    pub fn call_succeeded(&self) {
        self.with(|i| {
            i.upstream_up = true;
            i.last_error = None;
        });
    }

    /// One attempt of a call failed (`error`); `retried`: a pause and another attempt follow.
    pub fn call_failed(&self, error: &str, retried: bool) {
        self.with(|i| {
            i.upstream_up = false;
            i.last_error = Some(error.to_owned());
            i.retries = i.retries.saturating_add(u64::from(retried));
        });
    }

    /// A page failed verification and was refused (nothing of it is written).
    pub fn page_refused(&self, reason: &str) {
        self.with(|i| {
            i.upstream_up = false;
            i.last_error = Some(format!("refused a page: {reason}"));
            i.refused_pages = i.refused_pages.saturating_add(1);
        });
    }

    /// Records whether the upstream disagrees with the index (`Some(why)`) or agrees (`None`);
    /// returns whether that changed, so the caller logs each change once.
    pub fn set_diverged(&self, why: Option<String>) -> bool {
        self.with(|i| {
            let changed = i.diverged != why;
            i.diverged = why;
            changed
        })
    }

    /// A round failed after its retries.
    pub fn failed(&self, error: &str) {
        self.with(|i| {
            i.upstream_up = false;
            i.consecutive_failures = i.consecutive_failures.saturating_add(1);
            i.last_error = Some(error.to_owned());
        });
    }

    /// A copy of the current state.
    pub fn snapshot(&self) -> FollowSnapshot {
        self.with(|i| FollowSnapshot {
            upstream_up: i.upstream_up,
            consecutive_failures: i.consecutive_failures,
            last_error: i.last_error.clone(),
            since_caught_up: i.caught_up_at.map(|t| t.elapsed()),
            paths: i.paths.clone(),
            retries: i.retries,
            refused_pages: i.refused_pages,
            diverged: i.diverged.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lag_is_what_the_upstream_has_beyond_our_index() {
        let s = FollowStatus::new();
        assert_eq!(s.snapshot().behind(), 0);
        assert!(!s.snapshot().upstream_up);
        s.set_upstream(IndexPath::XTx, 100);
        s.set_local(IndexPath::XTx, 40);
        s.set_upstream(IndexPath::XBlock, 10);
        s.set_local(IndexPath::XBlock, 10);
        assert_eq!(s.snapshot().behind(), 60);
        s.set_local(IndexPath::XTx, 120);
        assert_eq!(
            s.snapshot().behind(),
            0,
            "we never count a stale head as lag"
        );
        s.failed("connection refused");
        let snap = s.snapshot();
        assert!(!snap.upstream_up);
        assert_eq!(snap.consecutive_failures, 1);
        assert_eq!(snap.last_error.as_deref(), Some("connection refused"));
        s.caught_up();
        let snap = s.snapshot();
        assert!(snap.upstream_up && snap.last_error.is_none() && snap.since_caught_up.is_some());
        assert_eq!(snap.consecutive_failures, 0);
        s.remove_path(IndexPath::XBlock);
        assert_eq!(s.snapshot().paths.len(), 1);
    }

    #[test]
    fn readiness_names_the_lag_while_anything_is_wrong() {
        let s = FollowStatus::new();
        assert_eq!(
            s.snapshot().problem(10).as_deref(),
            Some("upstream not reached yet")
        );
        s.set_local(IndexPath::XTx, 40);
        s.set_upstream(IndexPath::XTx, 100);
        assert_eq!(
            s.snapshot().problem(10).as_deref(),
            Some("catching up: 60 containers behind")
        );
        s.caught_up();
        assert_eq!(s.snapshot().problem(10), None);
        // Caught up once, then behind by more than the tolerance: not ready.
        s.set_upstream(IndexPath::XTx, 51);
        assert_eq!(
            s.snapshot().problem(10).as_deref(),
            Some("behind the upstream: 11 containers behind")
        );
        s.set_upstream(IndexPath::XTx, 50);
        assert_eq!(s.snapshot().problem(10), None);
        // One failed attempt is enough to say so, with the lag; a success clears it.
        s.set_upstream(IndexPath::XTx, 45 + 40);
        s.call_failed("http status 500", true);
        let snap = s.snapshot();
        assert_eq!(snap.retries, 1);
        assert_eq!(
            snap.problem(10).as_deref(),
            Some("upstream unavailable (45 containers behind): http status 500")
        );
        s.call_succeeded();
        s.page_refused("bad checksum");
        let snap = s.snapshot();
        assert_eq!((snap.retries, snap.refused_pages), (1, 1));
        assert_eq!(
            snap.problem(10).as_deref(),
            Some("upstream unavailable (45 containers behind): refused a page: bad checksum")
        );
        // Divergence comes first, and is reported once per change.
        assert!(s.set_diverged(Some("X/tx: fewer".into())));
        assert!(!s.set_diverged(Some("X/tx: fewer".into())));
        assert_eq!(
            s.snapshot().problem(10).as_deref(),
            Some("upstream diverged, not following: X/tx: fewer")
        );
        assert!(s.set_diverged(None));
        s.call_succeeded();
        assert_eq!(
            s.snapshot().problem(10).as_deref(),
            Some("behind the upstream: 45 containers behind")
        );
    }
}
