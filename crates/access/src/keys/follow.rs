//! [`CatchUp`]: a background thread that keeps a secondary [`ApiKeys`] up to date.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::Duration;

use super::api::ApiKeys;
use crate::error::{AccessError, Result};

/// Calls [`ApiKeys::catch_up`] every period until dropped, so a server sees the CLI's key changes
/// within about one period. Failures are counted, not fatal: the next round retries.
#[derive(Debug)]
pub struct CatchUp {
    stop: Option<SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
    rounds: Arc<AtomicU64>,
    failures: Arc<AtomicU64>,
}

impl CatchUp {
    /// Starts following: `keys` must be a secondary ([`ApiKeys::open_secondary`]).
    pub fn start(keys: Arc<ApiKeys>, every: Duration) -> Result<Self> {
        let (stop, stopped) = mpsc::sync_channel::<()>(1);
        let rounds = Arc::new(AtomicU64::new(0));
        let failures = Arc::new(AtomicU64::new(0));
        let (r, f) = (Arc::clone(&rounds), Arc::clone(&failures));
        let thread = std::thread::Builder::new()
            .name("keys-catch-up".to_owned())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if keys.catch_up().is_err() {
                        f.fetch_add(1, Ordering::Relaxed);
                    }
                    r.fetch_add(1, Ordering::Relaxed);
                }
            })
            .map_err(|e| AccessError::Thread(e.to_string()))?;
        Ok(Self {
            stop: Some(stop),
            thread: Some(thread),
            rounds,
            failures,
        })
    }

    /// Catch-ups attempted so far.
    pub fn rounds(&self) -> u64 {
        self.rounds.load(Ordering::Relaxed)
    }

    /// Catch-ups that failed.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }
}

impl Drop for CatchUp {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread (disconnected) without waiting a period.
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
