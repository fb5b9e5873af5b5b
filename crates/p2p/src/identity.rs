//! A node's staking identity for P2P: the TLS certificate and its P-256 key, and the BLS key
//! that signs the claimed IP.

use blst::min_pk::SecretKey as BlsSecretKey;
use p256::ecdsa::SigningKey;
use p256::ecdsa::signature::hazmat::PrehashSigner;
use snowline_devnet::nodes::{BLS_POP_DST, DevnetNode};
use snowline_types::NodeId;
use snowline_types::hashing::sha256;

use crate::error::P2pError;

/// Staking certificate (DER), its ECDSA P-256 key and a BLS key.
#[derive(Clone)]
pub struct StakingIdentity {
    cert_der: Vec<u8>,
    node_id: NodeId,
    key: SigningKey,
    bls: BlsSecretKey,
}

impl std::fmt::Debug for StakingIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StakingIdentity")
            .field("node_id", &self.node_id)
            .finish_non_exhaustive()
    }
}

impl StakingIdentity {
    /// An identity from a DER certificate whose public key is the P-256 key with scalar
    /// `staking_secret`, and a BLS secret key (big-endian bytes).
    pub fn new(
        cert_der: Vec<u8>,
        staking_secret: &[u8; 32],
        bls_secret: &[u8; 32],
    ) -> Result<Self, P2pError> {
        let key = SigningKey::from_bytes(staking_secret.into())
            .map_err(|_| P2pError::Identity("invalid P-256 staking key"))?;
        let bls = BlsSecretKey::from_bytes(bls_secret)
            .map_err(|_| P2pError::Identity("invalid BLS secret key"))?;
        let point = key.verifying_key().to_encoded_point(false);
        if !contains(&cert_der, point.as_bytes()) {
            return Err(P2pError::Identity(
                "the certificate does not hold the staking key",
            ));
        }
        Ok(Self {
            node_id: NodeId::from_cert_der(&cert_der),
            cert_der,
            key,
            bls,
        })
    }

    /// The identity of a devnet node (its staking certificate and BLS key).
    pub fn from_devnet(node: &DevnetNode) -> Result<Self, P2pError> {
        Self::new(
            node.cert_der.clone(),
            &node.staking_secret_bytes(),
            &node.bls_secret_bytes(),
        )
    }

    /// The DER certificate.
    pub fn cert_der(&self) -> &[u8] {
        &self.cert_der
    }

    /// `ripemd160(sha256(cert))`.
    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The compressed BLS public key.
    pub fn bls_public_key(&self) -> [u8; 48] {
        self.bls.sk_to_pk().compress()
    }

    /// ECDSA (ASN.1 DER) signature of `sha256(msg)` with the staking key.
    pub fn tls_sign(&self, msg: &[u8]) -> Result<Vec<u8>, P2pError> {
        let sig: p256::ecdsa::Signature = self
            .key
            .sign_prehash(&sha256(msg))
            .map_err(|_| P2pError::Identity("P-256 signing failed"))?;
        Ok(sig.to_der().as_bytes().to_vec())
    }

    /// Compressed BLS signature of `msg` with the proof-of-possession DST (how avalanchego signs
    /// its IP).
    pub fn bls_sign_pop(&self, msg: &[u8]) -> [u8; 96] {
        self.bls.sign(msg, BLS_POP_DST, &[]).compress()
    }

    /// The staking key as PKCS#8 DER (RFC 5958 wrapping an RFC 5915 `ECPrivateKey` with its
    /// public key), the form rustls' ring provider loads.
    pub fn key_pkcs8_der(&self) -> Vec<u8> {
        let secret: [u8; 32] = self.key.to_bytes().into();
        let point = self.key.verifying_key().to_encoded_point(false);
        let mut bits = vec![0u8];
        bits.extend_from_slice(point.as_bytes());
        let ec_private_key = der(
            0x30,
            &[
                der(0x02, &[1]),
                der(0x04, &secret),
                der(0xa1, &der(0x03, &bits)),
            ]
            .concat(),
        );
        der(
            0x30,
            &[
                der(0x02, &[0]),
                der(
                    0x30,
                    &[EC_PUBLIC_KEY.as_slice(), PRIME256V1.as_slice()].concat(),
                ),
                der(0x04, &ec_private_key),
            ]
            .concat(),
        )
    }
}

/// `id-ecPublicKey` (1.2.840.10045.2.1).
const EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// `prime256v1` (1.2.840.10045.3.1.7).
const PRIME256V1: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

fn der(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    if body.len() < 0x80 {
        out.push(body.len() as u8);
    } else if body.len() < 0x100 {
        out.extend_from_slice(&[0x81, body.len() as u8]);
    } else {
        out.extend_from_slice(&[0x82, (body.len() >> 8) as u8, body.len() as u8]);
    }
    out.extend_from_slice(body);
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
