//! The coreth block as `C/block` serves it inside the proposervm wrapper
//! (`graft/coreth/plugin/evm/customtypes/block_ext.go`): the RLP list
//! `[Header, Txs, Uncles, Version u32, ExtData bytes]`. EVM txs and uncles are kept as raw RLP
//! items: the atomic side needs only their count.

use alloy_rlp::{Decodable, Encodable};

use super::CorethError;
use super::header::{Hash, Header};
use super::rlp::{list_payload, put_list, raw_item, raw_items};
use crate::proposervm;

/// A decoded coreth block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Block {
    /// The header.
    pub header: Header,
    /// keccak-256 of the header's RLP as served (the EVM block hash).
    pub hash: Hash,
    /// Each EVM tx as its raw RLP item (a list for legacy txs, a string for typed ones).
    pub transactions: Vec<Vec<u8>>,
    /// Each uncle as its raw RLP item (none on Avalanche).
    pub uncles: Vec<Vec<u8>>,
    /// Block body version (0).
    pub version: u32,
    /// The extra data: the block's atomic txs in the atomic codec (empty when none).
    pub ext_data: Vec<u8>,
}

impl Block {
    /// Decodes a block's RLP: one list, nothing after it.
    pub fn decode(bytes: &[u8]) -> Result<Self, CorethError> {
        let mut outer = bytes;
        let mut p = list_payload(&mut outer)?;
        if !outer.is_empty() {
            return Err(CorethError::Malformed("bytes after the block"));
        }
        let header_rlp = raw_item(&mut { p })?;
        let hash = crate::hashing::keccak256(header_rlp);
        let header = Header::decode(&mut p)?;
        let transactions = raw_items(list_payload(&mut p)?)?
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        let uncles = raw_items(list_payload(&mut p)?)?
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        let version = u32::decode(&mut p)?;
        let ext_data = alloy_rlp::Bytes::decode(&mut p)?.to_vec();
        if !p.is_empty() {
            return Err(CorethError::Malformed("block has fields after ExtData"));
        }
        Ok(Block {
            header,
            hash,
            transactions,
            uncles,
            version,
            ext_data,
        })
    }

    /// Decodes a `C/block` container: a proposervm block around the coreth block (an option's
    /// inner block too), or, before the proposervm fork, the bare coreth block.
    pub fn from_container(bytes: &[u8]) -> Result<Self, CorethError> {
        Ok(Self::from_container_with_end(bytes)?.0)
    }

    /// [`Block::from_container`], with where the coreth block's bytes end in the container.
    pub fn from_container_with_end(bytes: &[u8]) -> Result<(Self, usize), CorethError> {
        match proposervm::Block::decode(bytes) {
            Ok(outer) => {
                let end = outer.inner_offset() + outer.inner().len();
                Ok((Self::decode(outer.inner())?, end))
            }
            Err(_) => Ok((Self::decode(bytes)?, bytes.len())),
        }
    }

    /// The block's RLP from its parts (the hash field is not read: it is the header's).
    pub fn rlp(&self) -> Vec<u8> {
        let mut payload = self.header.rlp();
        let mut txs = Vec::new();
        for t in &self.transactions {
            txs.extend_from_slice(t);
        }
        put_list(&mut payload, &txs);
        let mut uncles = Vec::new();
        for u in &self.uncles {
            uncles.extend_from_slice(u);
        }
        put_list(&mut payload, &uncles);
        self.version.encode(&mut payload);
        self.ext_data.as_slice().encode(&mut payload);
        let mut out = Vec::with_capacity(payload.len() + 4);
        put_list(&mut out, &payload);
        out
    }

    /// The block number.
    pub fn number(&self) -> u64 {
        self.header.number
    }

    /// The block time, Unix seconds.
    pub fn timestamp(&self) -> u64 {
        self.header.time
    }

    /// The parent's hash.
    pub fn parent_hash(&self) -> Hash {
        self.header.parent_hash
    }
}
