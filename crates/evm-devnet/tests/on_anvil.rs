//! The scenario on a real anvil: deterministic block hashes, and the committed recording
//! reproduced byte for byte. Skipped with a message when anvil is missing, unless
//! `SNOWLINE_REQUIRE_EVM=1` (CI).

use snowline_evm_devnet::{
    C_CHAIN_ID, L1_CHAIN_ID, RECORDED_CHAINS, ScenarioConfig, anvil_or_skip, record_scenario,
    recording_path, start_devnet,
};

#[tokio::test]
async fn same_seed_same_block_hashes() {
    if !anvil_or_skip("same_seed_same_block_hashes") {
        return;
    }
    let config = ScenarioConfig {
        chain_id: L1_CHAIN_ID,
        seed: 7,
        blocks: 5,
        txs_per_block: 30,
    };
    let (_one, first) = start_devnet(&config).await.unwrap();
    let (_two, second) = start_devnet(&config).await.unwrap();
    assert_eq!(first.block_hashes.len(), 6);
    assert_eq!(first.txs, 18 + 4 * 30);
    assert_eq!(first, second);
    let (_three, other) = start_devnet(&ScenarioConfig { seed: 8, ..config })
        .await
        .unwrap();
    assert_eq!(other.block_hashes[0], first.block_hashes[0], "same genesis");
    assert_ne!(other.block_hashes[5], first.block_hashes[5]);
}

/// Blocks of 50 txs are mined whole (the driver checks each block holds every tx it sent).
#[tokio::test]
async fn full_blocks_are_mined_whole() {
    if !anvil_or_skip("full_blocks_are_mined_whole") {
        return;
    }
    let config = ScenarioConfig {
        chain_id: C_CHAIN_ID,
        seed: 3,
        blocks: 3,
        txs_per_block: 50,
    };
    let (_anvil, run) = start_devnet(&config).await.unwrap();
    assert_eq!(run.txs, 18 + 2 * 50);
}

#[tokio::test]
async fn rerecording_reproduces_the_committed_fixture() {
    if !anvil_or_skip("rerecording_reproduces_the_committed_fixture") {
        return;
    }
    for chain_id in RECORDED_CHAINS {
        let fresh = record_scenario(&ScenarioConfig::small(chain_id))
            .await
            .unwrap();
        let committed = std::fs::read(recording_path(chain_id)).unwrap();
        assert!(
            fresh == committed,
            "chain {chain_id}: the recording differs from fixtures/evm/devnet/{chain_id}.jsonl \
             (regenerate: cargo run -p snowline-evm-devnet --bin evm-devnet -- record-fixtures)"
        );
    }
}
