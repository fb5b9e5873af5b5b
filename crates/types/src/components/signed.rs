//! Signed txs, the same layout on the X- and P-Chain (`vms/avm/txs/tx.go`,
//! `vms/platformvm/txs/tx.go`): `u16 version | unsigned tx | credentials`, the id being the
//! SHA-256 of those signed bytes. Each VM names its own instantiation (`avm::Tx`,
//! `platformvm::Tx`) and adds what only it has (size limits, JSON).

use crate::Id;
use crate::codec::{CODEC_VERSION, CodecError, Decode, Encode, MinSize, Reader, Writer, marshal};
use crate::hashing::sha256;

/// A signed tx: the unsigned tx `U` and one credential `C` per input (and authorization).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignedTx<U, C> {
    /// What was signed.
    pub unsigned: U,
    /// The signatures.
    pub credentials: Vec<C>,
}

impl<U: Encode, C: Encode> SignedTx<U, C> {
    /// A tx from its parts (for builders: sign the unsigned bytes, then add credentials).
    pub fn new(unsigned: U, credentials: Vec<C>) -> Self {
        Self {
            unsigned,
            credentials,
        }
    }

    /// The signed bytes: `u16 version | unsigned | credentials`.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }

    /// The tx id: `sha256(signed bytes)`.
    pub fn id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }

    /// The signing preimage: `u16 version | unsigned tx`.
    pub fn unsigned_bytes(&self) -> Vec<u8> {
        marshal(&self.unsigned)
    }
}

impl<U: Decode, C: Decode + MinSize> SignedTx<U, C> {
    /// Parses the bytes of one tx as a block nests it (no codec version, nothing after it), so
    /// one tx is read without its block.
    pub fn parse_nested(body: &[u8]) -> Result<Self, CodecError> {
        let mut r = Reader::new(body);
        let tx = Self::decode(&mut r)?;
        r.finish()?;
        Ok(tx)
    }
}

/// Without the version: how a tx sits inside a block.
impl<U: Decode, C: Decode + MinSize> Decode for SignedTx<U, C> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            unsigned: U::decode(r)?,
            credentials: Vec::decode(r)?,
        })
    }
}

impl<U: Encode, C: Encode> Encode for SignedTx<U, C> {
    fn encode(&self, w: &mut Writer) {
        self.unsigned.encode(w);
        self.credentials.encode(w);
    }
}

impl<U, C> MinSize for SignedTx<U, C> {
    /// A type id (4) and an empty credential list (4), at the least.
    const MIN_SIZE: usize = 8;
}

/// A parsed signed tx with its bytes and id, so neither is recomputed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedSigned<U, C> {
    /// The tx.
    pub tx: SignedTx<U, C>,
    /// Its signed bytes (with version).
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: Id,
    unsigned_len: usize,
}

impl<U: Decode + Encode, C: Decode + Encode + MinSize> ParsedSigned<U, C> {
    /// Parses signed tx bytes of at most `max` bytes (version 0, nothing trailing).
    pub fn parse_with_max(bytes: &[u8], max: usize) -> Result<Self, CodecError> {
        let (tx, unsigned_len) = Self::decode_signed(bytes, max)?;
        Ok(Self {
            tx,
            bytes: bytes.to_vec(),
            id: Id(sha256(bytes)),
            unsigned_len,
        })
    }

    /// [`Self::parse_with_max`] of owned bytes, kept without a copy.
    pub fn from_vec_with_max(bytes: Vec<u8>, max: usize) -> Result<Self, CodecError> {
        let (tx, unsigned_len) = Self::decode_signed(&bytes, max)?;
        Ok(Self {
            tx,
            id: Id(sha256(&bytes)),
            bytes,
            unsigned_len,
        })
    }

    /// Decodes signed tx bytes: the tx and the length of its unsigned prefix.
    fn decode_signed(bytes: &[u8], max: usize) -> Result<(SignedTx<U, C>, usize), CodecError> {
        if bytes.len() > max {
            return Err(CodecError::TooLarge {
                len: bytes.len(),
                max,
            });
        }
        let mut r = Reader::new(bytes);
        let version = r.u16()?;
        if version != CODEC_VERSION {
            return Err(CodecError::UnknownVersion(version));
        }
        let unsigned = U::decode(&mut r)?;
        let unsigned_len = r.position();
        let credentials = Vec::decode(&mut r)?;
        r.finish()?;
        Ok((
            SignedTx {
                unsigned,
                credentials,
            },
            unsigned_len,
        ))
    }

    /// Wraps a built tx, encoding it once.
    pub fn from_tx(tx: SignedTx<U, C>) -> Self {
        let mut w = Writer::with_capacity(512);
        w.u16(CODEC_VERSION);
        tx.unsigned.encode(&mut w);
        let unsigned_len = w.len();
        tx.credentials.encode(&mut w);
        let bytes = w.into_bytes();
        Self {
            id: Id(sha256(&bytes)),
            tx,
            bytes,
            unsigned_len,
        }
    }

    /// The signing preimage (`u16 version | unsigned tx`), a prefix of the signed bytes.
    pub fn unsigned_bytes(&self) -> &[u8] {
        self.bytes.get(..self.unsigned_len).unwrap_or(&[])
    }
}
