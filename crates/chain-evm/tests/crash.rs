//! Crash safety of the EVM derivation: an ingest of the recorded C-Chain stopped at every block
//! boundary (with several batch sizes), or failing inside a batch (a balance the node cannot
//! answer drops the whole batch), then continued by a fresh deriver on the reopened store, ends
//! with every EVM table equal, entry by entry, to a clean run's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use snowline_evm_devnet::{C_CHAIN_ID, Recording, recording_path};
use snowline_store::ReadView;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_anywhere_then_restarted_equals_a_clean_run() {
    let path = recording_path(C_CHAIN_ID);
    let text = std::fs::read_to_string(&path).unwrap();
    let head = Recording::parse(&text).unwrap().head().unwrap();
    let url = replay(Recording::parse(&text).unwrap()).await;

    let clean_dir = tempfile::tempdir().unwrap();
    let clean = {
        let store = open(clean_dir.path());
        sync_to(&store, &url, 4, head).await.unwrap();
        dump(&store)
    };
    assert!(clean.len() > 1000);

    // Stopped after block `cut`, store closed, reopened and continued.
    for cut in 0..head {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            let per_batch = 1 + (cut as usize % 3);
            assert_eq!(
                sync_to(&store, &url, per_batch, cut).await.unwrap(),
                cut + 1
            );
        }
        let store = open(dir.path());
        sync_to(&store, &url, 3, head).await.unwrap();
        assert_eq!(dump(&store), clean, "cut after block {cut}");
    }

    // A node that cannot answer block `bad`'s balances: the batch holding it fails whole.
    for bad in [1, 5, head] {
        let tag = format!("\"{bad:#x}\"]");
        let broken: String = text
            .lines()
            .filter(|l| !(l.starts_with("{\"method\":\"eth_getBalance\"") && l.contains(&tag)))
            .map(|l| format!("{l}\n"))
            .collect();
        let broken_url = replay(Recording::parse(&broken).unwrap()).await;
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            assert!(sync_to(&store, &broken_url, 4, head).await.is_err());
            let cursor = store
                .get::<snowline_chain_evm::tables::EvCursor>(&C_CHAIN_ID)
                .unwrap()
                .map_or(0, |c| c.0.next);
            assert!(
                cursor <= bad,
                "block {bad} failed, yet the cursor is at {cursor}"
            );
            assert_eq!(cursor % 4, 0, "only whole batches are written");
        }
        let store = open(dir.path());
        sync_to(&store, &url, 2, head).await.unwrap();
        assert_eq!(dump(&store), clean, "failed at block {bad}");
    }
}
