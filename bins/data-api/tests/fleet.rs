//! The fleet over NATS JetStream, with the real binaries: a primary following the devnet
//! publishes every batch it commits (`--publish`), replicas apply them (`--replica-of`) and
//! serve the same answers; once caught up every table of a replica (`data-api digest`) equals
//! the primary's and a standalone run's. On a three-node NATS cluster with the stream kept
//! three times, the primary, a replica and a NATS node are killed with SIGKILL while blocks
//! arrive and restarted: no batch is skipped or applied twice (a replica refuses anything but
//! the next batch, and the digests compare every byte).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::sync::RwLock;

use async_nats::header::NATS_MESSAGE_ID;
use common::fleet::{metric, primary_settled};
use common::{DataApi, digest, start, upstream};
use snowline_test_support::nats::{NatsCluster, NatsServer};

/// One secret for every node, so page tokens (and so whole answers) are the same bytes.
/// The test that stops and restarts NATS nodes runs alone. While one of its nodes is down,
/// another test's `nats-server` (whose port was picked free) or `data-api` (on port 0) may take
/// that node's port; the node's clients then reach the other test's server and the two fleets'
/// batches mix in one stream. The other tests share the lock.
static NATS_RESTARTS: RwLock<()> = RwLock::new(());

const SECRET: &str = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";

fn primary(dir: &Path, up: &upstream::Upstream, nats: &str, extra: &[&str]) -> DataApi {
    primary_cut(dir, up, nats, "7", extra)
}

/// A primary asking its upstream for `batch` containers at a time (so cutting its batches
/// where it does).
fn primary_cut(
    dir: &Path,
    up: &upstream::Upstream,
    nats: &str,
    batch: &str,
    extra: &[&str],
) -> DataApi {
    let mut args = vec![
        "--upstream",
        &up.url,
        "--genesis",
        "devnet",
        "--devnet-seed",
        "13",
        "--follow-batch",
        batch,
        "--poll-ms",
        "20",
        // Each poll is a batch of its own: off, so a batch count the test reads stays put.
        "--uptime-poll-s",
        "0",
        "--no-rate-limits",
        "--no-metering",
        "--token-secret",
        SECRET,
        "--publish",
        nats,
    ];
    args.extend_from_slice(extra);
    start(dir, &args)
}

fn replica(dir: &Path, nats: &str) -> DataApi {
    start(
        dir,
        &[
            "--replica-of",
            nats,
            "--no-rate-limits",
            "--no-metering",
            "--token-secret",
            SECRET,
        ],
    )
}

/// Waits until the primary has committed past batch `after` (it saw new containers).
fn moved_on(p: &DataApi, after: f64) {
    assert!(
        p.wait_until(120, |p| metric(p, "snowline_fleet_position")
            .is_some_and(|pos| pos > after)),
        "the primary stayed at batch {after}"
    );
}

/// Waits until the primary has settled on the `held` containers of its upstream and `r`
/// applied every batch it committed; returns the position.
fn caught_up(p: &DataApi, r: &DataApi, held: usize) -> f64 {
    assert!(
        p.wait_until(300, |p| primary_settled(p, held)),
        "the primary never settled on {held} containers: {}\n{}",
        p.get("/readyz").body,
        p.get("/metrics").body
    );
    let want = metric(p, "snowline_fleet_position").unwrap();
    assert!(
        r.wait_until(300, |r| metric(r, "snowline_fleet_position") == Some(want)),
        "the replica stopped at {:?} of {want} (the stream's newest: {:?}): {}",
        metric(r, "snowline_fleet_position"),
        metric(r, "snowline_fleet_head"),
        r.get("/readyz").body
    );
    want
}

/// Publishes batch `seq` on the fleet's stream as a primary would, but with `payload` under
/// another batch's checksum, committed ten seconds after now.
fn forge(url: &str, seq: u64, payload: &'static [u8]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = common::nats_client::connect(url).await;
        let js = async_nats::jetstream::new(client);
        let mut headers = async_nats::HeaderMap::new();
        let time = (common::now_secs() + 10) * 1000;
        headers.insert(NATS_MESSAGE_ID, format!("{seq}.1").as_str());
        for (name, value) in [
            ("Snowline-Seq", seq.to_string()),
            ("Snowline-Part", "1/1".to_owned()),
            ("Snowline-Time", time.to_string()),
            // SHA-256 of "abc" (FIPS 180-2, B.1), not of the payload.
            (
                "Snowline-Sha256",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".to_owned(),
            ),
        ] {
            headers.insert(name, value.as_str());
        }
        js.publish_with_headers("snowline.batches", headers, payload.into())
            .await
            .unwrap()
            .await
            .unwrap();
    });
}

/// Paths whose answers the nodes must give byte for byte (page tokens included).
fn sample_paths(up: &upstream::Upstream) -> Vec<String> {
    let x = common::local_addr("X", &up.addrs[1]);
    let p = common::local_addr("P", &up.addrs[1]);
    vec![
        "/v1/chains".to_owned(),
        "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=2".to_owned(),
        format!("/v1/networks/local/blockchains/x-chain/utxos?addresses={x}&pageSize=3"),
        format!("/v1/networks/local/blockchains/x-chain/balances?addresses={x}"),
        format!("/v1/networks/local/blockchains/p-chain/utxos?addresses={p}&pageSize=3"),
        format!("/v1/networks/local/blockchains/p-chain/balances?addresses={p}"),
        "/v1/networks/local/blockchains/p-chain/blocks?pageSize=4".to_owned(),
        "/v1/networks/local/blockchains/x-chain/blocks?pageSize=4".to_owned(),
        "/v1/networks/local/l1Validators?pageSize=5".to_owned(),
        format!("/v1/networks/local/rewards:listPending?addresses={p}"),
    ]
}

fn same_answers(a: &DataApi, b: &DataApi, paths: &[String]) {
    for path in paths {
        let (ra, rb) = (a.get(path), b.get(path));
        assert_eq!(ra.status, 200, "{path}: {}", ra.body);
        assert_eq!(
            (rb.status, &rb.body),
            (ra.status, &ra.body),
            "{path} differs"
        );
    }
}

#[test]
fn a_replica_serves_what_the_primary_serves_and_a_new_one_starts_from_a_checkpoint() {
    let _turn = NATS_RESTARTS.read().unwrap_or_else(|e| e.into_inner());
    let nats = NatsServer::start();
    let up = upstream::start_partial(13, 3_000, 200);
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let (pdir, rdir, ndir) = (dirs[0].path(), dirs[1].path(), dirs[2].path());
    // The replica starts first: it waits for the stream, then follows the primary's ingest.
    let r = replica(rdir, &nats.url);
    let before = r.get("/readyz");
    assert_eq!(before.status, 503, "{}", before.body);
    assert!(before.body.contains("fleet"), "{}", before.body);
    let p = primary(pdir, &up, &nats.url, &[]);
    let first = caught_up(&p, &r, 200);
    assert!(first > 10.0, "only {first} batches: the run proves little");

    // A checkpoint of the stopped replica, then the rest of the blocks.
    r.terminate(); // SIGTERM: the replica flushes what it applied unlogged
    let cp = tempfile::tempdir().unwrap();
    let cp_path = cp.path().join("checkpoint");
    let (ok, out, err) = common::run(&[
        "checkpoint",
        "--data-dir",
        rdir.to_str().unwrap(),
        cp_path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains(&format!("at batch {first} ")), "{out}");
    let r = replica(rdir, &nats.url);
    upstream::append(&up.store, &up.records[200..]);
    let held = up.records.len();
    moved_on(&p, first);
    let batches = caught_up(&p, &r, held);
    assert!(batches > first, "no batch after the checkpoint");
    assert!(
        r.wait_until(30, |r| r.get("/readyz").status == 200),
        "{}",
        r.get("/readyz").body
    );
    assert_eq!(metric(&r, "snowline_fleet_replica"), Some(1.0));
    assert_eq!(metric(&r, "snowline_fleet_behind_batches"), Some(0.0));
    assert_eq!(metric(&r, "snowline_fleet_behind_seconds"), Some(0.0));
    assert_eq!(metric(&r, "snowline_fleet_gaps"), Some(0.0));
    assert_eq!(metric(&r, "snowline_fleet_bad_checksums"), Some(0.0));
    // Since its restart it applied exactly the batches after the checkpoint, and its lag
    // histogram holds one observation for each of them; the primary has none.
    assert_eq!(metric(&r, "snowline_fleet_batches"), Some(batches - first));
    assert_eq!(
        metric(&r, "snowline_fleet_lag_seconds_count"),
        Some(batches - first)
    );
    assert_eq!(metric(&p, "snowline_fleet_lag_seconds_count"), None);

    // A new replica from the checkpoint reads the stream from the batch after it.
    let n = start(
        ndir,
        &[
            "--replica-of",
            &nats.url,
            "--bootstrap-from",
            cp_path.to_str().unwrap(),
            "--no-rate-limits",
            "--no-metering",
            "--token-secret",
            SECRET,
        ],
    );
    assert!(
        n.wait_until(300, |n| metric(n, "snowline_fleet_position")
            == Some(batches)),
        "the new replica stopped at batch {:?} of {batches} (the stream's newest: {:?}): {}",
        metric(&n, "snowline_fleet_position"),
        metric(&n, "snowline_fleet_head"),
        n.get("/readyz").body
    );
    assert_eq!(metric(&n, "snowline_fleet_batches"), Some(batches - first));
    assert_eq!(
        metric(&n, "snowline_fleet_lag_seconds_count"),
        Some(batches - first)
    );

    same_answers(&p, &r, &sample_paths(&up));
    same_answers(&p, &n, &sample_paths(&up));
    let want = common::view(&p, &up.addrs);
    assert_eq!(common::view(&r, &up.addrs), want);
    assert_eq!(common::view(&n, &up.addrs), want);

    // A forged next batch whose bytes do not match its checksum: refused, counted, fetched
    // again, and named on /readyz; nothing of it is applied.
    drop(p);
    forge(&nats.url, batches as u64 + 1, b"not the batch");
    assert!(
        r.wait_until(30, |r| metric(r, "snowline_fleet_bad_checksums")
            .is_some_and(|n| n >= 2.0)),
        "{}",
        r.get("/metrics").body
    );
    // Once it has looked at the stream's newest batch (every second), it is not ready.
    assert!(
        r.wait_until(30, |r| r.get("/readyz").status == 503),
        "{}",
        r.get("/readyz").body
    );
    let ready = r.get("/readyz");
    assert!(
        ready
            .body
            .contains(&format!("batch {} failed its checksum", batches as u64 + 1)),
        "{}",
        ready.body
    );
    assert_eq!(metric(&r, "snowline_fleet_position"), Some(batches));
    assert_eq!(
        metric(&r, "snowline_fleet_lag_seconds_count"),
        Some(batches - first),
        "a refused batch counted in the lag"
    );
    r.terminate();
    n.terminate();
    let dp = digest(pdir);
    assert!(dp.len() > 40, "{dp:?}");
    assert_eq!(
        digest(rdir),
        dp,
        "the replica's tables differ from the primary's"
    );
    assert_eq!(
        digest(ndir),
        dp,
        "the new replica's tables differ from the primary's"
    );
}

#[test]
fn kills_on_a_three_node_cluster_skip_and_repeat_nothing_and_a_promoted_replica_continues() {
    let _turn = NATS_RESTARTS.write().unwrap_or_else(|e| e.into_inner());
    let mut cluster = NatsCluster::start();
    let urls = cluster.urls();
    let up = upstream::start_partial(13, 3_000, 100);
    let total = up.records.len();
    assert!(total > 300, "{total} containers");
    // The last containers arrive after the promotion.
    let before_promotion = total - 80;
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let (pdir, rdir, ldir) = (dirs[0].path(), dirs[1].path(), dirs[2].path());
    let r3 = ["--stream-replicas", "3"];
    let mut p = primary(pdir, &up, &urls, &r3);
    let mut r = replica(rdir, &urls);
    // Blocks arrive in steps while the primary, the replica and one NATS node are killed.
    let mut served = 100;
    let mut kills = (0, 0);
    for step in 0..8u64 {
        let next = (served + (before_promotion - 100) / 8 + 1).min(before_promotion);
        upstream::append(&up.store, &up.records[served..next]);
        served = next;
        std::thread::sleep(std::time::Duration::from_millis(150 + step * 40));
        match step % 4 {
            0 | 2 => {
                drop(p); // SIGKILL while it ingests
                kills.0 += 1;
                p = primary(pdir, &up, &urls, &r3);
            }
            1 => {
                drop(r);
                kills.1 += 1;
                r = replica(rdir, &urls);
            }
            _ => {
                cluster.nodes[1].kill();
                std::thread::sleep(std::time::Duration::from_millis(300));
                cluster.nodes[1].restart();
            }
        }
    }
    assert_eq!(served, before_promotion);
    let batches = caught_up(&p, &r, served);
    // A second replica, started after it all, catches up from the stream alone.
    let late = replica(ldir, &urls);
    assert!(
        late.wait_until(300, |l| metric(l, "snowline_fleet_position")
            == Some(batches)),
        "the late replica stopped at batch {:?} of {batches}: {}",
        metric(&late, "snowline_fleet_position"),
        late.get("/readyz").body
    );
    same_answers(&p, &r, &sample_paths(&up));
    same_answers(&p, &late, &sample_paths(&up));

    // Promotion: the primary goes away, the caught-up replica becomes the primary and ingests
    // the rest; the other replica follows it on the same stream.
    drop(p);
    r.terminate();
    // The node accepts the rest first, so the promoted primary is ready only once it has them.
    upstream::append(&up.store, &up.records[served..]);
    let promoted = primary(rdir, &up, &urls, &r3);
    let after = caught_up(&promoted, &late, total);
    assert!(after > batches, "no batch after the promotion: {after}");
    same_answers(&promoted, &late, &sample_paths(&up));
    assert_eq!(metric(&late, "snowline_fleet_gaps"), Some(0.0));
    // SIGTERM: a replica flushes what it applied without the write-ahead log.
    promoted.terminate();
    late.terminate();

    assert_standalone(
        &up,
        &[("the promoted replica", rdir), ("the late replica", ldir)],
    );
    println!(
        "{} primary kills, {} replica kills, a NATS node killed twice, a promotion; {after} \
         batches, every table identical to a standalone run's",
        kills.0, kills.1
    );
}

/// Every table of each of `nodes` (name, data directory; stopped) equals a
/// standalone run's over every block of `up`.
fn assert_standalone(up: &upstream::Upstream, nodes: &[(&str, &Path)]) {
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = start(
        clean_dir.path(),
        &[
            "--upstream",
            &up.url,
            "--genesis",
            "devnet",
            "--devnet-seed",
            "13",
            "--no-rate-limits",
            "--no-metering",
        ],
    );
    assert!(
        clean.wait_until(300, |c| c.get("/readyz").status == 200),
        "{}",
        clean.get("/readyz").body
    );
    drop(clean);
    let want = digest(clean_dir.path());
    assert!(want.len() > 40, "{want:?}");
    for (name, d) in nodes {
        let got = digest(d);
        let differ: Vec<_> = got.iter().filter(|l| !want.contains(l)).collect();
        assert!(
            got.len() == want.len() && differ.is_empty(),
            "{name} differs from a standalone run: {differ:?}{}",
            common::digest_difference(d, clean_dir.path())
        );
    }
}

/// The batch and part (`i/n`) of every message the fleet's stream holds, in its order.
fn stream_messages(url: &str) -> Vec<(u64, String)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = common::nats_client::connect(url).await;
        let js = async_nats::jetstream::new(client);
        let stream = js.get_stream("snowline").await.unwrap();
        let state = stream.get_info().await.unwrap().state;
        let mut held = Vec::new();
        for n in state.first_sequence..=state.last_sequence {
            let m = stream.get_raw_message(n).await.unwrap();
            // Snowline's own headers, by their (custom) names.
            let get = |name: &str| m.headers.get(name).unwrap().as_str().to_owned();
            held.push((get("Snowline-Seq").parse().unwrap(), get("Snowline-Part")));
        }
        held
    })
}

/// Two primaries on one stream: a primary stops in its tracks (a long pause, a partition), its
/// caught-up replica is promoted and publishes, then the old primary resumes and ingests the
/// same blocks cut into other batches. The stream refuses its batches (each is published
/// expecting the stream's last message to be the one it knows), so it exits, non-zero, saying
/// why; the stream holds each batch once, and a replica of it equals a standalone run.
#[test]
fn a_stale_primary_is_fenced_off_and_the_stream_holds_each_batch_once() {
    let _turn = NATS_RESTARTS.read().unwrap_or_else(|e| e.into_inner());
    let nats = NatsServer::start();
    let up = upstream::start_partial(13, 3_000, 120);
    let total = up.records.len();
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let (adir, bdir, ldir) = (dirs[0].path(), dirs[1].path(), dirs[2].path());
    let mut a = primary(adir, &up, &nats.url, &[]);
    let r = replica(bdir, &nats.url);
    let first = caught_up(&a, &r, 120);
    r.terminate();

    a.signal("STOP");
    // The promoted replica asks for 5 containers at a time where the old primary asks for 7.
    let b = primary_cut(bdir, &up, &nats.url, "5", &[]);
    let mid = 120 + (total - 120) / 2;
    upstream::append(&up.store, &up.records[120..mid]);
    moved_on(&b, first);
    assert!(
        b.wait_until(300, |b| primary_settled(b, mid)),
        "{}",
        b.get("/readyz").body
    );
    let b_first = metric(&b, "snowline_fleet_position").unwrap();
    upstream::append(&up.store, &up.records[mid..]);
    a.signal("CONT");

    assert!(
        snowline_test_support::service::poll_until(120, || a.exit_status().is_some()),
        "the old primary still runs: {}",
        a.get("/readyz").body
    );
    let status = a.exit_status().unwrap();
    assert!(!status.success(), "{status}");
    let why = a.stderr_line("fenced off").unwrap_or_default();
    assert!(why.contains("another primary"), "{why}");

    let late = replica(ldir, &nats.url);
    let batches = caught_up(&b, &late, total);
    assert!(batches > b_first, "no batch after the old primary resumed");
    same_answers(&b, &late, &sample_paths(&up));
    assert_eq!(metric(&late, "snowline_fleet_gaps"), Some(0.0));
    assert_eq!(metric(&late, "snowline_fleet_duplicates"), Some(0.0));

    let held = stream_messages(&nats.url);
    let want: Vec<(u64, String)> = (1..=batches as u64)
        .map(|n| (n, "1/1".to_owned()))
        .collect();
    assert_eq!(held, want, "the stream holds a batch twice or not at all");
    b.terminate();
    late.terminate();
    assert_standalone(
        &up,
        &[("the promoted primary", bdir), ("its replica", ldir)],
    );
}
