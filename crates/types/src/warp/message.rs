//! Warp messages (`vms/platformvm/warp`): the unsigned message
//! `u16 0 | u32 networkID | sourceChainID | u32+payload`, and the signed message = those fields
//! then `u32 0 (BitSetSignature) | u32+signers | signature[96]`.

use super::WarpError;
use crate::Id;
use crate::codec::{CODEC_VERSION, CodecError, Reader, Writer};
use crate::hashing::sha256;
use crate::platformvm::signer::BLS_SIGNATURE_LEN;

/// Type id of `BitSetSignature` in the Warp codec.
pub const BIT_SET_SIGNATURE: u32 = 0;

/// A message before signing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnsignedMessage {
    /// Network id (1 mainnet, 5 fuji).
    pub network_id: u32,
    /// The chain that sent it.
    pub source_chain_id: Id,
    /// The payload bytes (see [`super::payload::Payload`]).
    pub payload: Vec<u8>,
}

impl UnsignedMessage {
    /// Parses unsigned message bytes (`ParseUnsignedMessage`).
    pub fn parse(bytes: &[u8]) -> Result<Self, WarpError> {
        let mut r = Reader::new(bytes);
        let m = Self::decode_fields(&mut r)?;
        r.finish()?;
        Ok(m)
    }

    fn decode_fields(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let version = r.u16()?;
        if version != CODEC_VERSION {
            return Err(CodecError::UnknownVersion(version));
        }
        Ok(Self {
            network_id: r.u32()?,
            source_chain_id: Id(r.array()?),
            payload: r.bytes()?.to_vec(),
        })
    }

    fn encode_fields(&self, w: &mut Writer) {
        w.u16(CODEC_VERSION);
        w.u32(self.network_id);
        w.raw(&self.source_chain_id.0);
        w.bytes(&self.payload);
    }

    /// The unsigned bytes: what validators sign.
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(42 + self.payload.len());
        self.encode_fields(&mut w);
        w.into_bytes()
    }

    /// The message id: `sha256(unsigned bytes)`.
    pub fn id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }
}

/// An aggregate BLS signature and which validators (by canonical index) signed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BitSetSignature {
    /// `big.Int` bytes of the signer set: bit `i` (from the least significant bit of the last
    /// byte) = validator `i` signed. Minimal: no leading zero byte.
    pub signers: Vec<u8>,
    /// Aggregate compressed G2 signature.
    pub signature: [u8; BLS_SIGNATURE_LEN],
}

impl BitSetSignature {
    /// The signer indices, ascending; fails on a non-minimal encoding (`ErrInvalidBitSet`).
    pub fn signer_indices(&self) -> Result<Vec<usize>, WarpError> {
        if self.signers.first() == Some(&0) {
            return Err(WarpError::InvalidBitSet);
        }
        let n = self.signers.len();
        let mut out = Vec::new();
        for (pos, byte) in self.signers.iter().enumerate() {
            for bit in 0..8 {
                if byte & (1 << bit) != 0 {
                    out.push((n - 1 - pos) * 8 + bit);
                }
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    /// How many validators signed (`NumSigners`).
    pub fn num_signers(&self) -> Result<usize, WarpError> {
        if self.signers.first() == Some(&0) {
            return Err(WarpError::InvalidBitSet);
        }
        Ok(self.signers.iter().map(|b| b.count_ones() as usize).sum())
    }

    /// The minimal bitset bytes for the given signer indices (`set.NewBits(...).Bytes()`).
    pub fn signers_from_indices(indices: &[usize]) -> Vec<u8> {
        let Some(max) = indices.iter().copied().max() else {
            return Vec::new();
        };
        let len = max / 8 + 1;
        let mut out = vec![0u8; len];
        for &i in indices {
            if let Some(b) = out.get_mut(len - 1 - i / 8) {
                *b |= 1 << (i % 8);
            }
        }
        out
    }
}

/// A signed Warp message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Message {
    /// What was signed.
    pub unsigned: UnsignedMessage,
    /// The signature.
    pub signature: BitSetSignature,
}

impl Message {
    /// Parses signed message bytes (`ParseMessage`).
    pub fn parse(bytes: &[u8]) -> Result<Self, WarpError> {
        let mut r = Reader::new(bytes);
        let unsigned = UnsignedMessage::decode_fields(&mut r)?;
        match r.u32()? {
            BIT_SET_SIGNATURE => {}
            type_id => {
                return Err(CodecError::UnknownTypeId {
                    type_id,
                    context: "warp signature",
                }
                .into());
            }
        }
        let signature = BitSetSignature {
            signers: r.bytes()?.to_vec(),
            signature: r.array()?,
        };
        r.finish()?;
        Ok(Self {
            unsigned,
            signature,
        })
    }

    /// The signed bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(
            42 + self.unsigned.payload.len() + 8 + self.signature.signers.len() + 96,
        );
        self.unsigned.encode_fields(&mut w);
        w.u32(BIT_SET_SIGNATURE);
        w.bytes(&self.signature.signers);
        w.raw(&self.signature.signature);
        w.into_bytes()
    }

    /// The message id (of the unsigned part).
    pub fn id(&self) -> Id {
        self.unsigned.id()
    }
}
