//! The EVM deriver against a live anvil running the devnet's scenario (skipped, saying why,
//! where anvil is absent): the node is indexed directly, recorded, and every table checked
//! against the recorded JSON as for the committed recording.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::*;
use snowline_evm_devnet::{
    C_CHAIN_ID, L1_CHAIN_ID, ScenarioConfig, anvil_or_skip, record, start_devnet,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_anvil_indexes_as_its_answers_say() {
    if !anvil_or_skip("a_live_anvil_indexes_as_its_answers_say") {
        return;
    }
    for chain in [C_CHAIN_ID, L1_CHAIN_ID] {
        let (anvil, _) = start_devnet(&ScenarioConfig::small(chain)).await.unwrap();
        let url = anvil.url();
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let head = source(&url, 4).tip().await.unwrap();
        sync_to(&store, &url, 4, head).await.unwrap();
        let mut out = Vec::new();
        record(&url, &mut out).await.unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        check_against_recording(&store, chain, &lines);
    }
}
