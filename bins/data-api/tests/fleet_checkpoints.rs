//! Checkpoints through the fleet's JetStream object store, with the real binaries and
//! `nats-server`: a primary ingesting the devnet publishes a checkpoint of its running index
//! every couple of seconds (`--checkpoint-every`) and the bucket keeps the newest two; a new
//! replica starts from the newest (`--bootstrap-from nats://...`) while the primary keeps
//! ingesting, reads the stream from the batch after it and ends with the primary's tables; so
//! does a node started from that running replica's own checkpoint; a replica told to start from
//! the bucket before it holds any checkpoint starts empty and applies the whole stream; a
//! stopped node publishes one with `checkpoint --to`; and a checkpoint whose file does not match
//! its manifest's SHA-256 is refused, with nothing of it left as an index.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::fleet::{metric, primary_settled};
use common::{DataApi, digest, start, upstream};
use snowline_fleet::{FleetConfig, Manifest};
use snowline_test_support::nats::NatsServer;

const SECRET: &str = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";

/// Flags every node here shares.
const COMMON: [&str; 4] = [
    "--no-rate-limits",
    "--no-metering",
    "--token-secret",
    SECRET,
];

fn primary(dir: &Path, up: &upstream::Upstream, nats: &str) -> DataApi {
    let mut args = vec![
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
        "--uptime-poll-s",
        "0",
        "--publish",
        nats,
        // A checkpoint every 1.8 s, the newest two kept.
        "--checkpoint-every",
        "0.0005",
    ];
    args.extend_from_slice(&COMMON);
    start(dir, &args)
}

fn config(url: &str) -> FleetConfig {
    FleetConfig {
        url: url.to_owned(),
        stream: "snowline".to_owned(),
        replicas: 1,
        max_age: Duration::from_secs(3600),
    }
}

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// The complete checkpoints in the bucket, oldest first.
fn checkpoints(url: &str) -> Vec<Manifest> {
    block_on(snowline_fleet::list_checkpoints(&config(url))).unwrap()
}

/// Replaces the object of file `name` of checkpoint `m` with other bytes, as a damaged copy
/// would hold (the object store's own digest is that of the new bytes).
fn damage(url: &str, m: &Manifest, name: &str) {
    block_on(async {
        let client = common::nats_client::connect(url).await;
        let js = async_nats::jetstream::new(client);
        let bucket = js.get_object_store("snowline_checkpoints").await.unwrap();
        let object = format!("{}/files/{name}", m.prefix());
        bucket
            .put(object.as_str(), &mut &b"not the file"[..])
            .await
            .unwrap();
    });
}

/// Runs `data-api ARGS`, which must exit within a minute; returns (success, stderr).
fn run_to_exit(args: &[&str]) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("data-api {args:?} still runs after a minute");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_replica_starts_from_a_running_primarys_checkpoint_in_the_object_store() {
    let nats = NatsServer::start();
    let up = upstream::start_partial(13, 3_000, 200);
    let dirs: Vec<_> = (0..5).map(|_| tempfile::tempdir().unwrap()).collect();
    let (pdir, ndir, ddir) = (dirs[0].path(), dirs[1].path(), dirs[2].path());
    let (bad, edir) = (dirs[3].path(), dirs[4].path());
    // A replica of a new fleet, before any checkpoint exists: it starts empty and applies the
    // stream from its first batch.
    let mut early = vec!["--replica-of", &nats.url, "--bootstrap-from", &nats.url];
    early.extend_from_slice(&COMMON);
    let e = start(edir, &early);
    let p = primary(pdir, &up, &nats.url);
    assert!(
        p.wait_until(300, |p| primary_settled(p, 200)),
        "the primary never settled: {}",
        p.get("/readyz").body
    );
    let first = metric(&p, "snowline_fleet_position").unwrap() as u64;
    assert!(first > 10, "only {first} batches: the run proves little");

    // Checkpoints of the running primary: at least three published, the newest two kept, the
    // newest standing at the batch the primary had committed.
    assert!(
        p.wait_until(60, |p| p.stdout_lines("checkpoint at batch").len() >= 3
            && checkpoints(&nats.url)
                .last()
                .is_some_and(|m| m.seq == first)),
        "published: {:?}; in the bucket: {:?}",
        p.stdout_lines("checkpoint"),
        checkpoints(&nats.url)
    );
    let kept = checkpoints(&nats.url);
    assert_eq!(kept.len(), 2, "{kept:?}");
    let newest = kept.last().unwrap().clone();
    assert!(
        newest.files.iter().any(|f| f.name == "CURRENT"),
        "{newest:?}"
    );
    // Counted on /metrics: the published ones, none failed, the last one's batch.
    assert!(metric(&p, "snowline_fleet_checkpoints").is_some_and(|n| n >= 3.0));
    assert_eq!(metric(&p, "snowline_fleet_checkpoint_failures"), Some(0.0));
    assert_eq!(
        metric(&p, "snowline_fleet_checkpoint_batch"),
        Some(first as f64)
    );
    assert!(newest.files.iter().all(|f| f.sha256.len() == 64));

    // The primary ingests the rest while a new replica starts from the newest checkpoint.
    upstream::append(&up.store, &up.records[200..]);
    assert!(
        p.wait_until(120, |p| metric(p, "snowline_fleet_position")
            .is_some_and(|pos| pos > first as f64)),
        "the primary stayed at batch {first}"
    );
    // The new replica publishes checkpoints of its own too (it applies without the write-ahead
    // log: a checkpoint flushes first).
    let mut args = vec![
        "--replica-of",
        &nats.url,
        "--bootstrap-from",
        &nats.url,
        "--checkpoint-every",
        "0.0005",
    ];
    args.extend_from_slice(&COMMON);
    let n = start(ndir, &args);
    let held = up.records.len();
    assert!(
        p.wait_until(300, |p| primary_settled(p, held)),
        "the primary never settled on {held}: {}",
        p.get("/readyz").body
    );
    let last = metric(&p, "snowline_fleet_position").unwrap();
    assert!(
        n.wait_until(300, |n| metric(n, "snowline_fleet_position") == Some(last)),
        "the new replica stopped at {:?} of {last}: {}",
        metric(&n, "snowline_fleet_position"),
        n.get("/readyz").body
    );
    // It applied only the batches after the checkpoint it started from, one the primary had
    // published while ingesting.
    let applied = metric(&n, "snowline_fleet_batches").unwrap();
    let from = last - applied;
    assert!(
        from >= first as f64 && from < last,
        "started from batch {from} (applied {applied} of {last})"
    );
    assert!(!ndir.join("index.partial").exists());
    assert!(
        e.wait_until(120, |e| metric(e, "snowline_fleet_position") == Some(last)),
        "the early replica stopped at {:?} of {last}",
        metric(&e, "snowline_fleet_position")
    );
    assert_eq!(metric(&e, "snowline_fleet_batches"), Some(last));
    assert_eq!(e.terminate().code(), Some(0));
    assert_eq!(p.terminate().code(), Some(0));

    // The running replica's checkpoint at the last batch, the newest once the primary is gone:
    // a third node started from it applies nothing and holds the same tables.
    let published = format!("checkpoint at batch {last} published");
    let before = n.stdout_lines(&published).len();
    assert!(
        n.wait_until(60, |n| n.stdout_lines(&published).len() > before),
        "{:?}",
        n.stdout_lines("checkpoint")
    );
    let m = start(
        ddir,
        &args[..4].iter().chain(&COMMON).copied().collect::<Vec<_>>(),
    );
    assert!(
        m.wait_until(60, |m| m.get("/readyz").status == 200),
        "{}",
        m.get("/readyz").body
    );
    assert_eq!(metric(&m, "snowline_fleet_position"), Some(last));
    assert_eq!(metric(&m, "snowline_fleet_batches"), Some(0.0));
    assert_eq!(n.terminate().code(), Some(0));
    assert_eq!(m.terminate().code(), Some(0));
    let dp = digest(pdir);
    assert!(dp.len() > 40, "{dp:?}");
    assert_eq!(digest(ndir), dp, "the new replica's tables differ");
    assert_eq!(digest(edir), dp, "the early replica's tables differ");
    assert_eq!(digest(ddir), dp, "the replica's checkpoint differs");

    // A stopped node's checkpoint, published with `checkpoint --to`: the newest, at its last
    // batch, and the bucket still keeps two.
    let (ok, out, err) = common::run(&[
        "checkpoint",
        "--data-dir",
        ndir.to_str().unwrap(),
        "--to",
        &nats.url,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("at batch {last} published")), "{out}");
    let kept = checkpoints(&nats.url);
    assert_eq!(kept.len(), 2, "{kept:?}");
    let newest = kept.last().unwrap().clone();
    assert_eq!(newest.seq as f64, last);
    assert!(!ndir.join("checkpoint-publishing").exists());

    // A damaged file: refused with the checksums named, and no index is left behind.
    let file = newest
        .files
        .iter()
        .find(|f| f.name.ends_with(".sst"))
        .unwrap();
    damage(&nats.url, &newest, &file.name);
    let d = bad.to_str().unwrap();
    let (ok, err) = run_to_exit(&[
        "serve",
        "--data-dir",
        d,
        "--listen",
        "127.0.0.1:0",
        "--replica-of",
        &nats.url,
        "--bootstrap-from",
        &nats.url,
        "--no-metering",
    ]);
    assert!(!ok, "a damaged checkpoint was taken");
    assert!(
        err.contains(&format!("is damaged: its file {} has 12 bytes", file.name))
            && err.contains(&file.sha256),
        "{err}"
    );
    assert!(!bad.join("index").join("CURRENT").exists());
    assert!(!bad.join("index.partial").exists());
}
