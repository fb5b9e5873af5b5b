//! Turning verified signature shares into a signed Warp message, and checking a signed message
//! against a canonical set the way avalanchego's verifier does (`warp/signature.go`).

use std::collections::BTreeMap;

use snowline_types::warp::{BitSetSignature, Message, UnsignedMessage};

use crate::bls::{self, BlsError, PublicKey, Signature};
use crate::quorum::{QUORUM_DENOMINATOR, verify_weight};
use crate::validators::CanonicalSet;

/// Why a signed message does not verify (avalanchego `warp/signature.go` errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A bitset with a leading zero byte (`ErrInvalidBitSet`).
    #[error("bitset is invalid")]
    InvalidBitSet,
    /// A signer index past the canonical set (`ErrUnknownValidator`).
    #[error("unknown validator")]
    UnknownValidator,
    /// Signed weight below the quorum (`ErrInsufficientWeight`).
    #[error("signature weight is insufficient")]
    InsufficientWeight,
    /// The signature bytes are not a G2 point (`ErrParseSignature`).
    #[error("failed to parse signature")]
    ParseSignature,
    /// The pairing check fails (`ErrInvalidSignature`).
    #[error("invalid signature")]
    InvalidSignature,
}

/// The signed message of `unsigned` with an aggregate `signature` of the validators at
/// `signer_indices` (canonical indices; the bitset is minimal big-endian).
pub fn signed_message(
    unsigned: &UnsignedMessage,
    signer_indices: &[usize],
    signature: [u8; bls::SIGNATURE_LEN],
) -> Message {
    Message {
        unsigned: unsigned.clone(),
        signature: BitSetSignature {
            signers: BitSetSignature::signers_from_indices(signer_indices),
            signature,
        },
    }
}

/// Aggregates the shares (canonical index → verified signature), checks the aggregate against
/// the signers' aggregate key and returns the signed message.
pub fn assemble(
    unsigned: &UnsignedMessage,
    set: &CanonicalSet,
    shares: &BTreeMap<usize, Signature>,
) -> Result<Message, AssembleError> {
    let mut keys: Vec<PublicKey> = Vec::with_capacity(shares.len());
    let mut sigs: Vec<Signature> = Vec::with_capacity(shares.len());
    for (&i, sig) in shares {
        let v = set
            .validators
            .get(i)
            .ok_or(AssembleError::UnknownValidator(i))?;
        keys.push(v.public_key);
        sigs.push(*sig);
    }
    let aggregate = bls::aggregate_signatures(&sigs)?;
    let aggregate_key = bls::aggregate_public_keys(&keys)?;
    if !aggregate.verify(&aggregate_key, &unsigned.bytes()) {
        return Err(AssembleError::AggregateInvalid);
    }
    let indices: Vec<usize> = shares.keys().copied().collect();
    Ok(signed_message(unsigned, &indices, aggregate.to_bytes()))
}

/// Why shares could not be assembled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AssembleError {
    /// A share for an index outside the canonical set.
    #[error("unknown validator index {0}")]
    UnknownValidator(usize),
    /// Aggregation failed (no shares).
    #[error("failed to aggregate signatures: {0}")]
    Bls(#[from] BlsError),
    /// The aggregate does not verify against the signers' aggregate key.
    #[error("aggregate signature failed verification")]
    AggregateInvalid,
}

/// Verifies `message` against `set` with quorum `numerator`/100, as avalanchego's
/// `BitSetSignature.Verify`: minimal bitset, known signers, weight, then the pairing.
pub fn verify_message(
    message: &Message,
    set: &CanonicalSet,
    numerator: u64,
) -> Result<(), VerifyError> {
    let indices = message
        .signature
        .signer_indices()
        .map_err(|_| VerifyError::InvalidBitSet)?;
    let mut keys = Vec::with_capacity(indices.len());
    let mut weight: u64 = 0;
    for i in indices {
        let v = set.validators.get(i).ok_or(VerifyError::UnknownValidator)?;
        weight = weight.saturating_add(v.weight);
        keys.push(v.public_key);
    }
    if !verify_weight(weight, set.total_weight, numerator, QUORUM_DENOMINATOR) {
        return Err(VerifyError::InsufficientWeight);
    }
    let sig = Signature::from_bytes(&message.signature.signature)
        .map_err(|_| VerifyError::ParseSignature)?;
    let key = bls::aggregate_public_keys(&keys).map_err(|_| VerifyError::InvalidSignature)?;
    if !sig.verify(&key, &message.unsigned.bytes()) {
        return Err(VerifyError::InvalidSignature);
    }
    Ok(())
}
