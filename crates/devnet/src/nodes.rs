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

fn der_len(out: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        out.push(len as u8);
    } else if len < 0x100 {
        out.extend_from_slice(&[0x81, len as u8]);
    } else {
        out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]);
    }
}

fn der(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 4);
    out.push(tag);
    der_len(&mut out, body.len());
    out.extend_from_slice(body);
    out
}

fn seq(parts: &[&[u8]]) -> Vec<u8> {
    der(0x30, &parts.concat())
}

/// `ecdsa-with-SHA256` (1.2.840.10045.4.3.2), no parameters.
const ECDSA_SHA256: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
/// `id-ecPublicKey` (1.2.840.10045.2.1).
const EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// `prime256v1` (1.2.840.10045.3.1.7).
const PRIME256V1: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

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
        let point = staking_key.verifying_key().to_encoded_point(false);
        let mut spk = vec![0u8];
        spk.extend_from_slice(point.as_bytes());
        let spki = seq(&[&seq(&[&EC_PUBLIC_KEY, &PRIME256V1]), &der(0x03, &spk)]);
        let alg = seq(&[&ECDSA_SHA256]);
        let validity = seq(&[&der(0x17, b"000101000000Z"), &der(0x18, b"21000101000000Z")]);
        let empty_name = seq(&[]);
        let tbs = seq(&[
            &der(0xa0, &der(0x02, &[2])),
            &der(0x02, &[0]),
            &alg,
            &empty_name,
            &validity,
            &empty_name,
            &spki,
        ]);
        let sig: P256Signature = staking_key
            .sign_prehash(&sha256(&tbs))
            .map_err(|_| DevnetError::Crypto("P-256 signing failed"))?;
        let mut sig_bits = vec![0u8];
        sig_bits.extend_from_slice(sig.to_der().as_bytes());
        let cert_der = seq(&[&tbs, &alg, &der(0x03, &sig_bits)]);
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
