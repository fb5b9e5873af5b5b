//! Byte layouts against reference facts: the signer bitset (avalanchego `utils/set/bits.go`),
//! the canonical order (`snow/validators/warp.go`) and the Glacier OpenAPI's real Fuji message.
#![allow(clippy::unwrap_used)]

#[path = "common/glacier.rs"]
mod glacier;

use std::collections::BTreeMap;

use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_types::NodeId;
use snowline_types::warp::{BitSetSignature, Message, UnsignedMessage};
use snowline_warp::{
    CanonicalSet, NodeValidator, PublicKey, Signature, VerifyError, assemble, signed_message,
    verify_message,
};

#[test]
fn bitset_bytes_follow_big_int_bytes() {
    // utils/set/bits.go: `Bytes()` is `big.Int.Bytes()` of the set, bit i = element i, so
    // minimal big-endian with index 0 the least significant bit of the last byte.
    let cases: &[(&[usize], &[u8])] = &[
        (&[], &[]),
        (&[0], &[0x01]),
        (&[0, 1], &[0x03]),
        (&[7], &[0x80]),
        (&[8], &[0x01, 0x00]),
        (&[0, 9], &[0x02, 0x01]),
        (&[1, 15, 16], &[0x01, 0x80, 0x02]),
        (&[99], &[0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ];
    for (indices, bytes) in cases {
        assert_eq!(
            BitSetSignature::signers_from_indices(indices),
            bytes.to_vec(),
            "{indices:?}"
        );
        let sig = BitSetSignature {
            signers: bytes.to_vec(),
            signature: [0; 96],
        };
        assert_eq!(sig.signer_indices().unwrap(), indices.to_vec());
    }
    // `BitsFromBytes(s).Bytes()` shorter than `s` is `ErrInvalidBitSet` (warp/signature.go).
    let padded = BitSetSignature {
        signers: vec![0x00, 0x03],
        signature: [0; 96],
    };
    assert!(padded.signer_indices().is_err());
}

#[test]
fn glacier_example_layout() {
    // vector: shared/reference/openapi/glacier-data-api.json, checked in
    // shared/reference/warp-icm-pchain.md §A7.
    let signed = glacier::signed_message();
    let request = glacier::request_message();
    assert_eq!(signed.len(), 1077);
    let msg = Message::parse(&signed).unwrap();
    assert_eq!(msg.signature.signers, vec![0x03]);
    assert_eq!(msg.signature.signer_indices().unwrap(), vec![0, 1]);

    // The request is ABI `bytes`: offset 0x20, length 972, then the unsigned message.
    assert_eq!(request[31], 0x20);
    assert_eq!(u32::from_be_bytes(request[60..64].try_into().unwrap()), 972);
    let unsigned = UnsignedMessage::parse(&request[64..64 + 972]).unwrap();
    assert_eq!(unsigned, msg.unsigned);
    assert_eq!(
        unsigned.id().to_hex(),
        "c276b9aa0598f40efcb9d8063bb6102150c42ae630df7bea080618646f7c4a70"
    );

    // Our builder, given the same signature and signer indices, gives the same bytes.
    let built = signed_message(&unsigned, &[0, 1], msg.signature.signature);
    assert_eq!(built.bytes(), signed);
    // The layout: unsigned ‖ typeID 0 ‖ len 1 ‖ 0x03 ‖ 96-byte signature.
    assert_eq!(&signed[..972], unsigned.bytes().as_slice());
    assert_eq!(&signed[972..981], &[0, 0, 0, 0, 0, 0, 0, 1, 0x03]);
    assert_eq!(&signed[981..], msg.signature.signature.as_slice());
    // The signature is a valid G2 point (its pairing needs Fuji's validator set at some height).
    assert!(Signature::from_bytes(&msg.signature.signature).is_ok());
}

fn devnet_set(n: u32) -> (Vec<DevnetNode>, CanonicalSet) {
    let nodes: Vec<DevnetNode> = (0..n).map(|i| DevnetNode::new(3, i).unwrap()).collect();
    let set = CanonicalSet::flatten(nodes.iter().enumerate().map(|(i, d)| NodeValidator {
        node_id: d.node_id,
        public_key: Some(PublicKey::from_compressed(&d.bls_public_key).unwrap()),
        weight: 10 + i as u64,
    }))
    .unwrap();
    (nodes, set)
}

fn devnet_node_of(nodes: &[DevnetNode], id: &NodeId) -> DevnetNode {
    nodes.iter().find(|n| &n.node_id == id).unwrap().clone()
}

#[test]
fn assembled_message_verifies_only_in_canonical_order() {
    let (nodes, set) = devnet_set(8);
    let unsigned = UnsignedMessage {
        network_id: 12345,
        source_chain_id: snowline_types::Id([7; 32]),
        payload: b"hello".to_vec(),
    };
    let bytes = unsigned.bytes();
    let shares: BTreeMap<usize, Signature> = [1usize, 4, 5, 6, 7]
        .into_iter()
        .map(|i| {
            let node = devnet_node_of(&nodes, &set.validators[i].node_ids[0]);
            (i, Signature::from(node.bls_sign(&bytes)))
        })
        .collect();
    let msg = assemble(&unsigned, &set, &shares).unwrap();
    assert_eq!(msg.signature.signers, vec![0b1111_0010]);
    // Weights 10..=17 (total 108): any five of them weigh 60..=73, between 50% and 70%.
    verify_message(&msg, &set, 50).unwrap();

    // Independently with blst: the aggregate of the signers' keys verifies the signature.
    let keys: Vec<blst::min_pk::PublicKey> = [1usize, 4, 5, 6, 7]
        .iter()
        .map(|&i| {
            blst::min_pk::PublicKey::uncompress(&set.validators[i].public_key.to_compressed())
                .unwrap()
        })
        .collect();
    let refs: Vec<&blst::min_pk::PublicKey> = keys.iter().collect();
    let agg = blst::min_pk::AggregatePublicKey::aggregate(&refs, true)
        .unwrap()
        .to_public_key();
    let sig = blst::min_pk::Signature::uncompress(&msg.signature.signature).unwrap();
    assert_eq!(
        sig.verify(true, &bytes, BLS_SIG_DST, &[], &agg, true),
        blst::BLST_ERROR::BLST_SUCCESS
    );

    // Indices in the order of the compressed keys (or input order) would not verify.
    let mut shuffled = set.clone();
    shuffled.validators.reverse();
    assert_eq!(
        verify_message(&msg, &shuffled, 50),
        Err(VerifyError::InvalidSignature)
    );
    assert_eq!(
        verify_message(&msg, &set, 70),
        Err(VerifyError::InsufficientWeight)
    );
}
