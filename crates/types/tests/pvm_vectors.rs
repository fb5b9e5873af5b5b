//! P-Chain txs and blocks against avalanchego's own byte vectors (each constant in `pvm_data`
//! names its source file) and real blocks from avalanchego's API docs.
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use pvm_data::*;
use snowline_types::codec::{marshal, unmarshal};
use snowline_types::formatting::decode_hex_checksum;
use snowline_types::platformvm::txs::{BaseTx, UnsignedTx};
use snowline_types::platformvm::{Block, TransferableIn, TransferableOut, parse_block};
use snowline_types::{Id, proposervm};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("test hex")
}

/// Decodes an unsigned-tx vector (`u16 0 | u32 type | body`), checks the Go type name and that
/// encoding gives back the exact bytes.
fn check_unsigned(vector: &str, name: &str) -> UnsignedTx {
    let bytes = hex(vector);
    let tx: UnsignedTx = unmarshal(&bytes).expect("vector decodes");
    assert_eq!(tx.type_name(), name);
    assert_eq!(marshal(&tx), bytes, "{name} re-encodes byte-identically");
    assert_eq!(tx.bytes(), bytes);
    tx
}

#[test]
fn every_tx_vector_decodes_and_reencodes() {
    // vector: avalanchego vms/platformvm/txs/*_test.go (see pvm_data for each file).
    for (v, name) in [
        (BASE_SIMPLE, "BaseTx"),
        (BASE_COMPLEX, "BaseTx"),
        (APD_SIMPLE_PRIMARY, "AddPermissionlessDelegatorTx"),
        (APD_COMPLEX_PRIMARY, "AddPermissionlessDelegatorTx"),
        (APD_SIMPLE_SUBNET, "AddPermissionlessDelegatorTx"),
        (APD_COMPLEX_SUBNET, "AddPermissionlessDelegatorTx"),
        (APV_SIMPLE_PRIMARY, "AddPermissionlessValidatorTx"),
        (APV_COMPLEX_PRIMARY, "AddPermissionlessValidatorTx"),
        (APV_SIMPLE_SUBNET, "AddPermissionlessValidatorTx"),
        (APV_COMPLEX_SUBNET, "AddPermissionlessValidatorTx"),
        (CONVERT_SIMPLE, "ConvertSubnetToL1Tx"),
        (CONVERT_COMPLEX, "ConvertSubnetToL1Tx"),
        (DISABLE_L1, "DisableL1ValidatorTx"),
        (INCREASE_L1, "IncreaseL1ValidatorBalanceTx"),
        (REGISTER_L1, "RegisterL1ValidatorTx"),
        (REMOVE_SIMPLE, "RemoveSubnetValidatorTx"),
        (REMOVE_COMPLEX, "RemoveSubnetValidatorTx"),
        (SET_WEIGHT_L1, "SetL1ValidatorWeightTx"),
        (TRANSFER_OWNERSHIP_SIMPLE, "TransferSubnetOwnershipTx"),
        (TRANSFER_OWNERSHIP_COMPLEX, "TransferSubnetOwnershipTx"),
        (TRANSFORM_SIMPLE, "TransformSubnetTx"),
        (TRANSFORM_COMPLEX, "TransformSubnetTx"),
    ] {
        check_unsigned(v, name);
    }
}

#[test]
fn simple_base_tx_fields() {
    // vector: avalanchego vms/platformvm/txs/base_tx_test.go (TestBaseTxSerialization, simple).
    let UnsignedTx::BaseTx(BaseTx {
        network_id,
        blockchain_id,
        outputs,
        inputs,
        memo,
    }) = check_unsigned(BASE_SIMPLE, "BaseTx")
    else {
        panic!("not a BaseTx");
    };
    assert_eq!(network_id, 1);
    assert_eq!(blockchain_id, Id([0; 32]));
    assert!(outputs.is_empty() && memo.is_empty());
    let [input] = inputs.as_slice() else {
        panic!("one input")
    };
    assert_eq!(input.utxo_id.output_index, 1);
    assert_eq!(
        input.asset_id.to_string(),
        "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
    );
    let TransferableIn::Secp256k1(i) = &input.input else {
        panic!("plain input")
    };
    assert_eq!(i.amount, 1_000_000);
    assert_eq!(i.input.sig_indices, vec![5]);
}

#[test]
fn complex_base_tx_stakeable_locks() {
    // vector: avalanchego vms/platformvm/txs/base_tx_test.go (TestBaseTxSerialization, complex).
    let tx = check_unsigned(BASE_COMPLEX, "BaseTx");
    let outs = tx.outputs();
    assert_eq!(outs.len(), 2);
    let TransferableOut::StakeableLock(lock) = &outs[0].output else {
        panic!("locked output")
    };
    assert_eq!(lock.locktime, 87_654_321);
    assert_eq!(lock.output.amount, 1);
    assert_eq!(lock.output.owners.locktime, 12_345_678);
    assert_eq!(outs[1].output.stakeable_locktime(), 876_543_210);
    assert_eq!(outs[1].output.amount(), u64::MAX);
    let ins = &tx.base().expect("base").inputs;
    assert_eq!(ins.len(), 3);
    let TransferableIn::StakeableLock(lin) = &ins[1].input else {
        panic!("locked input")
    };
    assert_eq!(lin.locktime, 876_543_210);
    assert_eq!(lin.input.amount, 0xefff_ffff_ffff_ffff);
}

#[test]
fn register_l1_validator_fields() {
    // vector: avalanchego vms/platformvm/txs/register_l1_validator_tx_test.go.
    let UnsignedTx::RegisterL1ValidatorTx(tx) =
        check_unsigned(REGISTER_L1, "RegisterL1ValidatorTx")
    else {
        panic!("wrong type")
    };
    assert_eq!(tx.balance, 1_000_000_000);
    assert_eq!(tx.message, b"message");
    assert_eq!(tx.base.network_id, 10); // constants.UnitTestID
}

#[test]
fn banff_block_vectors() {
    // vector: avalanchego vms/platformvm/block/serialization_test.go (TestBanffBlockSerialization).
    for (v, name, ntx) in [
        (BANFF_PROPOSAL_BLOCK, "BanffProposalBlock", 1),
        (BANFF_COMMIT_BLOCK, "BanffCommitBlock", 0),
        (BANFF_ABORT_BLOCK, "BanffAbortBlock", 0),
        (BANFF_STANDARD_BLOCK, "BanffStandardBlock", 0),
    ] {
        let bytes = hex(v);
        let parsed = Block::parse(&bytes).expect("block vector decodes");
        assert_eq!(parsed.block.type_name(), name);
        assert_eq!(parsed.block.bytes(), bytes);
        assert_eq!(parsed.block.txs().len(), ntx);
        assert_eq!(parsed.tx_ids.len(), ntx);
        assert_eq!(parsed.block.timestamp(), Some(0));
        assert_eq!(parsed.id, Id::of_bytes(&bytes));
    }
    let parsed = Block::parse(&hex(BANFF_PROPOSAL_BLOCK)).expect("decodes");
    let tx = parsed.block.txs()[0];
    assert_eq!(tx.unsigned.type_name(), "AdvanceTimeTx");
    assert_eq!(parsed.tx_ids[0], tx.id());
}

#[test]
fn apricot_standard_block_from_platform_docs() {
    // vector: avalanchego vms/platformvm/service.md (platform.getBlock hex and JSON examples).
    let bytes = decode_hex_checksum(DOC_APRICOT_STANDARD_EXPORT).expect("api hex");
    let parsed = Block::parse(&bytes).expect("decodes");
    assert_eq!(
        parsed.id.to_string(),
        "d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG"
    );
    assert_eq!(parsed.block.type_name(), "ApricotStandardBlock");
    assert_eq!(
        parsed.block.parent_id().to_string(),
        "5615di9ytxujackzaXNrVuWQy5y8Yrt8chPCscMr5Ku9YxJ1S"
    );
    assert_eq!(parsed.block.height(), 1_000_001);
    assert_eq!(parsed.block.timestamp(), None);
    let txs = parsed.block.txs();
    let UnsignedTx::ExportTx(export) = &txs[0].unsigned else {
        panic!("export tx")
    };
    assert_eq!(
        export.destination_chain.to_string(),
        "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
    );
    assert_eq!(
        export.base.inputs[0].utxo_id.tx_id.to_string(),
        "DTqiagiMFdqbNQ62V2Gt1GddTVLkKUk2caGr4pyza9hTtsfta"
    );
    assert_eq!(export.base.inputs[0].input.amount(), 13_839_124_063);
    assert_eq!(export.exported_outputs[0].output.amount(), 13_838_124_063);
    // What it burns: its input less its exported output, in AVAX (mainnet's asset, as the JSON
    // example names it): 1 mAVAX, the static `TxFee` of the time; nothing in another asset.
    let avax: Id = "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"
        .parse()
        .expect("id");
    assert_eq!(export.base.inputs[0].asset_id, avax);
    assert_eq!(txs[0].unsigned.burned(&avax), 1_000_000);
    assert_eq!(txs[0].unsigned.burned(&Id([9; 32])), 0);
    assert_eq!(txs[0].credentials[0].signatures()[0][0], 0xc7);
    assert_eq!(parsed.tx_ids[0], txs[0].id());
    assert_eq!(parsed.block.bytes(), bytes);
}

#[test]
fn banff_standard_blocks_from_avm_docs() {
    // vector: avalanchego vms/avm/service.md (avm.getBlock / getBlockByHeight examples, which
    // are P-Chain Banff standard blocks; the first one's id is the documented blockID).
    let a = decode_hex_checksum(DOC_BANFF_STANDARD_ADD_DELEGATOR).expect("api hex");
    let pa = Block::parse(&a).expect("decodes");
    assert_eq!(
        pa.id.to_string(),
        "tXJ4xwmR8soHE6DzRNMQPtiwQvuYsHn6eLLBzo2moDqBquqy6"
    );
    assert_eq!(pa.block.type_name(), "BanffStandardBlock");
    assert_eq!(pa.block.txs()[0].unsigned.type_name(), "AddDelegatorTx");
    assert_eq!(pa.block.bytes(), a);
    let b = decode_hex_checksum(DOC_BANFF_STANDARD_IMPORT).expect("api hex");
    let pb = Block::parse(&b).expect("decodes");
    assert_eq!(pb.block.txs()[0].unsigned.type_name(), "ImportTx");
    assert_eq!(pb.block.bytes(), b);
    // Both are bare, so the wrapped-or-bare parser returns no proposer.
    assert!(parse_block(&a).expect("bare").proposer.is_none());
}

#[test]
fn wrapped_block_gives_proposer_details() {
    // The documented Banff block wrapped by proposervm's BuildUnsigned layout.
    let inner = decode_hex_checksum(DOC_BANFF_STANDARD_ADD_DELEGATOR).expect("api hex");
    let outer = proposervm::Block::build_unsigned(
        Id([7; 32]),
        1_700_000_000,
        42,
        proposervm::Epoch::default(),
        inner.clone(),
    );
    let parsed = parse_block(&outer.bytes).expect("wrapped");
    let details = parsed.proposer.expect("wrapped has details");
    assert_eq!(details.id, outer.id);
    assert_eq!(parsed.id(), outer.id);
    assert_eq!(details.parent_id, Id([7; 32]));
    assert_eq!(details.timestamp, Some(1_700_000_000));
    assert_eq!(details.p_chain_height, Some(42));
    assert_eq!(details.node_id, None);
    assert_eq!(
        parsed.block.id.to_string(),
        "tXJ4xwmR8soHE6DzRNMQPtiwQvuYsHn6eLLBzo2moDqBquqy6"
    );
    let option = proposervm::Block::build_option(Id([9; 32]), inner);
    let parsed = parse_block(&option.bytes).expect("option");
    let details = parsed.proposer.expect("option details");
    assert_eq!((details.timestamp, details.p_chain_height), (None, None));
    assert!(parse_block(&[0, 0, 0, 0, 0, 99]).is_err());
}

#[test]
fn unknown_and_nested_types_are_rejected() {
    // AdvanceTimeTx id 19 then 8 bytes is fine; id 6 (MintOutput, skipped) is not a tx.
    assert!(unmarshal::<UnsignedTx>(&hex("000000000013000000000000002a")).is_ok());
    assert!(unmarshal::<UnsignedTx>(&hex("000000000006000000000000002a")).is_err());
    // A stakeable LockOut must wrap a TransferOutput (7), not another LockOut (22).
    let mut out = hex("0000000000000001");
    out.extend_from_slice(&22u32.to_be_bytes());
    assert!(unmarshal::<TransferableOut>(&[&[0, 0, 0, 0, 0, 22][..], &out].concat()).is_err());
}
