//! The scripted sequence of faults the binaries' tests run (`bins/*/tests/faults.rs`): one
//! definition, so `data-api` and `node-rpc` go through the same faults and the same checks.
//! Test support: a failed check panics with what was seen.

#![allow(clippy::panic)]

use std::time::{Duration, Instant};

use crate::{Fault, FaultProxy};

/// A following process as the script observes it.
pub trait Watched {
    /// `GET /readyz`: status and body.
    fn readyz(&self) -> (u16, String);
    /// `GET /metrics`: the exposition text.
    fn metrics(&self) -> String;
    /// Every line logged so far that contains `needle`.
    fn log_lines(&self, needle: &str) -> Vec<String>;
    /// Whether the process is still running.
    fn running(&mut self) -> bool;
}

/// The upstreams the proxy turns to: the whole chain, a node rewound to fewer containers than
/// the follower holds, and a node of another chain.
#[derive(Debug, Clone, Copy)]
pub struct Upstreams<'a> {
    /// The whole chain (`http://…`).
    pub full: &'a str,
    /// A prefix of the chain shorter than what the follower holds.
    pub fewer: &'a str,
    /// Another chain, at least as long as what the follower holds.
    pub other: &'a str,
}

/// How long the script waits for a state before failing (a bound, not a measurement).
const PATIENCE: Duration = Duration::from_secs(30);

/// Polls `f` every 50 ms until it holds or [`PATIENCE`] runs out.
pub fn wait_until(mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + PATIENCE;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The value of the metric line `name` (no labels) in `text`.
pub fn metric_in(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

fn metric(w: &impl Watched, name: &str) -> f64 {
    let text = w.metrics();
    metric_in(&text, name).unwrap_or_else(|| panic!("no {name} in /metrics:\n{text}"))
}

/// Waits until `/readyz` is 503 with every one of `words` in its body; returns the body.
fn unready_with(w: &mut impl Watched, words: &[&str]) -> String {
    let said = wait_until(|| {
        let (status, body) = w.readyz();
        status == 503 && words.iter().all(|x| body.contains(x))
    });
    let body = w.readyz().1;
    assert!(said, "/readyz never said {words:?}: {body}");
    assert!(w.running(), "the follower exited");
    eprintln!("/readyz: {}", body.trim_end());
    body
}

/// Waits until the metric `name` exceeds `above`; returns it.
fn counts(w: &impl Watched, name: &str, above: f64) -> f64 {
    assert!(
        wait_until(|| metric(w, name) > above),
        "{name} stayed at {above}"
    );
    metric(w, name)
}

/// Waits until the metric `name` is `value` (the binaries may refresh `/metrics` on a tick).
pub fn metric_becomes(w: &impl Watched, name: &str, value: f64) {
    assert!(
        wait_until(|| metric(w, name) == value),
        "{name} is {}, never {value}",
        metric(w, name)
    );
}

/// Runs every fault once. Precondition: the follower is caught up with a prefix of the chain
/// `lag` containers short of `up.full`, and the proxy forwards to that prefix. Turns the proxy
/// to the whole chain with a fault on, so the follower learns the lag and can fetch none of
/// it; then: a bad checksum, a bad id and a gap (each refused, logged with its reason,
/// counted), 500s and slow answers (retried, counted), a stop (refused connections), a restart
/// as a node with fewer containers, then as a node of another chain (diverged: nothing
/// written). Throughout, `/readyz` is 503 with the lag and the reason, and the lag stays the
/// same (nothing written). Leaves the proxy stopped-and-restarted, pointing at `up.other`,
/// with no fault on.
pub fn run_faults(proxy: &mut FaultProxy, w: &mut impl Watched, up: &Upstreams<'_>, lag: u64) {
    let behind = format!("({lag} containers behind)");
    let refused_before = metric(w, "snowline_ingest_refused_pages_total");
    proxy.set(Fault::BadChecksum);
    proxy.retarget(up.full);
    unready_with(w, &[&behind, "refused a page"]);
    metric_becomes(w, "snowline_ingest_behind_containers", lag as f64);
    let mut refused = counts(w, "snowline_ingest_refused_pages_total", refused_before);
    for (fault, reason) in [
        (Fault::BadChecksum, "invalid input checksum"),
        (Fault::BadId, "is not the id of its bytes"),
        (Fault::Gap, "expected container"),
    ] {
        proxy.set(fault);
        let body = unready_with(w, &[&behind, "refused a page", reason]);
        refused = counts(w, "snowline_ingest_refused_pages_total", refused);
        let line = w
            .log_lines("refused a page from the upstream")
            .into_iter()
            .find(|l| l.contains("reason") && l.contains(reason))
            .unwrap_or_else(|| panic!("{fault:?}: no log line with the reason; {body}"));
        eprintln!("log: {line}");
    }
    // Failures that are no answer at all: retried with backoff, shown with the lag.
    let mut retries = metric(w, "snowline_ingest_retries_total");
    for (fault, error) in [
        (Fault::Status500, "http status 500"),
        (Fault::Slow(Duration::from_secs(1)), "timed out"),
    ] {
        proxy.set(fault);
        unready_with(w, &[&behind, error]);
        retries = counts(w, "snowline_ingest_retries_total", retries);
    }
    // Stopped before the fault is cleared: no page slips through between the two.
    proxy.stop();
    proxy.set(Fault::None);
    unready_with(w, &[&behind, "transport error"]);
    counts(w, "snowline_ingest_retries_total", retries);
    metric_becomes(w, "snowline_ingest_behind_containers", lag as f64);
    // Restarted as a node rewound to fewer containers, then as a node of another chain: the
    // follower stops following and says why.
    proxy.retarget(up.fewer);
    if let Err(e) = proxy.restart() {
        panic!("restarting the proxy: {e}");
    }
    unready_with(w, &["diverged", "upstream has accepted"]);
    metric_becomes(w, "snowline_ingest_upstream_diverged", 1.0);
    proxy.retarget(up.other);
    unready_with(w, &["diverged", "container at index"]);
    assert!(
        !w.log_lines("diverged").is_empty(),
        "the divergence was not logged"
    );
}
