//! secp256k1 keys and recoverable signatures as avalanchego uses them
//! (`utils/crypto/secp256k1/secp256k1.go`): private keys shown as `PrivateKey-` + cb58, 33-byte
//! compressed public keys, addresses `ripemd160(sha256(compressed key))`, and 65-byte signatures
//! `r ‖ s ‖ v` over a SHA-256 hash, deterministic (RFC 6979) and low-S.
//!
//! One deliberate difference: avalanchego reduces any 32 bytes modulo the curve order when it
//! loads a private key; here zero and values not below the order are rejected.

use std::fmt;
use std::str::FromStr;

use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};
use k256::elliptic_curve::PrimeField;
use k256::elliptic_curve::scalar::IsHigh;

use crate::cb58::{self, Cb58Error};
use crate::hashing::{hash160, sha256};
use crate::id::ShortId;

/// Bytes in a private key.
pub const PRIVATE_KEY_LEN: usize = 32;
/// Bytes in a compressed public key.
pub const PUBLIC_KEY_LEN: usize = 33;
/// Bytes in a recoverable signature `r ‖ s ‖ v`.
pub const SIGNATURE_LEN: usize = 65;
/// The prefix of a private key's string form.
pub const PRIVATE_KEY_PREFIX: &str = "PrivateKey-";

/// Why a key or signature was rejected; messages follow avalanchego where it has one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Secp256k1Error {
    /// A private key string without `PrivateKey-`.
    #[error("private key missing PrivateKey- prefix")]
    MissingKeyPrefix,
    /// The cb58 part of a private key string is malformed.
    #[error(transparent)]
    Cb58(#[from] Cb58Error),
    /// A private key that is not 32 bytes.
    #[error("private key has unexpected length, expected 32")]
    InvalidPrivateKeyLength,
    /// A 32-byte private key that is zero or not below the curve order.
    #[error("private key is zero or not below the secp256k1 order")]
    PrivateKeyOutOfRange,
    /// A public key that is not 33 bytes.
    #[error("public key has unexpected length, expected 33")]
    InvalidPublicKeyLength,
    /// 33 bytes that are not a compressed point on the curve.
    #[error("invalid public key")]
    InvalidPublicKey,
    /// A signature that is not 65 bytes.
    #[error("invalid signature length")]
    InvalidSignatureLength,
    /// `s` above half the order: the malleated twin of a valid signature.
    #[error("signature was mutated from its original format")]
    MutatedSignature,
    /// A recovery byte 4–7, which asks for a compressed key.
    #[error("wasn't expecting a compressed key")]
    CompressedRecoveryCode,
    /// Anything else that prevents recovery: `r`/`s` zero or too large, a recovery byte above 7,
    /// or no point for this `r`.
    #[error("invalid signature")]
    InvalidSignature,
    /// Signing produced no signature (a zero `r` or `s`; practically impossible).
    #[error("signing failed")]
    SigningFailed,
}

/// A secp256k1 private key.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateKey(SigningKey);

/// A secp256k1 public key, kept with its compressed encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PublicKey([u8; PUBLIC_KEY_LEN]);

impl PrivateKey {
    /// Loads a key from its 32 big-endian bytes (avalanchego `ToPrivateKey`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Secp256k1Error> {
        let arr: [u8; PRIVATE_KEY_LEN] = bytes
            .try_into()
            .map_err(|_| Secp256k1Error::InvalidPrivateKeyLength)?;
        SigningKey::from_bytes(&arr.into())
            .map(PrivateKey)
            .map_err(|_| Secp256k1Error::PrivateKeyOutOfRange)
    }

    /// A key derived deterministically from `seed`, for devnet generators and tests.
    ///
    /// Snowline-specific (avalanchego has no such derivation): the key is
    /// `sha256("snowline/secp256k1/seed/v1" ‖ u64_be(seed) ‖ u32_be(attempt))` for the first
    /// `attempt` = 0, 1, … that is a valid key (all but a ~2⁻¹²⁸ fraction are). Never use it
    /// for keys that guard real value.
    pub fn from_seed(seed: u64) -> Self {
        const DOMAIN: &[u8] = b"snowline/secp256k1/seed/v1";
        let mut attempt: u32 = 0;
        loop {
            let mut pre = Vec::with_capacity(DOMAIN.len() + 12);
            pre.extend_from_slice(DOMAIN);
            pre.extend_from_slice(&seed.to_be_bytes());
            pre.extend_from_slice(&attempt.to_be_bytes());
            if let Ok(key) = SigningKey::from_bytes(&sha256(&pre).into()) {
                return PrivateKey(key);
            }
            attempt = attempt.wrapping_add(1);
        }
    }

    /// The 32 big-endian bytes.
    pub fn to_bytes(&self) -> [u8; PRIVATE_KEY_LEN] {
        self.0.to_bytes().into()
    }

    /// The matching public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey::from_verifying_key(self.0.verifying_key())
    }

    /// The address of the matching public key.
    pub fn address(&self) -> ShortId {
        self.public_key().address()
    }

    /// Signs a 32-byte hash: `r ‖ s ‖ v`, deterministic (RFC 6979) and low-S, as avalanchego's
    /// `SignHash`.
    pub fn sign_hash(&self, hash: &[u8; 32]) -> Result<[u8; SIGNATURE_LEN], Secp256k1Error> {
        let (sig, recid) = self
            .0
            .sign_prehash_recoverable(hash)
            .map_err(|_| Secp256k1Error::SigningFailed)?;
        let mut out = [0u8; SIGNATURE_LEN];
        let (rs, v) = out.split_at_mut(64);
        rs.copy_from_slice(&sig.to_bytes());
        if let Some(slot) = v.first_mut() {
            *slot = recid.to_byte();
        }
        Ok(out)
    }

    /// Signs `sha256(msg)` (avalanchego `Sign`); transactions sign the hash of their unsigned
    /// bytes this way.
    pub fn sign(&self, msg: &[u8]) -> Result<[u8; SIGNATURE_LEN], Secp256k1Error> {
        self.sign_hash(&sha256(msg))
    }
}

impl fmt::Display for PrivateKey {
    /// `PrivateKey-` + cb58 of the 32 bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PRIVATE_KEY_PREFIX}{}", cb58::encode(&self.to_bytes()))
    }
}

impl fmt::Debug for PrivateKey {
    /// Shows the address only, so secrets do not end up in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrivateKey(address {})", self.address())
    }
}

impl FromStr for PrivateKey {
    type Err = Secp256k1Error;
    /// Parses `PrivateKey-` + cb58 (avalanchego `PrivateKey.UnmarshalText`).
    fn from_str(s: &str) -> Result<Self, Secp256k1Error> {
        let body = s
            .strip_prefix(PRIVATE_KEY_PREFIX)
            .ok_or(Secp256k1Error::MissingKeyPrefix)?;
        PrivateKey::from_bytes(&cb58::decode(body)?)
    }
}

impl serde::Serialize for PrivateKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for PrivateKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl PublicKey {
    /// Loads a 33-byte compressed public key (avalanchego `ToPublicKey`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Secp256k1Error> {
        let arr: [u8; PUBLIC_KEY_LEN] = bytes
            .try_into()
            .map_err(|_| Secp256k1Error::InvalidPublicKeyLength)?;
        // Only the SEC1 compressed tags: the `sec1` crate would also take 0x05 ("compact").
        if !matches!(arr.first(), Some(0x02 | 0x03)) {
            return Err(Secp256k1Error::InvalidPublicKey);
        }
        let key =
            VerifyingKey::from_sec1_bytes(&arr).map_err(|_| Secp256k1Error::InvalidPublicKey)?;
        Ok(Self::from_verifying_key(&key))
    }

    fn from_verifying_key(key: &VerifyingKey) -> Self {
        let point = key.to_encoded_point(true);
        let mut out = [0u8; PUBLIC_KEY_LEN];
        if point.as_bytes().len() == PUBLIC_KEY_LEN {
            out.copy_from_slice(point.as_bytes());
        }
        PublicKey(out)
    }

    /// The 33-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LEN] {
        self.0
    }

    /// The compressed encoding, borrowed.
    pub fn as_bytes(&self) -> &[u8; PUBLIC_KEY_LEN] {
        &self.0
    }

    /// The address: `ripemd160(sha256(compressed key))` (avalanchego `PubkeyBytesToAddress`).
    pub fn address(&self) -> ShortId {
        ShortId(hash160(&self.0))
    }

    /// The key's EVM address: the last 20 bytes of keccak-256 of the uncompressed point without
    /// its tag (avalanchego `PublicKey.EthAddress`), which the C-Chain's atomic txs credit and
    /// debit.
    pub fn eth_address(&self) -> [u8; 20] {
        let mut out = [0u8; 20];
        if let Ok(key) = VerifyingKey::from_sec1_bytes(&self.0) {
            let point = key.to_encoded_point(false);
            let hash = crate::hashing::keccak256(point.as_bytes().get(1..).unwrap_or(&[]));
            out.copy_from_slice(&hash[12..]);
        }
        out
    }

    /// Whether `sig` is this key's signature of `hash` (avalanchego `VerifyHash`: recover and
    /// compare).
    pub fn verify_hash(&self, hash: &[u8; 32], sig: &[u8]) -> bool {
        recover(hash, sig).is_ok_and(|k| k == *self)
    }

    /// Whether `sig` is this key's signature of `sha256(msg)` (avalanchego `Verify`).
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.verify_hash(&sha256(msg), sig)
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey(0x")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

/// Recovers the public key that signed `hash` (avalanchego `RecoverPublicKeyFromHash`).
///
/// `sig` must be 65 bytes `r ‖ s ‖ v`; high-S signatures are rejected as mutated, `v` 4–7 as
/// compressed, other bad values as invalid.
pub fn recover(hash: &[u8; 32], sig: &[u8]) -> Result<PublicKey, Secp256k1Error> {
    let sig: &[u8; SIGNATURE_LEN] = sig
        .try_into()
        .map_err(|_| Secp256k1Error::InvalidSignatureLength)?;
    let (rs, v) = sig.split_at(64);
    let (r, s) = rs.split_at(32);
    let s_bytes: [u8; 32] = s
        .try_into()
        .map_err(|_| Secp256k1Error::InvalidSignatureLength)?;
    let s_scalar = Option::<k256::Scalar>::from(k256::Scalar::from_repr(s_bytes.into()))
        .ok_or(Secp256k1Error::InvalidSignature)?;
    if bool::from(s_scalar.is_high()) {
        return Err(Secp256k1Error::MutatedSignature);
    }
    let v = v.first().copied().unwrap_or(u8::MAX);
    let recid = match v {
        0..=3 => RecoveryId::from_byte(v).ok_or(Secp256k1Error::InvalidSignature)?,
        4..=7 => return Err(Secp256k1Error::CompressedRecoveryCode),
        _ => return Err(Secp256k1Error::InvalidSignature),
    };
    let signature = Signature::from_scalars(
        <[u8; 32]>::try_from(r).map_err(|_| Secp256k1Error::InvalidSignatureLength)?,
        s_bytes,
    )
    .map_err(|_| Secp256k1Error::InvalidSignature)?;
    let key = VerifyingKey::recover_from_prehash(hash, &signature, recid)
        .map_err(|_| Secp256k1Error::InvalidSignature)?;
    Ok(PublicKey::from_verifying_key(&key))
}

/// Recovers the public key that signed `sha256(msg)` (avalanchego `RecoverPublicKey`).
pub fn recover_message(msg: &[u8], sig: &[u8]) -> Result<PublicKey, Secp256k1Error> {
    recover(&sha256(msg), sig)
}
