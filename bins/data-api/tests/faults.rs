//! Upstream faults: `data-api` follows a devnet through a fault-injecting proxy
//! (`snowline-fault-upstream`) that, while the follower is behind, answers pages with a bad
//! checksum, a wrong id and a gap, answers 500s, answers too slowly, stops, restarts, and is
//! replaced by nodes holding fewer and other containers (the script:
//! `snowline_fault_upstream::script::run_faults`). Throughout, the process stays up, `/readyz`
//! is 503 with the lag and the reason, `/metrics` shows the lag and counts retries and
//! refusals, each refused page is logged with its reason, nothing is written; once the faults
//! clear the index catches up and every table equals a clean run's (`data-api digest`).
//!
//! Timing only decides how long to wait for an observable state; no duration is asserted.
//! `SNOWLINE_FAULT_ROUNDS` (default 1; `cargo xtask harden faults` asks for more) repeats the
//! sequence at later points of the chain.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{DataApi, digest, start, upstream};
use snowline_fault_upstream::FaultProxy;
use snowline_fault_upstream::script::{Upstreams, Watched, metric_becomes, run_faults};

const SEED: u64 = 13;
/// Devnet size per round: about 170 containers, so each round leaves dozens to fetch in pages
/// of 7.
const TXS_PER_ROUND: u64 = 1500;

fn rounds() -> usize {
    std::env::var("SNOWLINE_FAULT_ROUNDS")
        .ok()
        .and_then(|k| k.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

/// `data-api serve` following `url` in pages of 7, with a short call timeout and short retry
/// pauses so a fault shows within a fraction of a second.
fn following(dir: &std::path::Path, url: &str) -> DataApi {
    let seed = SEED.to_string();
    start(
        dir,
        &[
            "--upstream",
            url,
            "--genesis",
            "devnet",
            "--devnet-seed",
            &seed,
            "--follow-batch",
            "7",
            "--poll-ms",
            "20",
            "--upstream-timeout-ms",
            "300",
            "--retry-max-ms",
            "40",
            "--no-rate-limits",
        ],
    )
}

impl Watched for DataApi {
    fn readyz(&self) -> (u16, String) {
        let r = self.get("/readyz");
        (r.status, r.body)
    }

    fn metrics(&self) -> String {
        self.get("/metrics").body
    }

    fn log_lines(&self, needle: &str) -> Vec<String> {
        self.stderr_lines(needle)
    }

    fn running(&mut self) -> bool {
        DataApi::running(self)
    }
}

/// Ready, with nothing left to fetch.
fn caught_up(api: &DataApi) -> bool {
    api.readyz().0 == 200 && {
        let m = api.metrics();
        snowline_fault_upstream::script::metric_in(&m, "snowline_ingest_behind_containers")
            == Some(0.0)
    }
}

#[test]
fn upstream_faults_lose_and_double_nothing() {
    let rounds = rounds();
    let txs = TXS_PER_ROUND * rounds as u64;
    let full = upstream::start(SEED, txs);
    let total = full.records.len();
    assert!(total > 60 * (rounds + 1), "{total} containers");

    // The clean run.
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = following(clean_dir.path(), &full.url);
    assert!(clean.wait_until(120, caught_up), "{}", clean.readyz().1);
    drop(clean);

    // A prefix of the chain (grown each round), a node rewound to fewer containers than the
    // follower holds, and a node of another chain (longer, so it differs at a held index
    // rather than by its length).
    let first = total / (rounds + 1);
    let prefix = upstream::start_partial(SEED, txs, first);
    let fewer = upstream::start_partial(SEED, txs, first / 2);
    let other = upstream::start(SEED + 1, 2 * txs);
    let ups = Upstreams {
        full: &full.url,
        fewer: &fewer.url,
        other: &other.url,
    };

    let mut proxy = FaultProxy::start(&prefix.url).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut api = following(dir.path(), &proxy.url());
    let mut held = first;
    for round in 0..rounds {
        let k = total * (round + 1) / (rounds + 1);
        upstream::append(&prefix.store, &full.records[held..k]);
        held = k;
        proxy.retarget(&prefix.url);
        assert!(api.wait_until(60, caught_up), "{}", api.readyz().1);
        run_faults(&mut proxy, &mut api, &ups, (total - k) as u64);
    }

    // Faults cleared: the whole chain, caught up.
    proxy.retarget(&full.url);
    assert!(api.wait_until(120, caught_up), "{}", api.readyz().1);
    metric_becomes(&api, "snowline_ingest_upstream_diverged", 0.0);
    assert!(api.running());
    drop(api);
    let (clean, faulted) = (digest(clean_dir.path()), digest(dir.path()));
    assert!(clean.len() > 40, "{clean:?}");
    assert_eq!(faulted, clean, "the index differs from a clean run's");
    println!(
        "{rounds} round(s) of faults; {} answers faulted of {} requests; every table identical \
         to a clean run's",
        proxy.faulted(),
        proxy.requests()
    );
}
