//! `vms/platformvm/signer`: a validator's BLS key registration.
//!
//! `Empty` has no body; `ProofOfPossession` is the 48-byte compressed G1 public key then the
//! 96-byte compressed G2 signature over it (avalanchego `utils/crypto/bls`, min-pk).

use crate::codec::{CodecError, Decode, Encode, MinSize, Reader, Writer};

/// Length of a compressed BLS public key (`bls.PublicKeyLen`).
pub const BLS_PUBLIC_KEY_LEN: usize = 48;
/// Length of a compressed BLS signature (`bls.SignatureLen`).
pub const BLS_SIGNATURE_LEN: usize = 96;

/// No BLS key (`signer.Empty`): zero bytes of body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Empty;

impl Decode for Empty {
    fn decode(_r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self)
    }
}
impl Encode for Empty {
    fn encode(&self, _w: &mut Writer) {}
}
impl MinSize for Empty {
    const MIN_SIZE: usize = 0;
}

/// A BLS public key and a signature proving its owner holds the secret key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProofOfPossession {
    /// Compressed G1 public key.
    pub public_key: [u8; BLS_PUBLIC_KEY_LEN],
    /// Compressed G2 signature of the public key with the POP ciphersuite.
    pub proof_of_possession: [u8; BLS_SIGNATURE_LEN],
}

impl Decode for ProofOfPossession {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            public_key: r.array()?,
            proof_of_possession: r.array()?,
        })
    }
}
impl Encode for ProofOfPossession {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.public_key);
        w.raw(&self.proof_of_possession);
    }
}
impl MinSize for ProofOfPossession {
    const MIN_SIZE: usize = BLS_PUBLIC_KEY_LEN + BLS_SIGNATURE_LEN;
}
