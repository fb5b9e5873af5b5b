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

/// Whether `api` is ready and has indexed the `held` containers its upstream holds. (Its own
/// "nothing behind" counts from the upstream's head as last asked: right after an append it
/// still reads 0.)
fn settled(api: &DataApi, held: usize) -> bool {
    api.get("/readyz").status == 200
        && api
            .get("/metrics")
            .body
            .lines()
            .any(|l| l == format!("snowline_ingest_indexed_containers {held}"))
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
        clean.wait_until(300, |a| settled(a, total)),
        "{}",
        clean.get("/readyz").body
    );
    assert!(clean.terminate().success());
    let want = digest(clean_dir.path());
    assert!(want.len() > 40, "{want:?}");

    // The upstream starts with the first `cut` containers (in acceptance order, every chain)
    // and grows twice while followed, in pages of `batch`.
    for (cut, batch) in [(40, "7"), (total / 3, "5"), (2 * total / 3, "3")] {
        let up = upstream::start_partial(13, 3_000, cut);
        let dir = tempfile::tempdir().unwrap();
        let api = follow(dir.path(), &up.url, batch);
        assert!(
            api.wait_until(300, |a| settled(a, cut)),
            "{}",
            api.get("/readyz").body
        );
        let mid = cut + (total - cut) / 2;
        for (from, end) in [(cut, mid), (mid, total)] {
            upstream::append(&up.store, &up.records[from..end]);
            assert!(
                api.wait_until(300, |a| settled(a, end)),
                "{}",
                api.get("/readyz").body
            );
        }
        // Stopped, not killed: a round that started far behind writes without the WAL and
        // flushes at its end, and a kill before that end loses it (the cursor with it).
        assert!(api.terminate().success());
        let got = digest(dir.path());
        assert!(
            got == want,
            "first {cut} containers, then two rounds, in pages of {batch}: the index differs \
             from one pass's{}",
            digest_difference(dir.path(), clean_dir.path())
        );
    }
}
