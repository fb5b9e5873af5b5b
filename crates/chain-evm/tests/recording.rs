//! The EVM deriver against the devnet's recording of a real anvil chain (no anvil needed): both
//! recorded chains indexed through the replay server, then every table compared with what this
//! test derives on its own from the recorded JSON (`serde_json::Value` walked by hand: topics
//! decoded from the EIP-20/721/1155 event signatures, call trees walked, balances as recorded).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use snowline_evm_devnet::{RECORDED_CHAINS, Recording, recording_path};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_recorded_chains_index_as_the_recorded_json_says() {
    for chain in RECORDED_CHAINS {
        let path = recording_path(chain);
        let lines = lines(&path);
        let url = replay(Recording::load(&path).unwrap()).await;
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let head = Recording::load(&path).unwrap().head().unwrap();
        let next = sync_to(&store, &url, 5, head).await.unwrap();
        assert_eq!(next, head + 1);
        check_against_recording(&store, chain, &lines);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_that_does_not_follow_stops_the_deriver_and_writes_nothing() {
    let c = recording_path(RECORDED_CHAINS[0]);
    let l1 = recording_path(RECORDED_CHAINS[1]);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let url = replay(Recording::load(&c).unwrap()).await;
    sync_to(&store, &url, 3, 4).await.unwrap();
    let before = dump(&store);
    // The L1's recording, served under the C-Chain's id: block 5 names another parent.
    let text = std::fs::read_to_string(&l1).unwrap().replace(
        &format!("\"result\":\"{:#x}\"", RECORDED_CHAINS[1]),
        &format!("\"result\":\"{:#x}\"", RECORDED_CHAINS[0]),
    );
    let other = replay(Recording::parse(&text).unwrap()).await;
    let err = sync_to(&store, &other, 3, 8).await.unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("block 5 names parent 0x") && msg.contains("another chain"),
        "{msg}"
    );
    assert_eq!(dump(&store), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_follower_reaches_the_tip_then_keeps_polling() {
    let path = recording_path(RECORDED_CHAINS[0]);
    let recording = Recording::load(&path).unwrap();
    let head = recording.head().unwrap();
    let url = replay(recording).await;
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let poll = std::time::Duration::from_millis(10);
    // Still running (polling an unchanged tip) when the time is up.
    let running = tokio::time::timeout(
        std::time::Duration::from_secs(3),
        snowline_chain_evm::run(&store, &source(&url, 4), poll),
    )
    .await;
    assert!(running.is_err(), "the follower stopped: {running:?}");
    let cursor = snowline_store::ReadView::get::<snowline_chain_evm::tables::EvCursor>(
        &store,
        &RECORDED_CHAINS[0],
    )
    .unwrap()
    .unwrap();
    assert_eq!(cursor.0.next, head + 1);
}
