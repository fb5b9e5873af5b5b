//! Signed X-Chain txs (`vms/avm/txs/tx.go`): `u16 version | UnsignedTx | credentials`.

use super::fx_types::Credential;
use super::txs::UnsignedTx;
use crate::Id;
use crate::codec::{
    CODEC_VERSION, CodecError, DEFAULT_MAX_SIZE, Decode, Encode, MinSize, Reader, Writer, marshal,
};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::hashing::sha256;

/// Largest tx the X-Chain parses: 256 KiB (`codec.NewDefaultManager`).
pub const MAX_TX_SIZE: usize = DEFAULT_MAX_SIZE;
/// Largest genesis tx: `math.MaxInt32` (the genesis codec).
pub const MAX_GENESIS_TX_SIZE: usize = i32::MAX as usize;

/// A signed tx: the unsigned tx and one credential per input/operation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tx {
    /// What was signed.
    pub unsigned: UnsignedTx,
    /// The signatures.
    pub credentials: Vec<Credential>,
}

impl Tx {
    /// A tx from its parts (for builders: sign `unsigned.bytes()` then add credentials).
    pub fn new(unsigned: UnsignedTx, credentials: Vec<Credential>) -> Self {
        Self {
            unsigned,
            credentials,
        }
    }

    /// Parses signed tx bytes (version 0, at most 256 KiB, nothing trailing), keeping the bytes
    /// and the id.
    pub fn parse(bytes: &[u8]) -> Result<ParsedTx, CodecError> {
        ParsedTx::parse_with_max(bytes, MAX_TX_SIZE)
    }

    /// [`Tx::parse`] of bytes the caller owns: they are kept in the [`ParsedTx`] without a copy.
    pub fn parse_vec(bytes: Vec<u8>) -> Result<ParsedTx, CodecError> {
        ParsedTx::from_vec_with_max(bytes, MAX_TX_SIZE)
    }

    /// Parses a genesis tx (no 256 KiB limit).
    pub fn parse_genesis(bytes: &[u8]) -> Result<ParsedTx, CodecError> {
        ParsedTx::parse_with_max(bytes, MAX_GENESIS_TX_SIZE)
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
        self.unsigned.bytes()
    }

    /// Writes the tx JSON object (`unsignedTx`, `credentials`, `id`) with a known id.
    pub fn write_json_with_id(&self, w: &mut JsonWriter, ctx: &JsonCtx, id: &Id) {
        w.begin_object();
        w.key("unsignedTx");
        self.unsigned.write_json(w, ctx);
        w.key("credentials");
        w.begin_array();
        for c in &self.credentials {
            c.write_fx_json(w, ctx);
        }
        w.end_array();
        w.key("id");
        w.id(id);
        w.end_object();
    }
}

/// Without the version: how a tx sits inside a block.
impl Decode for Tx {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            unsigned: UnsignedTx::decode(r)?,
            credentials: Vec::decode(r)?,
        })
    }
}
impl Encode for Tx {
    fn encode(&self, w: &mut Writer) {
        self.unsigned.encode(w);
        self.credentials.encode(w);
    }
}
impl MinSize for Tx {
    const MIN_SIZE: usize = 8;
}

/// The `avm.getTx` JSON object; computes the id.
impl WriteJson for Tx {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.write_json_with_id(w, ctx, &self.id());
    }
}

/// A parsed tx with its signed bytes and id, so neither is recomputed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedTx {
    /// The tx.
    pub tx: Tx,
    /// Its signed bytes (with version).
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: Id,
    unsigned_len: usize,
}

impl ParsedTx {
    /// Parses with an explicit size limit.
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
    fn decode_signed(bytes: &[u8], max: usize) -> Result<(Tx, usize), CodecError> {
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
        let unsigned = UnsignedTx::decode(&mut r)?;
        let unsigned_len = r.position();
        let credentials = Vec::decode(&mut r)?;
        r.finish()?;
        Ok((
            Tx {
                unsigned,
                credentials,
            },
            unsigned_len,
        ))
    }

    /// Wraps a built tx, encoding it once.
    pub fn from_tx(tx: Tx) -> Self {
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

/// The `avm.getTx` JSON object.
impl WriteJson for ParsedTx {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        self.tx.write_json_with_id(w, ctx, &self.id);
    }
}
