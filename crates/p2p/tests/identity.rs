//! Staking identities: the certificate must hold the key, the PKCS#8 encoding carries it.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use snowline_devnet::nodes::DevnetNode;
use snowline_p2p::tls::peer_node_id;
use snowline_p2p::{P2pError, StakingIdentity};

#[test]
fn the_certificate_must_hold_the_staking_key() {
    let a = DevnetNode::new(1, 0).unwrap();
    let b = DevnetNode::new(1, 1).unwrap();
    let id = StakingIdentity::new(
        a.cert_der.clone(),
        &a.staking_secret_bytes(),
        &a.bls_secret_bytes(),
    )
    .unwrap();
    assert_eq!(id.node_id(), a.node_id);
    assert_eq!(peer_node_id(id.cert_der()), a.node_id);
    assert_eq!(id.bls_public_key(), a.bls_public_key);
    let mixed = StakingIdentity::new(
        a.cert_der.clone(),
        &b.staking_secret_bytes(),
        &a.bls_secret_bytes(),
    );
    assert!(matches!(mixed, Err(P2pError::Identity(_))));
}

#[test]
fn pkcs8_wraps_the_sec1_key_with_its_public_point() {
    let node = DevnetNode::new(1, 0).unwrap();
    let der = StakingIdentity::from_devnet(&node).unwrap().key_pkcs8_der();
    // SEQUENCE { INTEGER 0, SEQUENCE { id-ecPublicKey, prime256v1 }, OCTET STRING { ECPrivateKey } }
    assert_eq!(&der[..4], [0x30, 0x81, 0x87, 0x02]);
    assert_eq!(der.len(), 0x87 + 3);
    let secret = node.staking_secret_bytes();
    assert!(der.windows(32).any(|w| w == secret));
    // The uncompressed public point ends the encoding: [1] { BIT STRING, no unused bits }.
    let point = der.len() - 65;
    assert_eq!(der[point - 5..point], [0xa1, 0x44, 0x03, 0x42, 0x00]);
    assert_eq!(der[point], 0x04);
}
