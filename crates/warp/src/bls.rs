//! BLS12-381 as avalanchego uses it (`utils/crypto/bls`, blst min-pk): 48-byte compressed G1
//! public keys, 96-byte compressed G2 signatures, the IETF proof-of-possession ciphersuite.
//! Group checks happen when bytes are parsed, so verification itself skips them.

use blst::BLST_ERROR;
use blst::min_pk;

/// Domain separation tag of Warp signatures (`bls.CiphersuiteSignature`).
pub const SIGNATURE_DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// Length of a compressed public key (`bls.PublicKeyLen`).
pub const PUBLIC_KEY_LEN: usize = 48;
/// Length of an uncompressed public key (`bls.PublicKeyToUncompressedBytes`).
pub const PUBLIC_KEY_UNCOMPRESSED_LEN: usize = 96;
/// Length of a compressed signature (`bls.SignatureLen`).
pub const SIGNATURE_LEN: usize = 96;

/// Why BLS bytes or an aggregation are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BlsError {
    /// Not a valid compressed G1 point in the subgroup, or the identity (`KeyValidate`).
    #[error("invalid BLS public key")]
    InvalidPublicKey,
    /// Not a valid compressed G2 point in the subgroup (`SignatureFromBytes`).
    #[error("invalid BLS signature")]
    InvalidSignature,
    /// Nothing to aggregate.
    #[error("no BLS values to aggregate")]
    EmptyAggregate,
}

/// A validated BLS public key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey(min_pk::PublicKey);

impl PublicKey {
    /// Parses a 48-byte compressed key and runs `KeyValidate` (on curve, in the subgroup, not
    /// the identity), as `bls.PublicKeyFromCompressedBytes`.
    pub fn from_compressed(bytes: &[u8]) -> Result<Self, BlsError> {
        if bytes.len() != PUBLIC_KEY_LEN {
            return Err(BlsError::InvalidPublicKey);
        }
        let pk = min_pk::PublicKey::uncompress(bytes).map_err(|_| BlsError::InvalidPublicKey)?;
        pk.validate().map_err(|_| BlsError::InvalidPublicKey)?;
        Ok(Self(pk))
    }

    /// The 48-byte compressed form.
    pub fn to_compressed(&self) -> [u8; PUBLIC_KEY_LEN] {
        self.0.compress()
    }

    /// The 96-byte uncompressed form, the canonical validator order's sort key.
    pub fn to_uncompressed(&self) -> [u8; PUBLIC_KEY_UNCOMPRESSED_LEN] {
        self.0.serialize()
    }
}

impl From<min_pk::PublicKey> for PublicKey {
    fn from(pk: min_pk::PublicKey) -> Self {
        Self(pk)
    }
}

/// A parsed BLS signature (G2 point in the subgroup).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature(min_pk::Signature);

impl Signature {
    /// Parses a 96-byte compressed signature with the subgroup check (`bls.SignatureFromBytes`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BlsError> {
        if bytes.len() != SIGNATURE_LEN {
            return Err(BlsError::InvalidSignature);
        }
        let sig = min_pk::Signature::uncompress(bytes).map_err(|_| BlsError::InvalidSignature)?;
        sig.validate(false)
            .map_err(|_| BlsError::InvalidSignature)?;
        Ok(Self(sig))
    }

    /// The 96-byte compressed form.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        self.0.compress()
    }

    /// Whether this is `pk`'s signature of `msg` under [`SIGNATURE_DST`] (`bls.Verify`).
    pub fn verify(&self, pk: &PublicKey, msg: &[u8]) -> bool {
        self.0.verify(false, msg, SIGNATURE_DST, &[], &pk.0, false) == BLST_ERROR::BLST_SUCCESS
    }
}

impl From<min_pk::Signature> for Signature {
    fn from(sig: min_pk::Signature) -> Self {
        Self(sig)
    }
}

/// The sum of the signatures (`bls.AggregateSignatures`); an empty list is an error.
pub fn aggregate_signatures(sigs: &[Signature]) -> Result<Signature, BlsError> {
    if sigs.is_empty() {
        return Err(BlsError::EmptyAggregate);
    }
    let refs: Vec<&min_pk::Signature> = sigs.iter().map(|s| &s.0).collect();
    let agg = min_pk::AggregateSignature::aggregate(&refs, false)
        .map_err(|_| BlsError::InvalidSignature)?;
    Ok(Signature(agg.to_signature()))
}

/// The sum of the public keys (`bls.AggregatePublicKeys`); an empty list is an error.
pub fn aggregate_public_keys(keys: &[PublicKey]) -> Result<PublicKey, BlsError> {
    if keys.is_empty() {
        return Err(BlsError::EmptyAggregate);
    }
    let refs: Vec<&min_pk::PublicKey> = keys.iter().map(|k| &k.0).collect();
    let agg = min_pk::AggregatePublicKey::aggregate(&refs, false)
        .map_err(|_| BlsError::InvalidPublicKey)?;
    Ok(PublicKey(agg.to_public_key()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};

    fn node(i: u32) -> DevnetNode {
        DevnetNode::new(7, i).unwrap()
    }

    #[test]
    fn dst_is_devnets() {
        assert_eq!(SIGNATURE_DST, BLS_SIG_DST);
    }

    #[test]
    fn sign_verify_aggregate_with_devnet_keys() {
        let msg = b"warp message bytes";
        let nodes: Vec<_> = (0..4).map(node).collect();
        let pks: Vec<PublicKey> = nodes
            .iter()
            .map(|n| PublicKey::from_compressed(&n.bls_public_key).unwrap())
            .collect();
        let sigs: Vec<Signature> = nodes
            .iter()
            .map(|n| Signature::from_bytes(&n.bls_sign(msg).compress()).unwrap())
            .collect();
        for (pk, sig) in pks.iter().zip(&sigs) {
            assert!(sig.verify(pk, msg));
            assert!(!sig.verify(pk, b"another message"));
        }
        // A signature does not verify under another node's key.
        assert!(!sigs[0].verify(&pks[1], msg));

        let agg = aggregate_signatures(&sigs).unwrap();
        let agg_pk = aggregate_public_keys(&pks).unwrap();
        assert!(agg.verify(&agg_pk, msg));
        // The devnet's own aggregation gives the same bytes.
        let raw: Vec<_> = nodes.iter().map(|n| n.bls_sign(msg)).collect();
        assert_eq!(
            agg.to_bytes(),
            snowline_devnet::nodes::aggregate(&raw).unwrap()
        );
        // Missing one signer: the aggregate no longer verifies against all four keys.
        let three = aggregate_signatures(&sigs[..3]).unwrap();
        assert!(!three.verify(&agg_pk, msg));
        assert!(three.verify(&aggregate_public_keys(&pks[..3]).unwrap(), msg));
    }

    #[test]
    fn key_forms_round_trip() {
        let n = node(1);
        let pk = PublicKey::from_compressed(&n.bls_public_key).unwrap();
        assert_eq!(pk.to_compressed(), n.bls_public_key);
        assert_eq!(pk.to_uncompressed(), n.bls_public_key_uncompressed());
        assert!(PublicKey::from_compressed(&pk.to_uncompressed()).is_err());
    }

    #[test]
    fn identity_and_garbage_are_rejected() {
        // The compressed identity (infinity) point: 0xc0 then zeros; KeyValidate rejects it.
        let mut inf = [0u8; 48];
        inf[0] = 0xc0;
        assert_eq!(
            PublicKey::from_compressed(&inf),
            Err(BlsError::InvalidPublicKey)
        );
        assert_eq!(
            PublicKey::from_compressed(&[0xff; 48]),
            Err(BlsError::InvalidPublicKey)
        );
        assert_eq!(
            Signature::from_bytes(&[0u8; 96]),
            Err(BlsError::InvalidSignature)
        );
        assert_eq!(Signature::from_bytes(&[]), Err(BlsError::InvalidSignature));
        assert_eq!(aggregate_signatures(&[]), Err(BlsError::EmptyAggregate));
        assert_eq!(aggregate_public_keys(&[]), Err(BlsError::EmptyAggregate));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let _ = PublicKey::from_compressed(&bytes);
            if let Ok(sig) = Signature::from_bytes(&bytes) {
                let pk = PublicKey::from_compressed(&node(0).bls_public_key).unwrap();
                proptest::prop_assert!(!sig.verify(&pk, b"m"));
            }
        }

        #[test]
        fn parsed_keys_and_signatures_are_canonical(bit in 0usize..384, sbit in 0usize..768) {
            // Near-valid inputs: a real key and signature with one bit flipped. Whatever parses
            // re-encodes to the same bytes (no second encoding of one point is accepted).
            let n = node(3);
            let mut pk = n.bls_public_key;
            pk[bit / 8] ^= 1 << (bit % 8);
            if let Ok(k) = PublicKey::from_compressed(&pk) {
                proptest::prop_assert_eq!(k.to_compressed(), pk);
            }
            let mut sig = n.bls_sign(b"x").compress();
            sig[sbit / 8] ^= 1 << (sbit % 8);
            if let Ok(s) = Signature::from_bytes(&sig) {
                proptest::prop_assert_eq!(s.to_bytes(), sig);
            }
        }

        #[test]
        fn flipped_signature_bit_is_rejected(bit in 0usize..768) {
            let n = node(2);
            let msg = b"flip";
            let mut bytes = n.bls_sign(msg).compress();
            bytes[bit / 8] ^= 1 << (bit % 8);
            let pk = PublicKey::from_compressed(&n.bls_public_key).unwrap();
            if let Ok(sig) = Signature::from_bytes(&bytes) {
                proptest::prop_assert!(!sig.verify(&pk, msg));
            }
        }
    }
}
