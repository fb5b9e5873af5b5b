//! The index does not depend on how the upstream's containers arrive. A follower syncs the X-,
//! P- and C-Chain one after the other in each round, so an upstream that grows while it is
//! followed interleaves the chains differently from one that holds everything at the start
//! (an import on X before the export on P that it spends, a P block before the X txs it
//! follows). Every such run ends with the bytes of a run that saw the whole history at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{DataApi, digest, digest_difference, start, upstream};

fn follow(dir: &std::path::Path, url: &str, batch: &str) -> DataApi {
    start(
        dir,
        &[
            "--upstream",
            url,
            "--genesis",
            "devnet",
            "--devnet-seed",
            "13",
            "--follow-batch",
            batch,
            "--poll-ms",
            "20",
            // The followed node's uptimes are observations, not chain data: none here.
            "--uptime-poll-s",
            "0",
            "--no-rate-limits",
            "--no-metering",
        ],
    )
}

/// Whether `api` has indexed all its upstream holds: ready and nothing behind, three times in
/// a row over half a second (the follower polls the upstream's head every 20 ms).
fn settled(api: &DataApi) -> bool {
    (0..3).all(|i| {
        if i > 0 {
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        api.get("/readyz").status == 200
            && api
                .get("/metrics")
                .body
                .lines()
                .any(|l| l == "snowline_ingest_behind_containers 0")
    })
}

#[test]
fn containers_arriving_in_rounds_give_the_index_of_one_pass() {
    // The reference: the whole history there before the follower starts. (Grown by one append,
    // as the others are: an upstream that starts partial serves no current validators.)
    let full = upstream::start_partial(13, 3_000, 120);
    let total = full.records.len();
    upstream::append(&full.store, &full.records[120..]);
    assert!(total > 150, "{total} containers");
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = follow(clean_dir.path(), &full.url, "256");
    assert!(
        clean.wait_until(300, settled),
        "{}",
        clean.get("/readyz").body
    );
    drop(clean);
    let want = digest(clean_dir.path());
    assert!(want.len() > 40, "{want:?}");

    // The upstream starts with the first `cut` containers (in acceptance order, every chain)
    // and grows twice while followed, in pages of `batch`.
    for (cut, batch) in [(40, "7"), (total / 3, "5"), (2 * total / 3, "3")] {
        let up = upstream::start_partial(13, 3_000, cut);
        let dir = tempfile::tempdir().unwrap();
        let api = follow(dir.path(), &up.url, batch);
        assert!(api.wait_until(300, settled), "{}", api.get("/readyz").body);
        let mid = cut + (total - cut) / 2;
        for part in [&up.records[cut..mid], &up.records[mid..]] {
            upstream::append(&up.store, part);
            assert!(api.wait_until(300, settled), "{}", api.get("/readyz").body);
        }
        drop(api);
        let got = digest(dir.path());
        assert!(
            got == want,
            "first {cut} containers, then two rounds, in pages of {batch}: the index differs \
             from one pass's{}",
            digest_difference(dir.path(), clean_dir.path())
        );
    }
}
