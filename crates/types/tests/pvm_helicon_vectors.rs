//! Helicon (ACP-236) auto-renewed staking txs, type ids 40–42, against avalanchego's
//! serialization tests (each constant in `pvm_data/helicon.rs` names its file).
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use pvm_data::{ADD_AUTO_RENEWED, REWARD_AUTO_RENEWED, SET_AUTO_RENEWED_CONFIG};
use snowline_types::codec::{marshal, unmarshal};
use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{Auth, Owner, Signer};
use snowline_types::{Id, ShortId};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("test hex")
}

fn check(vector: &str, type_id: u32, name: &str) -> UnsignedTx {
    let bytes = hex(vector);
    let tx: UnsignedTx = unmarshal(&bytes).expect("vector decodes");
    assert_eq!(tx.type_id(), type_id);
    assert_eq!(tx.type_name(), name);
    assert_eq!(marshal(&tx), bytes, "{name} re-encodes byte-identically");
    tx
}

const TX_ID: [u8; 32] = [
    0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
    0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
];

#[test]
fn add_auto_renewed_validator_tx() {
    // vector: avalanchego vms/platformvm/txs/add_auto_renewed_validator_tx_test.go
    // (TestAddAutoRenewedValidatorTxSerialization)
    let UnsignedTx::AddAutoRenewedValidatorTx(t) =
        check(ADD_AUTO_RENEWED, 40, "AddAutoRenewedValidatorTx")
    else {
        panic!("wrong type")
    };
    assert_eq!(t.base.network_id, 1);
    assert_eq!(t.base.inputs.len(), 1);
    assert_eq!(t.base.inputs[0].utxo_id.tx_id, Id(TX_ID));
    assert_eq!(
        t.node_id,
        [
            0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
            0x77, 0x88, 0x11, 0x22, 0x33, 0x44
        ]
    );
    assert!(matches!(t.signer, Signer::ProofOfPossession(_)));
    assert_eq!(t.stake.len(), 1);
    assert_eq!(t.stake[0].output.amount(), 2_000_000_000_000);
    let addr = ShortId([
        0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
        0xbb, 0x44, 0x55, 0x66, 0x77,
    ]);
    for owner in [
        &t.validator_rewards_owner,
        &t.delegator_rewards_owner,
        &t.validator_authority,
    ] {
        let Owner::Secp256k1(o) = owner;
        assert_eq!((o.threshold, o.addrs.as_slice()), (1, [addr].as_slice()));
    }
    assert_eq!(t.delegation_shares, 1_000_000);
    assert_eq!(t.auto_compound_reward_shares, 500_000);
    assert_eq!(t.period, 200 * 24 * 60 * 60);
    let tx = UnsignedTx::AddAutoRenewedValidatorTx(t);
    assert_eq!(tx.stake().len(), 1);
    assert!(tx.base().is_some());
}

#[test]
fn set_auto_renewed_validator_config_tx() {
    // vector: avalanchego vms/platformvm/txs/set_auto_renewed_validator_config_tx_test.go
    // (TestSetAutoRenewedValidatorConfigTxSerialization)
    let UnsignedTx::SetAutoRenewedValidatorConfigTx(t) = check(
        SET_AUTO_RENEWED_CONFIG,
        41,
        "SetAutoRenewedValidatorConfigTx",
    ) else {
        panic!("wrong type")
    };
    assert_eq!(t.tx_id, Id(TX_ID));
    let Auth::Secp256k1(auth) = &t.auth;
    assert_eq!(auth.sig_indices, [1]);
    assert_eq!(t.auto_compound_reward_shares, 500_000);
    assert_eq!(t.period, 0x0107_ac00);
}

#[test]
fn reward_auto_renewed_validator_tx() {
    // vector: avalanchego vms/platformvm/txs/reward_auto_renewed_validator_tx_test.go
    // (TestRewardAutoRenewedValidatorTxSerialization)
    let tx = check(REWARD_AUTO_RENEWED, 42, "RewardAutoRenewedValidatorTx");
    assert!(tx.base().is_none());
    let UnsignedTx::RewardAutoRenewedValidatorTx(t) = tx else {
        panic!("wrong type")
    };
    assert_eq!(t.tx_id, Id(TX_ID));
    assert_eq!(t.timestamp, 1_234_567_890);
}

#[test]
fn truncated_helicon_vectors_fail_cleanly() {
    // vector: the three avalanchego Helicon serialization tests above, cut short.
    for v in [
        ADD_AUTO_RENEWED,
        SET_AUTO_RENEWED_CONFIG,
        REWARD_AUTO_RENEWED,
    ] {
        let bytes = hex(v);
        for n in 0..bytes.len() {
            assert!(unmarshal::<UnsignedTx>(&bytes[..n]).is_err(), "prefix {n}");
        }
    }
}
