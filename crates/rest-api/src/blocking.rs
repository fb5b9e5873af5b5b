//! The threads blocking handlers run on: a fixed set, fed from one queue. The reads they do are
//! CPU-bound, so the set is small (the router sizes it from the cores); fixed threads keep their
//! caches (RocksDB's per-thread state, the allocator's) warm from one request to the next, and
//! a request waiting for a thread holds none. (tokio's `spawn_blocking` behind a semaphore cost
//! 25-35% of the heavy pages' throughput in paired runs: thread churn and colder caches.)

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use crate::error::ApiError;
use crate::reply::Reply;
use crate::request::Request;

type Job = Box<dyn FnOnce() + Send>;

/// A queue of blocking jobs and the threads that run them; they stop once it is dropped.
#[derive(Clone)]
pub(crate) struct ReadPool {
    jobs: Sender<Job>,
}

impl ReadPool {
    /// A pool of `threads` threads (at least one).
    pub(crate) fn new(threads: usize) -> Self {
        let (jobs, queue) = channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("rest-read-{i}"))
                .spawn(move || work(&queue));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a blocking handler thread");
            }
        }
        Self { jobs }
    }

    /// Runs `f(req)` on one of the pool's threads and waits for its answer without blocking.
    pub(crate) async fn run<F>(&self, f: Arc<F>, req: Request) -> Result<Reply, ApiError>
    where
        F: Fn(&Request) -> Result<Reply, ApiError> + Send + Sync + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The caller may have gone (a timeout): its answer is then dropped.
            let _ = tx.send(f(&req));
        });
        if self.jobs.send(job).is_err() {
            return Err(ApiError::internal(
                "the blocking handler threads have stopped",
            ));
        }
        rx.await.unwrap_or_else(|_| {
            Err(ApiError::internal(
                "a blocking handler panicked or its thread stopped",
            ))
        })
    }
}

/// One thread's loop: take the next job, run it, until the queue is closed.
fn work(queue: &Mutex<Receiver<Job>>) {
    loop {
        let job = match queue.lock() {
            Ok(q) => q.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else {
            return;
        };
        // A panicking handler must not take the thread with it.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            tracing::error!("a blocking handler panicked");
        }
    }
}
