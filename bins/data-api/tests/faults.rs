//! Upstream faults: `data-api` follows a devnet through a fault-injecting proxy
//! (`snowline-fault-upstream`) that, while the follower is behind, answers pages with a bad
//! checksum, a wrong id and a gap, answers 500s, answers too slowly, stops, restarts, and is
//! replaced by nodes holding fewer and other containers. Throughout, the process stays up,
//! `/readyz` is 503 with the lag and the reason, `/metrics` shows the lag and counts retries and
//! refusals, each refused page is logged with its reason, nothing is written; once the faults
//! clear the index catches up and every table equals a clean run's (`data-api digest`).
//!
//! Timing only decides how long to wait for an observable state; no duration is asserted.
//! `SNOWLINE_FAULT_ROUNDS` (default 1; `cargo xtask harden faults` asks for more) repeats the
//! sequence at later points of the chain.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::Duration;

use common::{DataApi, start, upstream};
use snowline_fault_upstream::{Fault, FaultProxy};

const SEED: u64 = 13;
/// Devnet size: several hundred containers, so each round leaves a few hundred to fetch in
/// pages of 7.
const TXS: u64 = 3000;

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

fn ready(api: &DataApi) -> bool {
    api.get("/readyz").status == 200
}

/// The value of the metric line `name` on `/metrics`.
fn metric(api: &DataApi, name: &str) -> f64 {
    let body = api.get("/metrics").body;
    body.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics:\n{body}"))
}

/// Waits until `/readyz` is 503 with a reason containing every one of `words`; returns it.
fn unready_with(api: &mut DataApi, words: &[&str]) -> String {
    let said = api.wait_until(30, |a| {
        let r = a.get("/readyz");
        r.status == 503 && words.iter().all(|w| r.body.contains(w))
    });
    let body = api.get("/readyz").body;
    assert!(said, "/readyz never said {words:?}: {body}");
    assert!(api.running(), "data-api exited");
    eprintln!("/readyz: {body}");
    body
}

/// Waits until `metric` exceeds `above`.
fn counts(api: &DataApi, name: &str, above: f64) -> f64 {
    assert!(
        api.wait_until(30, |a| metric(a, name) > above),
        "{name} stayed at {above}"
    );
    metric(api, name)
}

#[test]
fn upstream_faults_lose_and_double_nothing() {
    let full = upstream::start(SEED, TXS);
    let total = full.records.len();
    let rounds = rounds();
    assert!(total > 100 * (rounds + 1), "{total} containers");

    // The clean run.
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = following(clean_dir.path(), &full.url);
    assert!(
        clean.wait_until(120, ready),
        "{}",
        clean.get("/readyz").body
    );
    drop(clean);

    // A prefix of the chain (grown each round), a node that has fewer containers than the
    // follower will hold (rewound), and a node of another chain.
    let first = total / (rounds + 1);
    let prefix = upstream::start_partial(SEED, TXS, first);
    let fewer = upstream::start_partial(SEED, TXS, first / 2);
    let other = upstream::start(SEED + 1, TXS);

    let mut proxy = FaultProxy::start(&prefix.url).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut api = following(dir.path(), &proxy.url());
    let mut held = 0;
    for round in 0..rounds {
        let k = total * (round + 1) / (rounds + 1);
        upstream::append(&prefix.store, &full.records[held..k]);
        held = k;
        // Caught up with the prefix; then the proxy turns to the whole chain with a corrupt
        // page first, so the follower learns the lag and can fetch none of it.
        proxy.retarget(&prefix.url);
        assert!(api.wait_until(60, |a| ready(a)
            && metric(a, "snowline_ingest_behind_containers") == 0.0));
        let lag = (total - k).to_string();
        let refused = metric(&api, "snowline_ingest_refused_pages_total");
        proxy.set(Fault::BadChecksum);
        proxy.retarget(&full.url);
        unready_with(
            &mut api,
            &[&format!("({lag} containers behind)"), "refused a page"],
        );
        // `/metrics` is refreshed every second: wait for the lag to show there.
        let behind = (total - k) as f64;
        assert!(
            api.wait_until(30, |a| metric(a, "snowline_ingest_behind_containers")
                == behind),
            "the lag never showed in /metrics: {}",
            metric(&api, "snowline_ingest_behind_containers")
        );
        let mut refused = counts(&api, "snowline_ingest_refused_pages_total", refused);
        for (fault, words) in [
            (Fault::BadChecksum, "invalid input checksum"),
            (Fault::BadId, "is not the id of its bytes"),
            (Fault::Gap, "expected container"),
        ] {
            proxy.set(fault);
            let body = unready_with(&mut api, &[&lag, "refused a page", words]);
            refused = counts(&api, "snowline_ingest_refused_pages_total", refused);
            let line = api
                .stderr_lines("refused a page from the upstream")
                .into_iter()
                .find(|l| l.contains("reason") && l.contains(words))
                .unwrap_or_else(|| panic!("{fault:?}: no log line with the reason; {body}"));
            eprintln!("log: {line}");
        }
        // Failures that are no answer at all: retried with backoff, shown with the lag.
        let mut retries = metric(&api, "snowline_ingest_retries_total");
        for (fault, words) in [
            (Fault::Status500, "http status 500"),
            (Fault::Slow(Duration::from_secs(1)), "timed out"),
        ] {
            proxy.set(fault);
            unready_with(&mut api, &[&lag, words]);
            retries = counts(&api, "snowline_ingest_retries_total", retries);
        }
        proxy.set(Fault::None);
        proxy.stop();
        unready_with(&mut api, &[&lag, "transport error"]);
        retries = counts(&api, "snowline_ingest_retries_total", retries);
        // Restarted as a node rewound to fewer containers, then as a node of another chain:
        // the follower stops following and says why, and writes nothing.
        proxy.retarget(&fewer.url);
        proxy.restart().unwrap();
        unready_with(&mut api, &["diverged", "upstream has accepted"]);
        assert!(
            api.wait_until(30, |a| metric(a, "snowline_ingest_upstream_diverged")
                == 1.0)
        );
        proxy.retarget(&other.url);
        unready_with(&mut api, &["diverged", "container at index"]);
        assert!(api.stderr_line("diverged").is_some());
        assert!(metric(&api, "snowline_ingest_retries_total") >= retries);
    }

    // Faults cleared: the whole chain, caught up.
    proxy.retarget(&full.url);
    assert!(
        api.wait_until(120, |a| ready(a)
            && metric(a, "snowline_ingest_behind_containers") == 0.0),
        "{}",
        api.get("/readyz").body
    );
    assert!(
        api.wait_until(30, |a| metric(a, "snowline_ingest_upstream_diverged")
            == 0.0)
    );
    assert!(api.running());
    drop(api);
    let (clean, faulted) = (digest(clean_dir.path()), digest(dir.path()));
    assert!(clean.len() > 40, "{clean:?}");
    assert_eq!(faulted, clean, "the index differs from a clean run's");
    println!(
        "{rounds} round(s) of faults; {} answers faulted; every table identical to a clean run's",
        proxy.faulted()
    );
}

/// `data-api digest` of `dir`: each table's line, the usage log left out.
fn digest(dir: &std::path::Path) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(["digest", "--data-dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("access_usage"))
        .map(str::to_owned)
        .collect()
}
