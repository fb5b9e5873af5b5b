//! The follower under upstream faults, in process, through the fault-injecting proxy
//! (`snowline-fault-upstream`): a page that fails verification is refused, counted and
//! retried, and following goes on; an upstream holding fewer or other containers than the index
//! is not followed until it agrees again. The binaries' scripted sequence is in
//! `bins/*/tests/faults.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{dump, fill, open, record, serve};
use snowline_derive::NoDerive;
use snowline_fault_upstream::{Fault, FaultProxy};
use snowline_node_index::{FollowConfig, FollowSnapshot, FollowStatus, Follower, IndexWriter};
use snowline_node_rpc::Compat;
use snowline_store::Store;
use snowline_types::container::IndexPath;

/// A store holding `X/tx` containers `from..to` (`record`'s synthetic containers: other
/// numbers, other ids).
fn store_of(dir: &std::path::Path, from: u64, to: u64) -> Arc<Store> {
    let store = Arc::new(open(dir));
    fill(
        &store,
        &(from..to)
            .map(|i| record(IndexPath::XTx, i))
            .collect::<Vec<_>>(),
    );
    store
}

/// Polls `status` until `cond` holds (bounded: 20 s), so the test waits on behaviour, not time.
async fn wait_for(status: &FollowStatus, cond: impl Fn(&FollowSnapshot) -> bool) -> FollowSnapshot {
    for _ in 0..2000 {
        let snap = status.snapshot();
        if cond(&snap) {
            return snap;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "status never reached the condition: {:?}",
        status.snapshot()
    );
}

/// Runs a follower of `url` (X/tx only, pages of 8) into `store` until the returned sender
/// fires.
fn follow(
    url: &str,
    store: &Arc<Store>,
) -> (
    Arc<FollowStatus>,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), snowline_node_index::IndexError>>,
) {
    let status = Arc::new(FollowStatus::new());
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let f = Follower::new(
        url,
        FollowConfig {
            batch: 8,
            poll_interval: Duration::from_millis(10),
            retry_initial: Duration::from_millis(5),
            retry_max: Duration::from_millis(20),
            max_attempts: 3,
            call_timeout: Duration::from_secs(5),
            paths: vec![IndexPath::XTx],
            ..FollowConfig::default()
        },
    )
    .unwrap()
    .with_status(Arc::clone(&status));
    let store = Arc::clone(store);
    let task = tokio::spawn(async move {
        let mut w = IndexWriter::open(&*store).unwrap();
        f.run(&store, &mut w, &mut NoDerive, async {
            let _ = stop_rx.await;
        })
        .await
    });
    (status, stop_tx, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_page_is_counted_and_retried_and_following_goes_on() {
    let up_dir = tempfile::tempdir().unwrap();
    let up = store_of(up_dir.path(), 0, 50);
    let server = serve(Arc::clone(&up), Compat::Spec).await;
    let proxy = FaultProxy::start(&server.url()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    for (fault, reason) in [
        (Fault::BadChecksum, "checksum"),
        (Fault::BadId, "is not the id of its bytes"),
        (Fault::Gap, "expected container 1, got index 2"),
    ] {
        proxy.set(fault);
        let (status, stop, task) = follow(&proxy.url(), &store);
        // Refused again and again (more than one round's attempts), never the end of following.
        let snap = wait_for(&status, |s| {
            s.refused_pages > 3 && s.consecutive_failures > 0
        })
        .await;
        assert!(!snap.upstream_up);
        let problem = snap.problem(8).unwrap();
        assert!(
            problem.contains("refused a page") && problem.contains(reason),
            "{problem}"
        );
        assert!(problem.contains("(50 containers behind)"), "{problem}");
        assert!(!task.is_finished(), "{fault:?} ended the follower");
        assert!(
            dump(&store).is_empty(),
            "{fault:?}: a refused page was written"
        );
        stop.send(()).unwrap();
        task.await.unwrap().unwrap();
    }
    proxy.set(Fault::None);
    let (status, stop, task) = follow(&proxy.url(), &store);
    let snap = wait_for(&status, |s| s.since_caught_up.is_some()).await;
    assert_eq!(snap.problem(8), None);
    assert_eq!(dump(&store), dump(&up));
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_with_fewer_or_other_containers_is_not_followed() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let chain = store_of(dirs[0].path(), 0, 40);
    // A node rewound to half of the chain, and a node of another, longer chain.
    let rewound = store_of(dirs[1].path(), 0, 20);
    let other = store_of(dirs[2].path(), 1000, 1060);
    let servers = [
        serve(Arc::clone(&chain), Compat::Spec).await,
        serve(Arc::clone(&rewound), Compat::Avalanchego).await,
        serve(Arc::clone(&other), Compat::Spec).await,
    ];
    let proxy = FaultProxy::start(&servers[0].url()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    let (status, stop, task) = follow(&proxy.url(), &store);
    wait_for(&status, |s| s.since_caught_up.is_some() && s.behind() == 0).await;
    let held = dump(&store);
    assert_eq!(held, dump(&chain));

    proxy.retarget(&servers[1].url());
    let snap = wait_for(&status, |s| s.diverged.is_some()).await;
    let why = snap.diverged.clone().unwrap();
    assert!(
        why.contains("has accepted 20 containers, 40 are held here"),
        "{why}"
    );
    assert!(snap.problem(8).unwrap().contains("diverged"));
    proxy.retarget(&servers[2].url());
    let snap = wait_for(&status, |s| {
        s.diverged
            .as_deref()
            .is_some_and(|d| d.contains("container at index 39"))
    })
    .await;
    // Nothing of the other chain was written (it is checked before each round's sync).
    assert!(snap.problem(8).unwrap().contains("diverged"));
    assert_eq!(
        dump(&store),
        held,
        "the index was rewritten to follow another chain"
    );
    assert!(!task.is_finished());

    // The node comes back on the chain, grown: followed again from where the index stands.
    fill(
        &chain,
        &(40..55)
            .map(|i| record(IndexPath::XTx, i))
            .collect::<Vec<_>>(),
    );
    proxy.retarget(&servers[0].url());
    let snap = wait_for(&status, |s| s.diverged.is_none() && s.paths[0].local == 55).await;
    assert_eq!(snap.problem(8), None);
    assert_eq!(dump(&store), dump(&chain));
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_is_anchored_to_what_the_index_holds() {
    // The index holds 20 containers of a chain; the upstream is now another, longer chain (a
    // node replaced between two calls of one round). A sync alone, with no round-level check,
    // must write none of it, whatever page it starts with.
    let dirs: Vec<_> = (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
    let chain = store_of(dirs[0].path(), 0, 20);
    let other = store_of(dirs[1].path(), 1000, 1060);
    let servers = [
        serve(Arc::clone(&chain), Compat::Spec).await,
        serve(Arc::clone(&other), Compat::Avalanchego).await,
    ];
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let mut w = IndexWriter::open(&store).unwrap();
    let config = FollowConfig {
        batch: 8,
        paths: vec![IndexPath::XTx],
        ..FollowConfig::default()
    };
    let f = Follower::new(&servers[0].url(), config.clone()).unwrap();
    f.sync(&store, &mut w, &mut NoDerive, |_, _| {})
        .await
        .unwrap();
    let held = dump(&store);
    assert_eq!(held, dump(&chain));
    let f = Follower::new(&servers[1].url(), config).unwrap();
    match f.sync(&store, &mut w, &mut NoDerive, |_, _| {}).await {
        Err(snowline_node_index::IndexError::Diverged { message, .. }) => {
            assert!(message.contains("container at index 19"), "{message}");
        }
        other => panic!("a page of another chain was not refused: {other:?}"),
    }
    assert_eq!(
        dump(&store),
        held,
        "another chain's containers were written"
    );
}
