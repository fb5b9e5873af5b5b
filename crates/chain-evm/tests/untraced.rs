//! A node that serves no call traces: everything else is indexed, and the pages say internal
//! transactions are not known from the first block with txs, instead of answering none.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use snowline_chain_evm::pages::{EvmPages, EvmReadError};
use snowline_evm_devnet::{C_CHAIN_ID, Recording, recording_path};
use snowline_query::params::BlockRange;
use snowline_types::evm::Address;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_traces_internal_transactions_are_refused_not_empty() {
    let text = std::fs::read_to_string(recording_path(C_CHAIN_ID)).unwrap();
    let untraced: String = text
        .lines()
        .filter(|l| !l.contains(r#""method":"debug_trace"#))
        .map(|l| format!("{l}\n"))
        .collect();
    let recording = Recording::parse(&untraced).unwrap();
    let tip = recording.head().unwrap();
    let url = common::replay(recording).await;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(common::open(dir.path()));
    common::sync_to(&store, &url, 3, tip).await.unwrap();

    let pages = EvmPages::new(Arc::clone(&store));
    let cursor = pages.cursor(C_CHAIN_ID).unwrap().unwrap();
    assert_eq!(cursor.next, tip + 1);
    // Block 0 has no txs, so it is complete; block 1 is the first without traces.
    assert_eq!(cursor.untraced_from, Some(1));
    let deployer: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        .parse()
        .unwrap();
    let all = pages.internals(C_CHAIN_ID, deployer, BlockRange::default(), 10, None);
    assert!(matches!(all, Err(EvmReadError::Untraced(1))), "{all:?}");
    let before = BlockRange {
        start: None,
        end: Some(1),
    };
    let none = pages
        .internals(C_CHAIN_ID, deployer, before, 10, None)
        .unwrap();
    assert!(none.rows.is_empty());
    // Everything else is indexed: the deployer's contracts created by its own txs.
    let deployed = pages.deployments(C_CHAIN_ID, deployer, 100, None).unwrap();
    assert!(!deployed.contracts.is_empty());
}
