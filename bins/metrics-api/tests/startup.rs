//! metrics-api started before data-api has created its index (the demo's start-up race): it
//! listens at once, `/readyz` and every endpoint answer 503 naming what it waits for, and once
//! the index is there it serves what a metrics-api started over the finished index serves.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use common::pchain::{index_devnet, start};

/// How long the waiting service may take to see the index (it retries with backoff, at most
/// 5 s apart).
const LIMIT: Duration = Duration::from_secs(120);

#[test]
fn waits_for_the_index_then_serves_it() {
    let dir = tempfile::tempdir().unwrap();
    let early = start(dir.path());

    let (status, body) = early.get("/readyz");
    assert_eq!(status, 503, "{body}");
    let reasons = body["reasons"].to_string();
    assert!(reasons.contains("waiting for the data-api index"), "{body}");
    let path = "/v2/networks/local/metrics/validatorCount";
    let (status, body) = early.get(path);
    assert_eq!(status, 503, "{body}");
    assert!(
        body["message"]
            .to_string()
            .contains("waiting for the data-api index"),
        "{body}"
    );

    // data-api creates its index and fills it.
    drop(index_devnet(dir.path()));
    let deadline = Instant::now() + LIMIT;
    while early.get("/readyz").0 != 200 {
        assert!(Instant::now() < deadline, "{:?}", early.get("/readyz"));
        std::thread::sleep(Duration::from_millis(100));
    }

    // The same answers as a metrics-api started over the finished index.
    let other = tempfile::tempdir().unwrap();
    let late = common::start_in(
        &dir.path().join("data-api"),
        other.path(),
        &[
            "--network",
            "local",
            "--catch-up-ms",
            "50",
            "--no-rate-limits",
        ],
    );
    let (status, want) = late.get(path);
    assert_eq!(status, 200, "{want}");
    assert!(!want["results"].as_array().unwrap().is_empty(), "{want}");
    loop {
        let (status, got) = early.get(path);
        if status == 200 && got == want {
            break;
        }
        assert!(Instant::now() < deadline, "{status} {got} != {want}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
