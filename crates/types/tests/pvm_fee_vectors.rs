//! One signed tx of every P-Chain type (Apricot to Helicon) from avalanchego's fee tests,
//! decoded, re-encoded byte-identically, and checked field by field for the types that had no
//! other vector (AdvanceTimeTx, RewardValidatorTx, AddValidatorTx, AddDelegatorTx,
//! AddSubnetValidatorTx, CreateChainTx, CreateSubnetTx, ImportTx, ExportTx).
//!
//! vector: avalanchego vms/platformvm/txs/fee/calculator_test.go (`txTests`, see
//! `pvm_data/fee_calculator.rs`).
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use pvm_data::{FEE_TXS, FeeTx};
use snowline_types::platformvm::txs::{DATA_API_TX_TYPES, UnsignedTx};
use snowline_types::platformvm::{Auth, Owner, ParsedTx, TransferableOut, Tx};
use snowline_types::{Id, NodeId, ShortId};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("test hex")
}

fn id(s: &str) -> Id {
    Id(hex(s).try_into().expect("32 bytes"))
}

fn node(s: &str) -> NodeId {
    NodeId(ShortId(hex(s).try_into().expect("20 bytes")))
}

/// The case whose name is `name` exactly.
fn case(name: &str) -> &'static FeeTx {
    FEE_TXS
        .iter()
        .find(|c| c.name == name)
        .expect("case exists")
}

/// Parses a case, checks re-encoding and the documented length, and returns the parsed tx.
fn parse(c: &FeeTx) -> ParsedTx {
    let bytes = hex(c.hex);
    let p = Tx::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", c.name));
    assert_eq!(p.tx.bytes(), bytes, "{} re-encodes", c.name);
    assert!(bytes.starts_with(p.unsigned_bytes()));
    assert_eq!(p.unsigned_bytes(), p.tx.unsigned_bytes().as_slice());
    if let Some(len) = c.bandwidth {
        // `gas.Bandwidth: N, // The length of the tx in bytes`
        assert_eq!(bytes.len(), len, "{} length", c.name);
    }
    p
}

#[test]
fn every_fee_test_tx_parses_and_reencodes() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go
    assert_eq!(FEE_TXS.len(), 25);
    let mut seen = Vec::new();
    for c in FEE_TXS {
        let p = parse(c);
        let name = p.tx.unsigned.type_name();
        assert!(
            c.name == name || c.name.starts_with(&format!("{name} for ")),
            "{} decoded as {name}",
            c.name
        );
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    // Every type id 12..=20, 23..=26 and 33..=42 appears.
    assert_eq!(seen.len(), 23);
}

#[test]
fn advance_time_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("AdvanceTimeTx")
    let p = parse(case("AdvanceTimeTx"));
    let UnsignedTx::AdvanceTimeTx(t) = &p.tx.unsigned else {
        panic!("not AdvanceTimeTx")
    };
    assert_eq!(t.time, 0x66a5_6fe7);
    assert!(p.tx.credentials.is_empty());
    assert!(p.tx.unsigned.base().is_none());
}

#[test]
fn reward_validator_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("RewardValidatorTx")
    let p = parse(case("RewardValidatorTx"));
    let UnsignedTx::RewardValidatorTx(t) = &p.tx.unsigned else {
        panic!("not RewardValidatorTx")
    };
    assert_eq!(
        t.tx_id,
        id("3d0ad12b8ee8928edf248ca91ca55600fb383f07c32bff1d6dec472b25cf59a7")
    );
    assert!(p.tx.credentials.is_empty());
    assert!(p.tx.unsigned.outputs().is_empty() && p.tx.unsigned.stake().is_empty());
}

#[test]
fn add_validator_tx_with_stakeable_locked_stake() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("AddValidatorTx", mainnet)
    let p = parse(case("AddValidatorTx"));
    let UnsignedTx::AddValidatorTx(t) = &p.tx.unsigned else {
        panic!("not AddValidatorTx")
    };
    assert_eq!(t.base.network_id, 1);
    assert!(t.base.outputs.is_empty());
    assert_eq!(t.base.inputs.len(), 1);
    assert_eq!(
        t.validator.node_id,
        node("b3da694c70b8bee4478051313621c3f2282088b4")
    );
    assert_eq!(
        (t.validator.start, t.validator.end),
        (0x5f69_76d5, 0x614a_aa19)
    );
    assert_eq!(t.validator.weight, 2_000_000_000_000); // 2000 AVAX
    let [stake] = t.stake.as_slice() else {
        panic!("one stake output")
    };
    let TransferableOut::StakeableLock(lock) = &stake.output else {
        panic!("stakeable lock")
    };
    assert_eq!(lock.locktime, 0x6134_0880);
    assert_eq!(lock.output.amount, t.validator.weight);
    let Owner::Secp256k1(owner) = &t.rewards_owner;
    assert_eq!(owner.threshold, 1);
    assert_eq!(
        owner.addrs,
        [ShortId(
            hex("20868ed5ac611711b33d2e4f97085347415db1c4")
                .try_into()
                .expect("20")
        )]
    );
    assert_eq!(t.delegation_shares, 40_000); // 4 %
    assert_eq!(p.tx.credentials.len(), 1);
}

#[test]
fn add_delegator_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("AddDelegatorTx", Fuji)
    let p = parse(case("AddDelegatorTx"));
    let UnsignedTx::AddDelegatorTx(t) = &p.tx.unsigned else {
        panic!("not AddDelegatorTx")
    };
    assert_eq!(t.base.network_id, 5);
    assert_eq!(
        t.validator.node_id,
        node("c51c552c49174e2e18b392049d3e4cd48b11490f")
    );
    assert_eq!(
        (t.validator.start, t.validator.end),
        (0x5f69_2452, 0x5f73_b052)
    );
    assert_eq!(t.validator.weight, 4_000_000_000);
    assert_eq!(
        t.stake.iter().map(|o| o.output.amount()).sum::<u64>(),
        t.validator.weight
    );
    assert_eq!(p.tx.unsigned.stake().len(), 1);
}

#[test]
fn add_subnet_validator_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("AddSubnetValidatorTx")
    let p = parse(case("AddSubnetValidatorTx"));
    let UnsignedTx::AddSubnetValidatorTx(t) = &p.tx.unsigned else {
        panic!("not AddSubnetValidatorTx")
    };
    assert_eq!(t.base.network_id, 12345);
    assert_eq!(
        t.validator.validator.node_id,
        node("c582872c37c81efa2c94ea347af49cdc23a830aa")
    );
    assert_eq!(t.validator.validator.weight, 0xc137);
    assert_eq!(
        t.validator.subnet_id,
        id("97ea88082100491617204ed70c19fc1a2fce4474bee962904359d0b59e84c124")
    );
    let Auth::Secp256k1(auth) = &t.subnet_auth;
    assert_eq!(auth.sig_indices, [0]);
    // One credential for the input, one for the subnet authorization.
    assert_eq!(p.tx.credentials.len(), 2);
}

#[test]
fn create_chain_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("CreateChainTx")
    let p = parse(case("CreateChainTx"));
    let UnsignedTx::CreateChainTx(t) = &p.tx.unsigned else {
        panic!("not CreateChainTx")
    };
    assert_eq!(
        t.subnet_id,
        id("97ea88082100491617204ed70c19fc1a2fce4474bee962904359d0b59e84c124")
    );
    assert_eq!(t.chain_name, "let there");
    let mut vm = [0u8; 32];
    vm[..4].copy_from_slice(b"xsvm");
    assert_eq!(t.vm_id, Id(vm));
    assert!(t.fx_ids.is_empty());
    assert_eq!(t.genesis_data.len(), 42);
    let Auth::Secp256k1(auth) = &t.subnet_auth;
    assert_eq!(auth.sig_indices, [0]);
    assert_eq!(p.tx.credentials.len(), 2);
}

#[test]
fn create_subnet_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("CreateSubnetTx")
    let p = parse(case("CreateSubnetTx"));
    let UnsignedTx::CreateSubnetTx(t) = &p.tx.unsigned else {
        panic!("not CreateSubnetTx")
    };
    let Owner::Secp256k1(owner) = &t.owner;
    assert_eq!((owner.locktime, owner.threshold), (0, 1));
    assert_eq!(
        owner.addrs,
        [ShortId(
            hex("3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c")
                .try_into()
                .expect("20")
        )]
    );
    assert_eq!(t.base.outputs.len(), 1);
    assert_eq!(t.base.inputs.len(), 1);
}

#[test]
fn import_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("ImportTx")
    let p = parse(case("ImportTx"));
    let UnsignedTx::ImportTx(t) = &p.tx.unsigned else {
        panic!("not ImportTx")
    };
    assert!(t.base.inputs.is_empty());
    assert_eq!(
        t.source_chain,
        id("d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf")
    );
    let [input] = t.imported_inputs.as_slice() else {
        panic!("one imported input")
    };
    assert_eq!(input.input.amount(), 1_000_000_000);
    // Imported 1 AVAX, paid the static fee, kept the rest.
    assert_eq!(t.base.outputs[0].output.amount(), 0x3b8b_87c0);
}

#[test]
fn export_tx() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go ("ExportTx")
    let p = parse(case("ExportTx"));
    let UnsignedTx::ExportTx(t) = &p.tx.unsigned else {
        panic!("not ExportTx")
    };
    assert_eq!(
        t.destination_chain,
        id("9d0775f450604bd2fbc49ce0c5c1c6dfeb2dc2acb8c92c26eeae6e6df4502b19")
    );
    let [out] = t.exported_outputs.as_slice() else {
        panic!("one exported output")
    };
    assert_eq!(out.output.amount(), 1_000_000_000);
    assert_eq!(out.output.owners().threshold, 2);
    // Exported outputs leave the chain: not among the tx's P-Chain outputs.
    assert_eq!(p.tx.unsigned.outputs().len(), 1);
}

#[test]
fn data_api_tx_types_cover_every_listed_type() {
    // vector: /work/shared/reference/openapi/glacier-data-api.json `PChainTransactionType`
    // (Glacier's enumeration, in its order); the Go names come from avalanchego
    // vms/platformvm/txs/fee/calculator_test.go.
    for c in FEE_TXS {
        let p = parse(c);
        let api = p.tx.unsigned.data_api_type();
        assert!(DATA_API_TX_TYPES.contains(&api), "{api}");
        match p.tx.unsigned.type_id() {
            40..=42 => assert_eq!(api, "UNKNOWN", "Helicon types are not enumerated yet"),
            _ => assert_eq!(api, p.tx.unsigned.type_name()),
        }
    }
}

/// The ids a tx refers to: the txs whose UTXOs it spends and the subnet it acts on.
fn referenced_ids(tx: &UnsignedTx) -> Vec<Id> {
    let mut out: Vec<Id> = tx
        .base()
        .map(|b| b.inputs.iter().map(|i| i.utxo_id.tx_id).collect())
        .unwrap_or_default();
    match tx {
        UnsignedTx::AddSubnetValidatorTx(t) => out.push(t.validator.subnet_id),
        UnsignedTx::CreateChainTx(t) => out.push(t.subnet_id),
        UnsignedTx::RemoveSubnetValidatorTx(t) => out.push(t.subnet_id),
        UnsignedTx::TransformSubnetTx(t) => out.push(t.subnet_id),
        UnsignedTx::TransferSubnetOwnershipTx(t) => out.push(t.subnet_id),
        UnsignedTx::AddPermissionlessValidatorTx(t) => out.push(t.subnet_id),
        UnsignedTx::AddPermissionlessDelegatorTx(t) => out.push(t.subnet_id),
        _ => {}
    }
    out
}

#[test]
fn tx_ids_match_the_ids_later_txs_spend() {
    // vector: avalanchego vms/platformvm/txs/fee/calculator_test.go: the cases were issued in
    // sequence on one network, so each later tx spends (or names the subnet created by) an
    // earlier one. Our id of the earlier tx (sha256 of its signed bytes) must be what the later
    // tx, signed by avalanchego, refers to.
    let links = [
        (
            "CreateChainTx",
            "AddPermissionlessValidatorTx for primary network",
        ),
        ("CreateSubnetTx", "AddPermissionlessValidatorTx for subnet"),
        (
            "TransformSubnetTx",
            "AddPermissionlessValidatorTx for subnet",
        ),
        (
            "AddPermissionlessValidatorTx for primary network",
            "AddPermissionlessDelegatorTx for primary network",
        ),
        ("CreateSubnetTx", "AddPermissionlessDelegatorTx for subnet"),
        (
            "AddPermissionlessDelegatorTx for primary network",
            "AddSubnetValidatorTx",
        ),
        ("CreateSubnetTx", "AddSubnetValidatorTx"),
        ("AddSubnetValidatorTx", "BaseTx"),
        ("CreateSubnetTx", "CreateChainTx"),
        ("BaseTx", "ExportTx"),
        ("CreateSubnetTx", "RemoveSubnetValidatorTx"),
        ("ExportTx", "RemoveSubnetValidatorTx"),
        ("CreateSubnetTx", "TransformSubnetTx"),
        ("CreateSubnetTx", "TransferSubnetOwnershipTx"),
        ("RemoveSubnetValidatorTx", "TransferSubnetOwnershipTx"),
        ("RegisterL1ValidatorTx", "SetL1ValidatorWeightTx"),
        ("SetL1ValidatorWeightTx", "IncreaseL1ValidatorBalanceTx"),
        ("IncreaseL1ValidatorBalanceTx", "DisableL1ValidatorTx"),
        ("CreateChainTx", "AddAutoRenewedValidatorTx"),
        ("CreateChainTx", "SetAutoRenewedValidatorConfigTx"),
    ];
    for (producer, consumer) in links {
        let id = parse(case(producer)).id;
        let refs = referenced_ids(&parse(case(consumer)).tx.unsigned);
        assert!(refs.contains(&id), "{consumer} refers to {producer} ({id})");
    }
    // The subnet id is the CreateSubnetTx id.
    assert_eq!(
        parse(case("CreateSubnetTx")).id,
        id("97ea88082100491617204ed70c19fc1a2fce4474bee962904359d0b59e84c124")
    );
}
