//! Staking identities: loaded from avalanchego's staking files (checked against its local
//! network's published stakers), generated as avalanchego generates them, and refused when the
//! key is not the certificate's.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use p256::ecdsa::SigningKey;
use snowline_devnet::nodes::DevnetNode;
use snowline_p2p::handshake::{HandshakeConfig, build_handshake, check_handshake};
use snowline_p2p::self_signed::NewStakingCert;
use snowline_p2p::tls::peer_node_id;
use snowline_p2p::{P2pError, StakingFiles, StakingIdentity};
use snowline_types::NodeId;

/// Fixed unix time of the tests (2023-11-14).
const NOW: u64 = 1_700_000_000;

/// avalanchego v1.14.2 `staking/local/`: the local network's first staker (`staker1.crt`,
/// `staker1.key`, an RSA key in PKCS#1 PEM) and its BLS key (`signer1.key`), copied unchanged
/// into `tests/fixtures/avalanchego-local/`.
fn local_staker1() -> StakingFiles {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/avalanchego-local");
    StakingFiles {
        cert: dir.join("staker1.crt"),
        key: dir.join("staker1.key"),
        signer_key: dir.join("signer1.key"),
    }
}

/// A handshake signed by `id` passes the checks of a peer that sees `id`'s certificate: the
/// IP's TLS signature verifies with the certificate's key.
fn handshake_verifies(id: &StakingIdentity) {
    let addr: SocketAddr = "127.0.0.1:9651".parse().unwrap();
    let h = build_handshake(id, 12345, addr, NOW).unwrap();
    let info = check_handshake(&h, id.cert_der(), &HandshakeConfig::new(12345), NOW).unwrap();
    assert_eq!(info.node_id, id.node_id());
}

#[test]
fn avalanchego_local_staker1_loads_with_its_published_node_id_and_bls_key() {
    let id = local_staker1().load().unwrap();
    // avalanchego v1.14.2 `staking/local/README.md` ("Staker1", "Signer1") and
    // `genesis/genesis_local.json` (the first initial staker's `nodeID` and `signer.publicKey`).
    let expected: NodeId = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg".parse().unwrap();
    assert_eq!(id.node_id(), expected);
    assert_eq!(peer_node_id(id.cert_der()), expected);
    assert_eq!(
        hex::encode(id.bls_public_key()),
        "900c9b119b5c82d781d4b49be78c3fc7ae65f2b435b7ed9e3a8b9a03e475edff86d8a64827fec8db23a6f236afbf127d"
    );
    // The RSA staking key signs the IP with PKCS#1 v1.5 over SHA-256.
    handshake_verifies(&id);
}

#[test]
fn the_certificate_must_hold_the_staking_key() {
    let files = local_staker1();
    let staker2 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/avalanchego-local/staker2.crt");
    let mismatched = StakingFiles {
        cert: staker2,
        ..files.clone()
    };
    assert!(matches!(mismatched.load(), Err(P2pError::Identity(_))));

    let a = DevnetNode::new(1, 0).unwrap();
    let b = DevnetNode::new(1, 1).unwrap();
    let id = StakingIdentity::from_p256(
        a.cert_der.clone(),
        &a.staking_secret_bytes(),
        &a.bls_secret_bytes(),
    )
    .unwrap();
    assert_eq!(id.node_id(), a.node_id);
    assert_eq!(id.bls_public_key(), a.bls_public_key);
    let mixed = StakingIdentity::from_p256(
        a.cert_der.clone(),
        &b.staking_secret_bytes(),
        &a.bls_secret_bytes(),
    );
    assert!(matches!(mixed, Err(P2pError::Identity(_))));
}

#[test]
fn unreadable_or_malformed_files_say_which() {
    let dir = tempfile::tempdir().unwrap();
    let files = StakingFiles::in_dir(dir.path());
    match files.load() {
        Err(P2pError::StakingFile { path, .. }) => assert_eq!(path, files.cert),
        other => panic!("{other:?}"),
    }
    let staker1 = local_staker1();
    std::fs::write(&files.cert, std::fs::read(&staker1.cert).unwrap()).unwrap();
    std::fs::write(&files.key, b"not pem").unwrap();
    std::fs::write(
        &files.signer_key,
        std::fs::read(&staker1.signer_key).unwrap(),
    )
    .unwrap();
    assert!(matches!(files.load(), Err(P2pError::Identity(_))));
    std::fs::write(&files.key, std::fs::read(&staker1.key).unwrap()).unwrap();
    std::fs::write(&files.signer_key, [0u8; 31]).unwrap();
    assert!(matches!(files.load(), Err(P2pError::Identity(_))));
    std::fs::write(
        &files.signer_key,
        std::fs::read(&staker1.signer_key).unwrap(),
    )
    .unwrap();
    assert!(files.load().is_ok());
}

#[test]
fn absent_files_are_generated_once_then_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let files = StakingFiles::in_dir(&dir.path().join("staking"));
    let first = files.load_or_generate(NOW).unwrap();
    let cert_pem = std::fs::read_to_string(&files.cert).unwrap();
    assert!(cert_pem.starts_with("-----BEGIN CERTIFICATE-----\n"));
    assert!(
        std::fs::read_to_string(&files.key)
            .unwrap()
            .starts_with("-----BEGIN PRIVATE KEY-----\n")
    );
    assert_eq!(std::fs::read(&files.signer_key).unwrap().len(), 32);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&files.key), 0o400);
        assert_eq!(mode(&files.signer_key), 0o600);
    }
    // A second start reads the same identity back.
    let again = files.load_or_generate(NOW + 1).unwrap();
    assert_eq!(again.node_id(), first.node_id());
    assert_eq!(again.bls_public_key(), first.bls_public_key());
    assert_eq!(std::fs::read_to_string(&files.cert).unwrap(), cert_pem);
    handshake_verifies(&first);

    // Another directory, another identity.
    let other = StakingFiles::in_dir(&dir.path().join("other"))
        .load_or_generate(NOW)
        .unwrap();
    assert_ne!(other.node_id(), first.node_id());
}

#[test]
fn a_generated_certificate_has_avalanchegos_template() {
    let key = SigningKey::from_bytes(&[7u8; 32].into()).unwrap();
    let new = NewStakingCert::for_key(&key, NOW).unwrap();
    let cert = &new.cert_der;
    let find = |needle: &[u8]| cert.windows(needle.len()).any(|w| w == needle);
    // `staking.NewCertAndKeyBytes` (avalanchego v1.14.2 `staking/tls.go`): X.509 v3, serial 0,
    // empty issuer and subject, NotBefore `time.Date(2000, time.January, 0, ...)` (1999-12-31),
    // NotAfter 100 years on, KeyUsageDigitalSignature, BasicConstraintsValid.
    assert!(find(&[0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x01, 0x00]));
    assert!(find(b"\x17\x0d991231000000Z\x18\x0f21231114221320Z"));
    assert!(
        find(&[0x30, 0x00, 0x30, 0x20]),
        "empty issuer, then validity"
    );
    assert!(find(&[
        0x06, 0x03, 0x55, 0x1d, 0x0f, 0x01, 0x01, 0xff, 0x04, 0x04, 0x03, 0x02, 0x07, 0x80
    ]));
    assert!(find(&[
        0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x02, 0x30, 0x00
    ]));
    // Deterministic for a key and a time; the key is PKCS#8 around the SEC1 key and its point.
    assert_eq!(NewStakingCert::for_key(&key, NOW).unwrap().cert_der, *cert);
    let der = &new.key_pkcs8_der;
    assert_eq!(&der[..4], [0x30, 0x81, 0x87, 0x02]);
    assert_eq!(der.len(), 0x87 + 3);
    assert!(der.windows(32).any(|w| w == [7u8; 32]));
    let point = der.len() - 65;
    assert_eq!(der[point - 5..point], [0xa1, 0x44, 0x03, 0x42, 0x00]);
    assert_eq!(der[point], 0x04);

    let id = StakingIdentity::from_der(
        cert.clone(),
        rustls::pki_types::PrivateKeyDer::Pkcs8(der.clone().into()),
        &DevnetNode::new(1, 0).unwrap().bls_secret_bytes(),
    )
    .unwrap();
    assert_eq!(id.node_id(), NodeId::from_cert_der(cert));
    handshake_verifies(&id);
}
