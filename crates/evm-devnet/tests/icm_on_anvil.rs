//! The ICM scenario on two real anvils: statuses as planned, ids by the rule, the same seed
//! giving the same blocks and recordings, the committed recording reproduced byte for byte.
//! Skipped with a message when anvil is missing, unless `SNOWLINE_REQUIRE_EVM=1` (CI).

#![allow(clippy::unwrap_used)]

use serde_json::Value;
use snowline_evm_devnet::icm::{Expected, ICM_CHAINS, message_id, record_icm, start_icm_devnet};
use snowline_evm_devnet::icm_model::{IcmModel, Status};
use snowline_evm_devnet::{ICM_SEED, anvil_or_skip, icm_recording_path};

fn lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn icm_messages_end_as_planned() {
    if !anvil_or_skip("icm_messages_end_as_planned") {
        return;
    }
    let (anvils, run) = start_icm_devnet(5).await.unwrap();
    let (_again, rerun) = start_icm_devnet(5).await.unwrap();
    assert_eq!(run, rerun, "same seed, same blocks and messages");
    let mut recorded = Vec::new();
    for anvil in &anvils {
        let mut out = Vec::new();
        snowline_evm_devnet::record(&anvil.url(), &mut out)
            .await
            .unwrap();
        recorded.push(lines(&out));
    }
    let model = IcmModel::from_lines(&recorded);
    assert_eq!(model.messages.len(), run.messages.len());
    for planned in &run.messages {
        assert_eq!(
            planned.message_id,
            message_id(planned.source, planned.destination, planned.nonce),
            "{}",
            planned.label
        );
        let seen = model.message(planned.message_id).unwrap();
        let (status, executed, receipt) = match planned.expected {
            Expected::Pending => (Status::Pending, None, false),
            Expected::Delivered { executed, receipt } => {
                (Status::Delivered, Some(executed), receipt)
            }
            Expected::DeliveredSourceNotIndexed => {
                (Status::DeliveredSourceNotIndexed, Some(true), false)
            }
        };
        assert_eq!(seen.status, status, "{}", planned.label);
        assert_eq!(seen.executed, executed, "{}", planned.label);
        assert_eq!(seen.receipt.is_some(), receipt, "{}", planned.label);
        assert_eq!(
            seen.source_blockchain_id, planned.source,
            "{}",
            planned.label
        );
    }
}

#[tokio::test]
async fn icm_recording_is_reproducible_and_committed() {
    if !anvil_or_skip("icm_recording_is_reproducible_and_committed") {
        return;
    }
    let first = record_icm(ICM_SEED).await.unwrap();
    let second = record_icm(ICM_SEED).await.unwrap();
    assert!(first == second, "recording twice gave different files");
    for (chain_id, fresh) in ICM_CHAINS.iter().zip(&first) {
        let committed = std::fs::read(icm_recording_path(*chain_id)).unwrap();
        assert!(
            *fresh == committed,
            "chain {chain_id}: the ICM recording differs from fixtures/evm/icm/{chain_id}.jsonl \
             (regenerate: cargo run -p snowline-evm-devnet --bin evm-devnet -- record-icm)"
        );
    }
    let other = record_icm(ICM_SEED + 1).await.unwrap();
    assert!(other[0] != first[0], "another seed, other blocks");
}
