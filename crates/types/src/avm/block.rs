//! The post-Cortina X-Chain block (`vms/avm/block/standard_block.go`), type id 20:
//! `u16 version | u32 20 | parentID | u64 height | u64 time | merkleRoot | u32 n | tx×n`, each tx
//! without its own version; a tx's id is `sha256(0x0000 ‖ its bytes)`.

use std::ops::Range;

use super::fx_types::type_id;
use super::tx::{MAX_GENESIS_TX_SIZE, Tx};
use crate::Id;
use crate::codec::{
    CODEC_VERSION, CodecError, DEFAULT_MAX_SIZE, Decode, Encode, MinSize, Reader, Writer, marshal,
};
use crate::components::json::{JsonCtx, JsonWriter, WriteJson};
use crate::hashing::sha256;

/// Largest block the X-Chain parses: 256 KiB (the default codec manager).
pub const MAX_BLOCK_SIZE: usize = DEFAULT_MAX_SIZE;

/// A standard block.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StandardBlock {
    /// The parent block's id.
    pub parent_id: Id,
    /// Height (genesis is 0).
    pub height: u64,
    /// Unix seconds.
    pub time: u64,
    /// Never set by avalanchego's builder: all zeros.
    pub merkle_root: Id,
    /// The txs.
    pub txs: Vec<Tx>,
}

impl StandardBlock {
    /// Parses block bytes (at most 256 KiB), keeping bytes, id and tx ids.
    pub fn parse(bytes: &[u8]) -> Result<ParsedBlock, CodecError> {
        ParsedBlock::parse_with_max(bytes, MAX_BLOCK_SIZE)
    }

    /// [`StandardBlock::parse`] of bytes the caller owns: they are kept without a copy.
    pub fn parse_vec(bytes: Vec<u8>) -> Result<ParsedBlock, CodecError> {
        ParsedBlock::from_vec_with_max(bytes, MAX_BLOCK_SIZE)
    }

    /// The block bytes: `u16 version | u32 20 | fields`.
    pub fn bytes(&self) -> Vec<u8> {
        marshal(self)
    }

    /// The block id: `sha256(bytes)`.
    pub fn id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }

    fn decode_header(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        match r.u32()? {
            type_id::STANDARD_BLOCK => {}
            type_id => {
                return Err(CodecError::UnknownTypeId {
                    type_id,
                    context: "block",
                });
            }
        }
        Ok(Self {
            parent_id: Id::decode(r)?,
            height: r.u64()?,
            time: r.u64()?,
            merkle_root: Id::decode(r)?,
            txs: Vec::new(),
        })
    }
}

/// `u32 20 | fields` (the block interface value, without the version).
impl Decode for StandardBlock {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let mut b = Self::decode_header(r)?;
        b.txs = Vec::decode(r)?;
        Ok(b)
    }
}
impl Encode for StandardBlock {
    fn encode(&self, w: &mut Writer) {
        w.u32(type_id::STANDARD_BLOCK);
        self.parent_id.encode(w);
        w.u64(self.height);
        w.u64(self.time);
        self.merkle_root.encode(w);
        self.txs.encode(w);
    }
}

/// A tx's id inside a block: `sha256(0x0000 ‖ tx bytes)` (what `tx.Initialize` re-marshals).
pub fn block_tx_id(tx_bytes: &[u8]) -> Id {
    crate::codec::versioned_id(tx_bytes)
}

/// A parsed block with its bytes, id and each tx's id and byte range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedBlock {
    /// The block.
    pub block: StandardBlock,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: Id,
    /// The id of each tx, in order.
    pub tx_ids: Vec<Id>,
    tx_ranges: Vec<Range<usize>>,
}

impl ParsedBlock {
    /// Parses with an explicit size limit.
    pub fn parse_with_max(bytes: &[u8], max: usize) -> Result<Self, CodecError> {
        let (block, tx_ids, tx_ranges) = Self::decode_parts(bytes, max)?;
        Ok(Self {
            block,
            bytes: bytes.to_vec(),
            id: Id(sha256(bytes)),
            tx_ids,
            tx_ranges,
        })
    }

    /// [`Self::parse_with_max`] of owned bytes, kept without a copy.
    pub fn from_vec_with_max(bytes: Vec<u8>, max: usize) -> Result<Self, CodecError> {
        let (block, tx_ids, tx_ranges) = Self::decode_parts(&bytes, max)?;
        Ok(Self {
            block,
            id: Id(sha256(&bytes)),
            bytes,
            tx_ids,
            tx_ranges,
        })
    }

    /// Decodes block bytes: the block, each tx's id and each tx's byte range.
    #[allow(clippy::type_complexity)]
    fn decode_parts(
        bytes: &[u8],
        max: usize,
    ) -> Result<(StandardBlock, Vec<Id>, Vec<Range<usize>>), CodecError> {
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
        let mut block = StandardBlock::decode_header(&mut r)?;
        let n = r.count(Tx::MIN_SIZE, "tx")?;
        let mut txs = Vec::with_capacity(n);
        let mut tx_ids = Vec::with_capacity(n);
        let mut tx_ranges = Vec::with_capacity(n);
        for _ in 0..n {
            let start = r.position();
            txs.push(Tx::decode(&mut r)?);
            let range = start..r.position();
            tx_ids.push(block_tx_id(bytes.get(range.clone()).unwrap_or(&[])));
            tx_ranges.push(range);
        }
        r.finish()?;
        block.txs = txs;
        Ok((block, tx_ids, tx_ranges))
    }

    /// Wraps a built block, encoding it once.
    pub fn from_block(block: StandardBlock) -> Result<Self, CodecError> {
        let bytes = block.bytes();
        Self::parse_with_max(&bytes, MAX_GENESIS_TX_SIZE)
    }

    /// Where tx `i` sits in the block's bytes (no version prefix).
    pub fn tx_range(&self, i: usize) -> Option<Range<usize>> {
        self.tx_ranges.get(i).cloned()
    }

    /// The bytes of tx `i` inside the block (no version prefix).
    pub fn tx_bytes(&self, i: usize) -> Option<&[u8]> {
        self.tx_ranges
            .get(i)
            .and_then(|r| self.bytes.get(r.clone()))
    }

    /// The signed bytes of tx `i` as `avm.getTx` serves them (with the version prefix).
    pub fn tx_signed_bytes(&self, i: usize) -> Option<Vec<u8>> {
        self.tx_bytes(i).map(|b| {
            let mut v = Vec::with_capacity(b.len() + 2);
            v.extend_from_slice(&CODEC_VERSION.to_be_bytes());
            v.extend_from_slice(b);
            v
        })
    }
}

/// The `avm.getBlock` JSON object: parentID, height, time, merkleRoot, txs, id.
impl WriteJson for ParsedBlock {
    fn write_json(&self, w: &mut JsonWriter, ctx: &JsonCtx) {
        let b = &self.block;
        w.begin_object();
        w.key("parentID");
        w.id(&b.parent_id);
        w.key("height");
        w.u64(b.height);
        w.key("time");
        w.u64(b.time);
        w.key("merkleRoot");
        w.id(&b.merkle_root);
        w.key("txs");
        w.begin_array();
        for (tx, id) in b.txs.iter().zip(&self.tx_ids) {
            tx.write_json_with_id(w, ctx, id);
        }
        w.end_array();
        w.key("id");
        w.id(&self.id);
        w.end_object();
    }
}
