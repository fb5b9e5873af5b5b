//! Crash safety of ingestion: `data-api` killed with SIGKILL at several points while it follows
//! an upstream (X- and P-Chain), restarted each time, ends with exactly what a clean run shows
//! through the API.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{DataApi, digest, start, upstream};

fn args(up: &upstream::Upstream) -> Vec<String> {
    [
        "--upstream",
        &up.url,
        "--genesis",
        "devnet",
        "--devnet-seed",
        "13",
        "--follow-batch",
        "7",
        "--poll-ms",
        "20",
        "--no-rate-limits",
    ]
    .map(str::to_owned)
    .to_vec()
}

fn start_following(dir: &std::path::Path, up: &upstream::Upstream) -> DataApi {
    let a = args(up);
    start(dir, &a.iter().map(String::as_str).collect::<Vec<_>>())
}

fn caught_up(api: &DataApi) -> bool {
    api.get("/readyz").status == 200
}

#[test]
fn killed_while_following_then_restarted_equals_a_clean_run() {
    let up = upstream::start(13, 3_000);
    assert!(up.records.len() > 150, "{} containers", up.records.len());

    // The clean run.
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = start_following(clean_dir.path(), &up);
    assert!(
        clean.wait_until(300, caught_up),
        "{}",
        clean.get("/readyz").body
    );
    let want = common::view(&clean, &up.addrs);
    drop(clean);
    let utxos: usize = want
        .iter()
        .filter_map(|(_, v)| v.get("utxos"))
        .map(|u| u.as_array().unwrap().len())
        .sum();
    assert!(
        utxos > 500,
        "only {utxos} UTXOs: the comparison would prove little"
    );
    // The P-Chain's part of the view holds UTXOs, stakes running, proposers and L1 validators
    // (this devnet's 20 P blocks end before any stake does: rewards paid are compared, not
    // required).
    let count = |path: &str, member: &str| -> usize {
        want.iter()
            .filter(|(q, _)| q.contains(path))
            .filter_map(|(_, v)| v.get(member))
            .map(|a| a.as_array().unwrap().len())
            .sum()
    };
    for (path, member) in [
        ("p-chain/utxos", "utxos"),
        ("/rewards:listPending", "pendingRewards"),
        ("/nodes/", "blocks"),
        ("/l1Validators", "validators"),
    ] {
        assert!(
            count(path, member) > 0,
            "no {member} from {path} in the view"
        );
    }

    // Killed mid-ingest three times (`SNOWLINE_CRASH_KILLS` times under `cargo xtask harden`),
    // each once it reports being behind, after a varying extra pause, restarted each time, then
    // left to finish.
    let wanted_kills: u64 = std::env::var("SNOWLINE_CRASH_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(3);
    let dir = tempfile::tempdir().unwrap();
    let mut kills = 0;
    for attempt in 0..wanted_kills * 4 {
        let api = start_following(dir.path(), &up);
        let behind = api.wait_until(60, |a| {
            let r = a.get("/readyz");
            r.status == 200 || r.body.contains("behind")
        });
        assert!(behind, "{}", api.get("/readyz").body);
        std::thread::sleep(std::time::Duration::from_millis(attempt * 37 % 120));
        let still_behind = api.get("/readyz").status == 503;
        drop(api); // SIGKILL
        if still_behind {
            kills += 1;
            if kills == wanted_kills {
                break;
            }
        }
    }
    assert!(
        kills >= 1,
        "no kill landed while ingesting; the test proved nothing"
    );
    let api = start_following(dir.path(), &up);
    assert!(
        api.wait_until(300, caught_up),
        "{}",
        api.get("/readyz").body
    );
    let got = common::view(&api, &up.addrs);
    assert_eq!(got.len(), want.len());
    for ((q, w), (_, g)) in want.iter().zip(&got) {
        assert_eq!(g, w, "{q} differs after the kills");
    }
    drop(api);
    // Every table, byte for byte (all but the usage log, which records this test's own
    // requests), each block read with its checksum verified.
    let (clean, killed) = (digest(clean_dir.path()), digest(dir.path()));
    assert!(clean.len() > 40, "{clean:?}");
    assert_eq!(
        killed,
        clean,
        "the index differs from a clean run's after {kills} kills{}",
        common::digest_difference(dir.path(), clean_dir.path())
    );
    println!("{kills} kills; every table identical to a clean run's");
}
