//! A node's staking identity for P2P: the TLS certificate and its private key (ECDSA P-256, or
//! RSA as older avalanchego nodes made them), and the BLS key that signs the claimed IP.

use std::sync::Arc;

use blst::min_pk::SecretKey as BlsSecretKey;
use rustls::SignatureScheme;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::{CertifiedKey, SigningKey};
use snowline_types::NodeId;

use crate::error::P2pError;

/// DST of BLS proofs of possession (`bls.CiphersuiteProofOfPossession`): how a node signs its IP.
pub const BLS_POP_DST: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// Staking certificate (DER), its private key and a BLS key.
#[derive(Clone)]
pub struct StakingIdentity {
    cert_der: Vec<u8>,
    node_id: NodeId,
    certified: Arc<CertifiedKey>,
    key: Arc<dyn SigningKey>,
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
    /// An identity from a DER certificate, its private key (PKCS#8, PKCS#1 RSA or SEC1 EC) and a
    /// BLS secret key (32 bytes, big-endian, as `localsigner.ToBytes`). The key must be the
    /// certificate's.
    pub fn from_der(
        cert_der: Vec<u8>,
        key_der: PrivateKeyDer<'static>,
        bls_secret: &[u8],
    ) -> Result<Self, P2pError> {
        let key = rustls::crypto::ring::sign::any_supported_type(&key_der)
            .map_err(|_| P2pError::Identity("unsupported staking key (not P-256 or RSA)"))?;
        let cert_key = crate::cert::subject_public_key_info(&cert_der)
            .ok_or(P2pError::Identity("unparseable staking certificate"))?;
        if key
            .public_key()
            .is_none_or(|k| k.as_ref() != cert_key.as_ref())
        {
            return Err(P2pError::Identity(
                "the certificate does not hold the staking key",
            ));
        }
        let bls = BlsSecretKey::from_bytes(bls_secret)
            .map_err(|_| P2pError::Identity("invalid BLS secret key"))?;
        Ok(Self {
            node_id: NodeId::from_cert_der(&cert_der),
            certified: Arc::new(CertifiedKey::new(
                vec![CertificateDer::from(cert_der.clone())],
                key.clone(),
            )),
            cert_der,
            key,
            bls,
        })
    }

    /// An identity from the contents of avalanchego's staking files: `staker.crt` (PEM
    /// `CERTIFICATE`), `staker.key` (PEM `PRIVATE KEY`, or `RSA PRIVATE KEY` / `EC PRIVATE
    /// KEY`) and `signer.key` (the raw 32-byte BLS secret key).
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8], bls_secret: &[u8]) -> Result<Self, P2pError> {
        let cert = CertificateDer::from_pem_slice(cert_pem)
            .map_err(|_| P2pError::Identity("no PEM CERTIFICATE in the certificate file"))?;
        let key = PrivateKeyDer::from_pem_slice(key_pem)
            .map_err(|_| P2pError::Identity("no PEM private key in the key file"))?;
        Self::from_der(cert.to_vec(), key, bls_secret)
    }

    /// An identity whose certificate's key is the P-256 key with scalar `staking_secret`.
    pub fn from_p256(
        cert_der: Vec<u8>,
        staking_secret: &[u8; 32],
        bls_secret: &[u8; 32],
    ) -> Result<Self, P2pError> {
        let key = crate::self_signed::p256_pkcs8_der(staking_secret)?;
        Self::from_der(cert_der, PrivateKeyDer::Pkcs8(key.into()), bls_secret)
    }

    /// The DER certificate.
    pub fn cert_der(&self) -> &[u8] {
        &self.cert_der
    }

    /// The certificate with its key, as the TLS configurations present them (built here, not
    /// by rustls, whose check parses only X.509 v3 certificates).
    pub fn certified_key(&self) -> Arc<CertifiedKey> {
        self.certified.clone()
    }

    /// `ripemd160(sha256(cert))`.
    pub fn node_id(&self) -> NodeId {
        self.node_id
    }

    /// The compressed BLS public key.
    pub fn bls_public_key(&self) -> [u8; 48] {
        self.bls.sk_to_pk().compress()
    }

    /// The staking key's signature of `msg` over SHA-256, as `staking.CheckSignature` verifies it:
    /// ECDSA (ASN.1 DER) for a P-256 key, PKCS#1 v1.5 for an RSA key.
    pub fn tls_sign(&self, msg: &[u8]) -> Result<Vec<u8>, P2pError> {
        self.key
            .choose_scheme(&[
                SignatureScheme::ECDSA_NISTP256_SHA256,
                SignatureScheme::RSA_PKCS1_SHA256,
            ])
            .ok_or(P2pError::Identity(
                "the staking key signs neither ECDSA P-256 nor RSA",
            ))?
            .sign(msg)
            .map_err(|_| P2pError::Identity("staking key signing failed"))
    }

    /// Compressed BLS signature of `msg` with the proof-of-possession DST (how avalanchego signs
    /// its IP).
    pub fn bls_sign_pop(&self, msg: &[u8]) -> [u8; 96] {
        self.bls.sign(msg, BLS_POP_DST, &[]).compress()
    }
}
