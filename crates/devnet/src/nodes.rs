//! The devnet's nodes: deterministic staking certificates (ECDSA P-256, self-signed X.509 with
//! RFC 6979 signatures) whose hash is the node id, and BLS12-381 keys (blst, min-pk) with their
//! proofs of possession, all derived from the seed.
//!
//! The certificate has avalanchego's shape (`staking.NewCertAndKeyBytes`: serial 0, empty issuer
//! and subject, no extensions) and passes `staking.ParseCertificate` (P-256 public key,
//! uncompressed point, under 2 KiB).

use blst::min_pk::{AggregateSignature, SecretKey};
use p256::ecdsa::signature::hazmat::PrehashSigner;
use p256::ecdsa::{Signature as P256Signature, SigningKey};
use snowline_types::hashing::sha256;
use snowline_types::staking_cert::{CertTime, self_signed_p256};
use snowline_types::{NodeId, ShortId};

use crate::error::DevnetError;

/// DST of BLS signatures (`bls.CiphersuiteSignature`).
pub const BLS_SIG_DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// DST of BLS proofs of possession (`bls.CiphersuiteProofOfPossession`).
pub const BLS_POP_DST: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// A node's identities: its staking certificate and key, and its BLS key.
#[derive(Clone)]
pub struct DevnetNode {
    /// DER certificate.
    pub cert_der: Vec<u8>,
    /// `hash160(cert_der)`.
    pub node_id: NodeId,
    staking_key: SigningKey,
    bls_key: SecretKey,
    /// Compressed BLS public key.
    pub bls_public_key: [u8; 48],
    /// Proof of possession: the BLS signature of the public key with [`BLS_POP_DST`].
    pub bls_pop: [u8; 96],
}

impl std::fmt::Debug for DevnetNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevnetNode")
            .field("node_id", &self.node_id)
            .finish_non_exhaustive()
    }
}

/// The devnet certificates' validity: 2000-01-01 to 2100-01-01, fixed so they stay the same
/// bytes from run to run.
const VALID_FROM: CertTime = CertTime::date(2000, 1, 1);
const VALID_UNTIL: CertTime = CertTime::date(2100, 1, 1);

fn derive(tag: &str, seed: u64, index: u32, attempt: u32) -> [u8; 32] {
    let mut pre = tag.as_bytes().to_vec();
    pre.extend_from_slice(&seed.to_be_bytes());
    pre.extend_from_slice(&index.to_be_bytes());
    pre.extend_from_slice(&attempt.to_be_bytes());
    sha256(&pre)
}

impl DevnetNode {
    /// Node `index` of the devnet with `seed`: the P-256 key is the first valid scalar among
    /// `sha256("snowline/devnet/staking/v1" ‖ seed ‖ index ‖ attempt)`, the BLS key is
    /// `KeyGen(sha256("snowline/devnet/bls/v1" ‖ seed ‖ index ‖ 0))`.
    pub fn new(seed: u64, index: u32) -> Result<Self, DevnetError> {
        let mut attempt = 0u32;
        let staking_key = loop {
            let bytes = derive("snowline/devnet/staking/v1", seed, index, attempt);
            match SigningKey::from_bytes((&bytes).into()) {
                Ok(k) => break k,
                Err(_) if attempt < 16 => attempt += 1,
                Err(_) => return Err(DevnetError::Crypto("no valid P-256 scalar")),
            }
        };
        let cert_der = self_signed_p256(&staking_key, VALID_FROM, VALID_UNTIL, &[])
            .map_err(|_| DevnetError::Crypto("P-256 signing failed"))?;
        let node_id = NodeId(ShortId(snowline_types::hashing::hash160(&cert_der)));

        let ikm = derive("snowline/devnet/bls/v1", seed, index, 0);
        let bls_key =
            SecretKey::key_gen(&ikm, &[]).map_err(|_| DevnetError::Crypto("BLS key_gen failed"))?;
        let bls_public_key = bls_key.sk_to_pk().compress();
        let bls_pop = bls_key.sign(&bls_public_key, BLS_POP_DST, &[]).compress();
        Ok(Self {
            cert_der,
            node_id,
            staking_key,
            bls_key,
            bls_public_key,
            bls_pop,
        })
    }

    /// The ECDSA DER signature of a 32-byte digest (RFC 6979, deterministic): what a proposervm
    /// block carries over `sha256(header)`.
    pub fn sign_digest(&self, digest: &[u8; 32]) -> Result<Vec<u8>, DevnetError> {
        let sig: P256Signature = self
            .staking_key
            .sign_prehash(digest)
            .map_err(|_| DevnetError::Crypto("P-256 signing failed"))?;
        Ok(sig.to_der().as_bytes().to_vec())
    }

    /// The BLS signature of `msg` with [`BLS_SIG_DST`] (a Warp signature share).
    pub fn bls_sign(&self, msg: &[u8]) -> blst::min_pk::Signature {
        self.bls_key.sign(msg, BLS_SIG_DST, &[])
    }

    /// The uncompressed (96-byte) BLS public key: Warp's canonical validator order sorts by it.
    pub fn bls_public_key_uncompressed(&self) -> [u8; 96] {
        self.bls_key.sk_to_pk().serialize()
    }

    /// The BLS secret key bytes (big-endian), for the devnet's key list.
    pub fn bls_secret_bytes(&self) -> [u8; 32] {
        self.bls_key.to_bytes()
    }

    /// The P-256 staking key bytes, for the devnet's key list.
    pub fn staking_secret_bytes(&self) -> [u8; 32] {
        self.staking_key.to_bytes().into()
    }
}

/// The compressed aggregate of BLS signature shares (plain point addition, `bls.AggregateSignatures`).
pub fn aggregate(sigs: &[blst::min_pk::Signature]) -> Result<[u8; 96], DevnetError> {
    let refs: Vec<&blst::min_pk::Signature> = sigs.iter().collect();
    AggregateSignature::aggregate(&refs, false)
        .map(|a| a.to_signature().compress())
        .map_err(|_| DevnetError::Crypto("BLS aggregation failed"))
}
