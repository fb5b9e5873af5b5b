//! Upstream faults: `node-rpc follow` mirrors the devnet through a fault-injecting proxy
//! (`snowline-fault-upstream`) that, while the follower is behind, answers pages with a bad
//! checksum, a wrong id and a gap, answers 500s, answers too slowly, stops, restarts, and is
//! replaced by nodes holding fewer and other containers (the script:
//! `snowline_fault_upstream::script::run_faults`). Throughout, the process stays up, `/readyz`
//! is 503 with the lag and the reason, `/metrics` shows the lag and counts retries and
//! refusals, each refused page is logged with its reason, nothing is written; once the faults
//! clear the index catches up and every table equals a clean run's (`node-rpc digest`).
//!
//! The upstreams are `node-rpc serve` processes: the devnet (the small preset, seed 1), a
//! prefix of it imported from `fixtures/devnet/containers.jsonl` (the same devnet, regenerated
//! and compared by `crates/devnet/tests/fixtures.rs`), a shorter prefix, and the devnet of
//! seed 2. `SNOWLINE_FAULT_ROUNDS` (default 1) repeats the sequence at later points.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::{NodeRpc, digest, dir_arg, repo_root, run, start};
use snowline_fault_upstream::FaultProxy;
use snowline_fault_upstream::script::{Upstreams, Watched, metric_becomes, metric_in, run_faults};

fn rounds() -> usize {
    std::env::var("SNOWLINE_FAULT_ROUNDS")
        .ok()
        .and_then(|k| k.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

impl Watched for NodeRpc {
    fn readyz(&self) -> (u16, String) {
        self.get("/readyz")
    }

    fn metrics(&self) -> String {
        self.get("/metrics").1
    }

    fn log_lines(&self, needle: &str) -> Vec<String> {
        self.stderr_lines(needle)
    }

    fn running(&mut self) -> bool {
        NodeRpc::running(self)
    }
}

/// `node-rpc follow` of `url` in pages of 7, with a short call timeout and short retry pauses.
fn following(dir: &Path, url: &str) -> NodeRpc {
    start(&[
        "follow",
        "--upstream",
        url,
        "--genesis",
        "devnet",
        "--follow-batch",
        "7",
        "--poll-ms",
        "20",
        "--upstream-timeout-ms",
        "300",
        "--retry-max-ms",
        "40",
        "--data-dir",
        dir_arg(dir),
    ])
}

/// Ready, with nothing left to fetch.
fn caught_up(node: &NodeRpc) -> bool {
    node.readyz().0 == 200
        && metric_in(&node.metrics(), "snowline_ingest_behind_containers") == Some(0.0)
}

/// Imports `lines` (container JSON lines) into the index in `dir`.
fn import(dir: &Path, lines: &[&str]) {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), lines.join("\n") + "\n").unwrap();
    run(&[
        "import",
        file.path().to_str().unwrap(),
        "--data-dir",
        dir_arg(dir),
    ]);
}

/// `node-rpc serve` of what `dir` holds.
fn serve_dir(dir: &Path) -> NodeRpc {
    start(&["serve", "--source", "none", "--data-dir", dir_arg(dir)])
}

fn url(node: &NodeRpc) -> String {
    format!("http://{}", node.addr)
}

#[test]
fn upstream_faults_lose_and_double_nothing() {
    let text = std::fs::read_to_string(repo_root().join("fixtures/devnet/containers.jsonl"))
        .expect("fixture");
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len();
    let rounds = rounds();
    assert!(total > 30 * (rounds + 1), "{total} containers");

    let dirs: Vec<_> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let full = start(&["serve", "--data-dir", dir_arg(dirs[0].path())]);
    let other = start(&[
        "serve",
        "--devnet-seed",
        "2",
        "--data-dir",
        dir_arg(dirs[1].path()),
    ]);
    let first = total / (rounds + 1);
    import(dirs[2].path(), &lines[..first / 2]);
    let fewer = serve_dir(dirs[2].path());
    let (full_url, fewer_url, other_url) = (url(&full), url(&fewer), url(&other));
    let ups = Upstreams {
        full: &full_url,
        fewer: &fewer_url,
        other: &other_url,
    };

    // The clean run.
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = following(clean_dir.path(), &full_url);
    assert!(clean.wait_until(120, caught_up), "{}", clean.readyz().1);
    // The store's memory is shown next to the follower's metrics: what it indexed sits in
    // memtables, which the flush before stopping has not emptied yet.
    let m = clean.metrics();
    assert!(
        metric_in(&m, "snowline_store_memtable_bytes").is_some_and(|b| b > 0.0),
        "{m}"
    );
    assert!(
        metric_in(&m, "snowline_store_block_cache_bytes").is_some(),
        "{m}"
    );
    drop(clean);

    let mut proxy = FaultProxy::start(&full_url).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut node: Option<NodeRpc> = None;
    let mut held = 0;
    for round in 0..rounds {
        // The prefix node grows by a stop, an import and a restart (its store is locked while
        // it serves); the follower is started once the proxy points at it.
        let k = total * (round + 1) / (rounds + 1);
        import(dirs[3].path(), &lines[held..k]);
        held = k;
        let prefix = serve_dir(dirs[3].path());
        proxy.retarget(&url(&prefix));
        let follower = node.get_or_insert_with(|| following(dir.path(), &proxy.url()));
        assert!(
            follower.wait_until(60, caught_up),
            "{}",
            follower.readyz().1
        );
        run_faults(&mut proxy, follower, &ups, (total - k) as u64);
    }

    // Faults cleared: the whole chain, caught up.
    let mut node = node.unwrap();
    proxy.retarget(&full_url);
    assert!(node.wait_until(120, caught_up), "{}", node.readyz().1);
    metric_becomes(&node, "snowline_ingest_upstream_diverged", 0.0);
    assert!(node.running());
    drop(node);
    let (clean, faulted) = (digest(clean_dir.path()), digest(dir.path()));
    assert!(clean.len() > 5, "{clean:?}");
    assert_eq!(faulted, clean, "the index differs from a clean run's");
    println!(
        "{rounds} round(s) of faults; {} answers faulted of {} requests; every table identical \
         to a clean run's",
        proxy.faulted(),
        proxy.requests()
    );
}
