//! Warp messages, payloads and the ACP-77 P-Chain messages against avalanchego's vectors and the
//! real Fuji message in the Glacier OpenAPI examples.
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use pvm_data::*;
use snowline_types::Id;
use snowline_types::warp::{
    BitSetSignature, ConversionData, L1Message, Message, Payload, UnsignedMessage,
    conversion_validation_id, registration_validation_id,
};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("test hex")
}

fn seq(start: u8) -> Id {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = start + i as u8;
    }
    Id(b)
}

#[test]
fn p_chain_message_vectors() {
    // vector: avalanchego vms/platformvm/warp/message/payload_test.go (TestParse).
    let m = L1Message::parse(&hex(MSG_SUBNET_TO_L1_CONVERSION)).expect("decodes");
    assert_eq!(
        m,
        L1Message::SubnetToL1Conversion {
            conversion_id: seq(1)
        }
    );
    let m = L1Message::parse(&hex(MSG_L1_VALIDATOR_REGISTRATION)).expect("decodes");
    let L1Message::L1ValidatorRegistration(r) = m else {
        panic!("registration")
    };
    assert_eq!((r.validation_id, r.registered), (seq(1), false));
    let L1Message::L1ValidatorWeight(w) =
        L1Message::parse(&hex(MSG_L1_VALIDATOR_WEIGHT)).expect("decodes")
    else {
        panic!("weight")
    };
    assert_eq!(w.nonce, 0x2122_2324_2526_2728);
    assert_eq!(w.weight, 0x292a_2b2c_2d2e_2f30);
    let bytes = hex(MSG_REGISTER_L1_VALIDATOR);
    let L1Message::RegisterL1Validator(reg) = L1Message::parse(&bytes).expect("decodes") else {
        panic!("register")
    };
    assert_eq!(reg.subnet_id, seq(1));
    assert_eq!(reg.node_id.len(), 20);
    assert_eq!(reg.bls_public_key[0], 0x35);
    assert_eq!(reg.expiry, 0x6566_6768_696a_6b6c);
    assert_eq!(reg.remaining_balance_owner.threshold, 0x6d6e_6f70);
    assert_eq!(reg.disable_owner.threshold, 0x8586_8788);
    assert_eq!(reg.weight, 0x9d9e_9fa0_a1a2_a3a4);
    // The validation id of a registered validator is sha256 of the message bytes.
    assert_eq!(reg.bytes(), bytes);
    assert_eq!(reg.validation_id(), Id::of_bytes(&bytes));
    assert_eq!(registration_validation_id(&bytes), reg.validation_id());
    for v in [
        MSG_SUBNET_TO_L1_CONVERSION,
        MSG_REGISTER_L1_VALIDATOR,
        MSG_L1_VALIDATOR_REGISTRATION,
        MSG_L1_VALIDATOR_WEIGHT,
    ] {
        assert_eq!(L1Message::parse(&hex(v)).expect("decodes").bytes(), hex(v));
    }
    // payload_test.go "invalid message": an unknown codec version.
    assert!(L1Message::parse(&[255, 255, 255, 255]).is_err());
}

#[test]
fn conversion_id_vector() {
    // vector: avalanchego vms/platformvm/warp/message/subnet_to_l1_conversion_test.go.
    let bytes = hex(CONVERSION_DATA);
    let data: ConversionData = snowline_types::codec::unmarshal(&bytes).expect("decodes");
    assert_eq!(data.subnet_id, seq(1));
    assert_eq!(data.manager_chain_id, seq(0x21));
    assert_eq!(data.manager_address, vec![0x41]);
    assert_eq!(data.validators[0].weight, 0x8687_8889_8a8b_8c8d);
    assert_eq!(data.conversion_id(), Id::of_bytes(&bytes));
}

#[test]
fn conversion_validation_id_is_subnet_append_index() {
    // avalanchego ids/id.go `Append`: sha256(id ‖ u32_be(index)); used by
    // vms/platformvm/txs/executor for ConvertSubnetToL1Tx validators.
    let subnet = seq(1);
    let mut pre = subnet.0.to_vec();
    pre.extend_from_slice(&3u32.to_be_bytes());
    assert_eq!(conversion_validation_id(&subnet, 3), Id::of_bytes(&pre));
    assert_ne!(
        conversion_validation_id(&subnet, 3),
        conversion_validation_id(&subnet, 4)
    );
}

#[test]
fn glacier_signed_message() {
    // vector: shared/reference/openapi/glacier-data-api.json (signedMessage example; checked in
    // shared/reference/warp-icm-pchain.md §A7).
    let bytes = hex(GLACIER_SIGNED_MESSAGE);
    let msg = Message::parse(&bytes).expect("decodes");
    assert_eq!(msg.unsigned.network_id, 5);
    assert_eq!(
        msg.id().to_hex(),
        "c276b9aa0598f40efcb9d8063bb6102150c42ae630df7bea080618646f7c4a70"
    );
    assert_eq!(msg.signature.signers, vec![0x03]);
    assert_eq!(msg.signature.signer_indices().expect("minimal"), vec![0, 1]);
    assert_eq!(msg.signature.num_signers().expect("minimal"), 2);
    assert_eq!(msg.bytes(), bytes);
    let unsigned_bytes = msg.unsigned.bytes();
    assert_eq!(unsigned_bytes.len(), 972);
    assert_eq!(
        UnsignedMessage::parse(&unsigned_bytes).expect("ok"),
        msg.unsigned
    );
    let Payload::AddressedCall(call) = Payload::parse(&msg.unsigned.payload).expect("payload")
    else {
        panic!("addressed call")
    };
    assert_eq!(
        hex::encode(&call.source_address),
        "253b2784c75e510dd0ff1da844684a1ac0aa5fcf"
    );
    assert_eq!(call.payload.len(), 896);
}

#[test]
fn bitset_rules() {
    // avalanchego vms/platformvm/warp/signature.go NumSigners: no zero padding.
    let padded = BitSetSignature {
        signers: vec![0x00, 0x01],
        signature: [0; 96],
    };
    assert!(padded.num_signers().is_err());
    assert!(padded.signer_indices().is_err());
    assert_eq!(BitSetSignature::signers_from_indices(&[0, 1]), vec![0x03]);
    assert_eq!(
        BitSetSignature::signers_from_indices(&[8]),
        vec![0x01, 0x00]
    );
    assert!(BitSetSignature::signers_from_indices(&[]).is_empty());
    let s = BitSetSignature {
        signers: vec![0x01, 0x80],
        signature: [0; 96],
    };
    assert_eq!(s.signer_indices().expect("ok"), vec![7, 8]);
}

#[test]
fn hash_payload_layout() {
    // avalanchego vms/platformvm/warp/payload/hash.go: u16 0 | u32 0 | hash[32].
    let p = Payload::Hash(seq(1));
    let b = p.bytes();
    assert_eq!(&b[..6], &[0, 0, 0, 0, 0, 0]);
    assert_eq!(&b[6..], &seq(1).0);
    assert_eq!(Payload::parse(&b).expect("ok"), p);
}
