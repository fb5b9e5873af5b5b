//! The committed ICM recording (`fixtures/evm/icm/`, no anvil needed), read by the independent
//! model: each message has the status and fields the scenario plans, its id is the Teleporter
//! rule computed here by hand, and the events' topic 0 are the v1 ones.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use alloy_primitives::{Address, B256, U256, keccak256};
use alloy_sol_types::SolEvent;
use snowline_evm_devnet::icm::{ITeleporterMessenger as T, IWarpMessenger};
use snowline_evm_devnet::icm_model::{IcmModel, ModelMessage, Status};
use snowline_evm_devnet::icm_recording_path;

fn h(s: &str) -> B256 {
    s.parse().unwrap()
}

/// The v1 events' topic 0 (`shared/reference/warp-icm-pchain.md` part B, A5).
const TOPICS: [(&str, &str); 9] = [
    (
        "SendCrossChainMessage(bytes32,bytes32,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes),(address,uint256))",
        "0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8",
    ),
    (
        "ReceiveCrossChainMessage(bytes32,bytes32,address,address,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes))",
        "0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34",
    ),
    (
        "MessageExecuted(bytes32,bytes32)",
        "0x34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c",
    ),
    (
        "MessageExecutionFailed(bytes32,bytes32,(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes))",
        "0x4619adc1017b82e02eaefac01a43d50d6d8de4460774bc370c3ff0210d40c985",
    ),
    (
        "ReceiptReceived(bytes32,bytes32,address,(address,uint256))",
        "0xd13a7935f29af029349bed0a2097455b91fd06190a30478c575db3f31e00bf57",
    ),
    (
        "AddFeeAmount(bytes32,(address,uint256))",
        "0xc1bfd1f1208927dfbd414041dcb5256e6c9ad90dd61aec3249facbd34ff7b3e1",
    ),
    (
        "RelayerRewardsRedeemed(address,address,uint256)",
        "0x3294c84e5b0f29d9803655319087207bc94f4db29f7927846944822773780b88",
    ),
    (
        "BlockchainIDInitialized(bytes32)",
        "0x1eac640109dc937d2a9f42735a05f794b39a5e3759d681951d671aabbce4b104",
    ),
    (
        "SendWarpMessage(address,bytes32,bytes)",
        "0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d",
    ),
];

#[test]
fn event_topics_are_the_v1_ones() {
    for (sig, topic) in TOPICS {
        assert_eq!(keccak256(sig), h(topic), "{sig}");
    }
    let ours = [
        T::SendCrossChainMessage::SIGNATURE_HASH,
        T::ReceiveCrossChainMessage::SIGNATURE_HASH,
        T::MessageExecuted::SIGNATURE_HASH,
        T::MessageExecutionFailed::SIGNATURE_HASH,
        T::ReceiptReceived::SIGNATURE_HASH,
        T::AddFeeAmount::SIGNATURE_HASH,
        T::RelayerRewardsRedeemed::SIGNATURE_HASH,
        T::BlockchainIDInitialized::SIGNATURE_HASH,
        IWarpMessenger::SendWarpMessage::SIGNATURE_HASH,
    ];
    for (ours, (sig, topic)) in ours.into_iter().zip(TOPICS) {
        assert_eq!(ours, h(topic), "{sig}");
    }
}

/// The committed contract emits exactly those topics: each appears as a PUSH32 in its runtime
/// code (solc pushes an event's topic 0 whole).
#[test]
fn the_committed_messenger_emits_the_v1_topics() {
    let fixture: serde_json::Value = serde_json::from_str(include_str!(
        "../../../fixtures/evm/contracts/DevnetTeleporterMessenger.json"
    ))
    .unwrap();
    let code = fixture["deployedBytecode"].as_str().unwrap().to_lowercase();
    for (sig, topic) in &TOPICS[..8] {
        assert!(
            code.contains(&format!("7f{}", &topic[2..])),
            "{sig} not in the runtime code"
        );
    }
    let fixture: serde_json::Value = serde_json::from_str(include_str!(
        "../../../fixtures/evm/contracts/WarpStandIn.json"
    ))
    .unwrap();
    let code = fixture["deployedBytecode"].as_str().unwrap().to_lowercase();
    assert!(code.contains(&format!("7f{}", &TOPICS[8].1[2..])));
}

/// `keccak256(abi.encode(address(this), sourceBlockchainID, destinationBlockchainID, nonce))`,
/// ABI words built by hand.
fn rule(source: B256, destination: B256, nonce: u64) -> B256 {
    let teleporter: Address = "0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf"
        .parse()
        .unwrap();
    let mut words = vec![0u8; 12];
    words.extend_from_slice(teleporter.as_slice());
    words.extend_from_slice(source.as_slice());
    words.extend_from_slice(destination.as_slice());
    words.extend_from_slice(&[0u8; 24]);
    words.extend_from_slice(&nonce.to_be_bytes());
    keccak256(words)
}

/// The local C-Chain (2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC).
fn c_chain() -> B256 {
    h("0xee488204088eaba3d3c0c5e26d7a2892677f8d6181ef31848708b4e55ead7667")
}

/// The chain the devnet's P-Chain created for EVM chain 99999 (its `CreateChainTx` id, cb58).
fn l1() -> B256 {
    let id: snowline_types::Id = "mCAkA78CiH4yyVSzKi13uuzeWTDhDYGmbFvYbyheqvpewvuy3"
        .parse()
        .unwrap();
    B256::from_slice(id.as_ref())
}

fn model() -> IcmModel {
    IcmModel::load(&[&icm_recording_path(43112), &icm_recording_path(99999)])
}

/// anvil's dev account `i` (the "test … junk" mnemonic).
fn account(i: usize) -> Address {
    [
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
        "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
        "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
        "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
        "0x976ea74026e726554db657fa54763abd0c3a0aa9",
        "0x14dc79964da2c08b23698b3d3cc7ca32193d9955",
        "0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f",
        "0xa0ee7a142d267c1f36714e4a8f75612f20a79720",
    ][i]
        .parse()
        .unwrap()
}

/// Source, destination, nonce, status, executed, receipt back, fee additions, the receipt
/// nonces it carried.
type Row = (B256, B256, u64, Status, Option<bool>, bool, usize, Vec<u64>);

fn find(m: &IcmModel, id: B256) -> &ModelMessage {
    m.message(id).unwrap_or_else(|| panic!("no message {id}"))
}

#[test]
fn the_recorded_chains_have_their_blockchain_ids() {
    let m = model();
    assert_eq!(m.chains.get(&43112), Some(&c_chain()));
    assert_eq!(m.chains.get(&99999), Some(&l1()));
    assert_eq!(m.messages.len(), 8);
}

#[test]
fn every_message_has_the_planned_status_and_fields() {
    let m = model();
    let unknown = keccak256("snowline evm devnet: a chain no devnet runs");
    let unindexed = keccak256("snowline evm devnet: a source chain nobody indexes");
    let plan: [Row; 8] = [
        (
            c_chain(),
            l1(),
            1,
            Status::Delivered,
            Some(true),
            true,
            0,
            vec![],
        ),
        (
            c_chain(),
            l1(),
            2,
            Status::Delivered,
            Some(false),
            true,
            0,
            vec![],
        ),
        (
            c_chain(),
            unknown,
            3,
            Status::Pending,
            None,
            false,
            1,
            vec![],
        ),
        (
            c_chain(),
            l1(),
            4,
            Status::Delivered,
            Some(true),
            true,
            1,
            vec![],
        ),
        (
            l1(),
            c_chain(),
            1,
            Status::Delivered,
            Some(true),
            true,
            0,
            vec![],
        ),
        (
            unindexed,
            l1(),
            1,
            Status::DeliveredSourceNotIndexed,
            Some(true),
            false,
            0,
            vec![],
        ),
        (
            l1(),
            c_chain(),
            2,
            Status::Delivered,
            Some(true),
            true,
            0,
            vec![1, 2, 4],
        ),
        (
            c_chain(),
            l1(),
            5,
            Status::Delivered,
            Some(true),
            false,
            0,
            vec![1, 2],
        ),
    ];
    for (source, dest, nonce, status, executed, receipt, additions, carried) in plan {
        let id = rule(source, dest, nonce);
        let msg = find(&m, id);
        let what = format!("{source} -> {dest} #{nonce}");
        assert_eq!(msg.status, status, "{what}");
        assert_eq!(msg.source_blockchain_id, source, "{what}");
        assert_eq!(msg.destination_blockchain_id, dest, "{what}");
        assert_eq!(msg.message.messageNonce, U256::from(nonce), "{what}");
        assert_eq!(msg.executed, executed, "{what}");
        assert_eq!(msg.receipt.is_some(), receipt, "{what}");
        assert_eq!(msg.fee_additions, additions, "{what}");
        let nonces: Vec<u64> = msg.receipts().iter().map(|(n, _)| n.to::<u64>()).collect();
        assert_eq!(nonces, carried, "{what}");
        // Where each event was: sends on the source's chain, deliveries on the destination's.
        let chain_of = |b: B256| m.chains.iter().find(|(_, id)| **id == b).map(|(c, _)| *c);
        assert_eq!(
            msg.source_tx.map(|t| t.chain_id),
            chain_of(source),
            "{what}"
        );
        assert_eq!(
            msg.destination_tx.map(|(t, _, _)| t.chain_id),
            if status == Status::Pending {
                None
            } else {
                chain_of(dest)
            },
            "{what}"
        );
        if let (Some(r), Some(fee)) = (msg.receipt, msg.fee) {
            assert_eq!(
                r.fee, fee,
                "{what}: the relayer earns the fee after additions"
            );
            assert_eq!(Some(r.tx.chain_id), chain_of(source), "{what}");
        }
        if let (Some(i), Some(f)) = (msg.initial_fee, msg.fee) {
            assert_eq!(additions == 0, i == f, "{what}");
        }
    }
    // The relayers, reward redeemers and carried reward addresses the plan names.
    let c2 = find(&m, rule(c_chain(), l1(), 2));
    let (_, deliverer, redeemer) = c2.destination_tx.unwrap();
    assert_eq!((deliverer, redeemer), (account(6), account(9)));
    assert_eq!(c2.receipt.unwrap().relayer_reward_address, account(9));
    let c4 = find(&m, rule(c_chain(), l1(), 4));
    assert_eq!(c4.message.allowedRelayerAddresses, vec![account(7)]);
    assert_eq!(c4.destination_tx.unwrap().1, account(7));
    let l2 = find(&m, rule(l1(), c_chain(), 2));
    assert_eq!(
        l2.receipts().iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![account(5), account(9), account(7)]
    );
    let x1 = find(&m, rule(unindexed, l1(), 1));
    assert!(x1.source_tx.is_none() && x1.initial_fee.is_none());
    assert_eq!(x1.destination_tx.unwrap().1, account(8));
    let l1m = find(&m, rule(l1(), c_chain(), 1));
    assert_eq!(l1m.initial_fee.unwrap().1, U256::ZERO, "l1 is fee-less");
}

/// `evm-replay` serves the ICM recordings like the devnet's: every recorded call answers its
/// recorded result.
#[test]
fn the_replay_answers_every_recorded_icm_call() {
    for chain_id in [43112, 99999] {
        let path = icm_recording_path(chain_id);
        let recording = snowline_evm_devnet::Recording::load(&path).unwrap();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let method = v["method"].as_str().unwrap();
            match recording.answer(method, &v["params"]) {
                Ok(text) => {
                    let answered: serde_json::Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(answered, v["result"], "{method} {}", v["params"]);
                }
                Err(e) => assert!(v.get("error").is_some(), "{method}: {e:?}"),
            }
        }
    }
}

/// The L1's blockchain id is the id of the devnet P-Chain's `CreateChainTx` whose genesis names
/// EVM chain 99999: read from the committed P-Chain blocks (`fixtures/devnet/containers.jsonl`)
/// with snowline-types' P-Chain block parser, not from the scenario's code.
#[test]
fn the_l1_is_the_chain_the_p_chain_created() {
    use snowline_types::container::{ContainerRecord, IndexPath};
    use snowline_types::platformvm::{UnsignedTx, parse_block};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/devnet/containers.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the devnet fixture");
    let mut created = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let line = ContainerRecord::parse_json_line(line).expect("a container line");
        if line.record.path != IndexPath::PBlock {
            continue;
        }
        let block = parse_block(&line.record.bytes)
            .expect("a P-Chain block")
            .block;
        for (tx, id) in block.block.txs().into_iter().zip(&block.tx_ids) {
            if let UnsignedTx::CreateChainTx(c) = &tx.unsigned {
                let genesis: serde_json::Value =
                    serde_json::from_slice(&c.genesis_data).unwrap_or_default();
                if genesis["config"]["chainId"] == 99999 {
                    created.push(*id);
                }
            }
        }
    }
    assert_eq!(created.len(), 1, "one chain 99999 created: {created:?}");
    assert_eq!(
        created[0].as_ref(),
        snowline_evm_devnet::icm::blockchain_id(99999).as_slice()
    );
}
