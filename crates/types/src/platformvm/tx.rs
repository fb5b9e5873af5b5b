//! Signed P-Chain txs (`vms/platformvm/txs/tx.go`): `u16 version | UnsignedTx | credentials`;
//! the id is `sha256` of those signed bytes.

use super::fx_types::Credential;
use super::txs::UnsignedTx;
use crate::Id;
use crate::codec::{
    CODEC_VERSION, CodecError, DEFAULT_MAX_SIZE, Decode, Encode, MinSize, Reader, Writer, marshal,
};
use crate::hashing::sha256;

/// Largest tx the P-Chain parses: 256 KiB (`codec.NewDefaultManager`).
pub const MAX_TX_SIZE: usize = DEFAULT_MAX_SIZE;
/// Largest genesis tx: `math.MaxInt32` (`txs.GenesisCodec`).
pub const MAX_GENESIS_TX_SIZE: usize = i32::MAX as usize;

/// A signed tx: the unsigned tx and one credential per input (plus one per authorization).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tx {
    /// What was signed.
    pub unsigned: UnsignedTx,
    /// The signatures.
    pub credentials: Vec<Credential>,
}

impl Tx {
    /// A tx from its parts.
    pub fn new(unsigned: UnsignedTx, credentials: Vec<Credential>) -> Self {
        Self {
            unsigned,
            credentials,
        }
    }

    /// Parses signed tx bytes (version 0, at most 256 KiB, nothing trailing).
    pub fn parse(bytes: &[u8]) -> Result<ParsedTx, CodecError> {
        ParsedTx::parse_with_max(bytes, MAX_TX_SIZE)
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

/// The id of a tx whose version-less bytes are `body`: `sha256(0x0000 ‖ body)`, without copying.
pub fn tx_id_of_body(body: &[u8]) -> Id {
    crate::codec::versioned_id(body)
}

/// Decodes a tx nested in a block and computes its id from the bytes it spans.
pub(crate) fn decode_tx_with_id(r: &mut Reader<'_>) -> Result<(Tx, Id), CodecError> {
    let start = r.position();
    let tx = Tx::decode(r)?;
    let body = r.input().get(start..r.position()).unwrap_or(&[]);
    Ok((tx, tx_id_of_body(body)))
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
        Ok(Self {
            tx: Tx {
                unsigned,
                credentials,
            },
            bytes: bytes.to_vec(),
            id: Id(sha256(bytes)),
            unsigned_len,
        })
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
