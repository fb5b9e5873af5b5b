//! P-Chain blocks (`vms/platformvm/block`): the five Apricot and four Banff types, their ids
//! (`sha256` of the block bytes, which start with the codec version and type id) and the ids of
//! the txs they carry (`sha256(0x0000 ‖ tx bytes)`).
//!
//! Layouts (after `u16 0 | u32 type id`): Apricot blocks start `parentID | u64 height`, then a
//! tx (proposal, atomic), a tx list (standard) or nothing (commit, abort). Banff blocks start with
//! `u64 time`; a Banff proposal then has its decision txs before the common fields and the tx.

use std::ops::Range;

use super::tx::{MAX_TX_SIZE, Tx, decode_tx_with_id};
use super::type_id;
use crate::Id;
use crate::codec::{CODEC_VERSION, CodecError, Encode, MinSize, Reader, Writer};
use crate::hashing::sha256;

/// Largest block the P-Chain parses (`block.Codec`, the default 256 KiB).
pub const MAX_BLOCK_SIZE: usize = MAX_TX_SIZE;

/// The fields every block has (`block.CommonBlock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CommonBlock {
    /// Parent block id.
    pub parent_id: Id,
    /// Height (genesis = 0).
    pub height: u64,
}

/// A P-Chain block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Block {
    /// 0: one proposal tx (`AddValidatorTx`, `AdvanceTimeTx`, `RewardValidatorTx`, …).
    ApricotProposal {
        /// Parent and height.
        common: CommonBlock,
        /// The proposal.
        tx: Tx,
    },
    /// 1: rejects the parent proposal.
    ApricotAbort {
        /// Parent and height.
        common: CommonBlock,
    },
    /// 2: accepts the parent proposal.
    ApricotCommit {
        /// Parent and height.
        common: CommonBlock,
    },
    /// 3: decision txs.
    ApricotStandard {
        /// Parent and height.
        common: CommonBlock,
        /// The txs.
        txs: Vec<Tx>,
    },
    /// 4: one atomic tx (import or export).
    ApricotAtomic {
        /// Parent and height.
        common: CommonBlock,
        /// The tx.
        tx: Tx,
    },
    /// 29: decision txs then a proposal tx, with a timestamp.
    BanffProposal {
        /// Unix seconds.
        time: u64,
        /// Decision txs executed before the proposal.
        txs: Vec<Tx>,
        /// Parent and height.
        common: CommonBlock,
        /// The proposal.
        tx: Tx,
    },
    /// 30: rejects the parent proposal.
    BanffAbort {
        /// Unix seconds.
        time: u64,
        /// Parent and height.
        common: CommonBlock,
    },
    /// 31: accepts the parent proposal.
    BanffCommit {
        /// Unix seconds.
        time: u64,
        /// Parent and height.
        common: CommonBlock,
    },
    /// 32: decision txs with a timestamp.
    BanffStandard {
        /// Unix seconds.
        time: u64,
        /// Parent and height.
        common: CommonBlock,
        /// The txs.
        txs: Vec<Tx>,
    },
}

/// A parsed block with its bytes, id and tx ids (in [`Block::txs`] order).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedBlock {
    /// The block.
    pub block: Block,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: Id,
    /// The id of each tx, in [`Block::txs`] order.
    pub tx_ids: Vec<Id>,
    /// Where each tx's bytes (without a codec version) lie in [`ParsedBlock::bytes`], in
    /// [`Block::txs`] order: what a reader of one tx slices instead of parsing the block.
    pub tx_ranges: Vec<Range<usize>>,
}

fn decode_common(r: &mut Reader<'_>) -> Result<CommonBlock, CodecError> {
    Ok(CommonBlock {
        parent_id: Id(r.array()?),
        height: r.u64()?,
    })
}

/// Each tx's id and the range of the block's bytes it spans, in decode order.
type TxPlaces = Vec<(Id, Range<usize>)>;

fn decode_txs(r: &mut Reader<'_>, ids: &mut TxPlaces) -> Result<Vec<Tx>, CodecError> {
    let n = r.count(Tx::MIN_SIZE, "P-Chain block txs")?;
    let mut out = Vec::with_capacity(n);
    ids.reserve(n);
    for _ in 0..n {
        out.push(decode_one(r, ids)?);
    }
    Ok(out)
}

fn decode_one(r: &mut Reader<'_>, ids: &mut TxPlaces) -> Result<Tx, CodecError> {
    let start = r.position();
    let (tx, id) = decode_tx_with_id(r)?;
    ids.push((id, start..r.position()));
    Ok(tx)
}

impl Block {
    /// Parses block bytes (version 0, at most 256 KiB, nothing trailing).
    pub fn parse(bytes: &[u8]) -> Result<ParsedBlock, CodecError> {
        Self::parse_with_max(bytes, MAX_BLOCK_SIZE)
    }

    /// Parses block bytes with an explicit size limit (genesis-sized blocks).
    pub fn parse_with_max(bytes: &[u8], max: usize) -> Result<ParsedBlock, CodecError> {
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
        let mut places = Vec::new();
        let block = Self::decode_body(&mut r, &mut places)?;
        r.finish()?;
        let (tx_ids, tx_ranges) = places.into_iter().unzip();
        Ok(ParsedBlock {
            block,
            bytes: bytes.to_vec(),
            id: Id(sha256(bytes)),
            tx_ids,
            tx_ranges,
        })
    }

    fn decode_body(r: &mut Reader<'_>, ids: &mut TxPlaces) -> Result<Self, CodecError> {
        Ok(match r.u32()? {
            type_id::APRICOT_PROPOSAL_BLOCK => Self::ApricotProposal {
                common: decode_common(r)?,
                tx: decode_one(r, ids)?,
            },
            type_id::APRICOT_ABORT_BLOCK => Self::ApricotAbort {
                common: decode_common(r)?,
            },
            type_id::APRICOT_COMMIT_BLOCK => Self::ApricotCommit {
                common: decode_common(r)?,
            },
            type_id::APRICOT_STANDARD_BLOCK => Self::ApricotStandard {
                common: decode_common(r)?,
                txs: decode_txs(r, ids)?,
            },
            type_id::APRICOT_ATOMIC_BLOCK => Self::ApricotAtomic {
                common: decode_common(r)?,
                tx: decode_one(r, ids)?,
            },
            type_id::BANFF_PROPOSAL_BLOCK => Self::BanffProposal {
                time: r.u64()?,
                txs: decode_txs(r, ids)?,
                common: decode_common(r)?,
                tx: decode_one(r, ids)?,
            },
            type_id::BANFF_ABORT_BLOCK => Self::BanffAbort {
                time: r.u64()?,
                common: decode_common(r)?,
            },
            type_id::BANFF_COMMIT_BLOCK => Self::BanffCommit {
                time: r.u64()?,
                common: decode_common(r)?,
            },
            type_id::BANFF_STANDARD_BLOCK => Self::BanffStandard {
                time: r.u64()?,
                common: decode_common(r)?,
                txs: decode_txs(r, ids)?,
            },
            type_id => {
                return Err(CodecError::UnknownTypeId {
                    type_id,
                    context: "P-Chain block",
                });
            }
        })
    }

    /// The codec type id.
    pub fn type_id(&self) -> u32 {
        match self {
            Self::ApricotProposal { .. } => type_id::APRICOT_PROPOSAL_BLOCK,
            Self::ApricotAbort { .. } => type_id::APRICOT_ABORT_BLOCK,
            Self::ApricotCommit { .. } => type_id::APRICOT_COMMIT_BLOCK,
            Self::ApricotStandard { .. } => type_id::APRICOT_STANDARD_BLOCK,
            Self::ApricotAtomic { .. } => type_id::APRICOT_ATOMIC_BLOCK,
            Self::BanffProposal { .. } => type_id::BANFF_PROPOSAL_BLOCK,
            Self::BanffAbort { .. } => type_id::BANFF_ABORT_BLOCK,
            Self::BanffCommit { .. } => type_id::BANFF_COMMIT_BLOCK,
            Self::BanffStandard { .. } => type_id::BANFF_STANDARD_BLOCK,
        }
    }

    /// The Go type name, which is what the Data API shows as `blockType`
    /// (`ApricotProposalBlock`, …, `BanffStandardBlock`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::ApricotProposal { .. } => "ApricotProposalBlock",
            Self::ApricotAbort { .. } => "ApricotAbortBlock",
            Self::ApricotCommit { .. } => "ApricotCommitBlock",
            Self::ApricotStandard { .. } => "ApricotStandardBlock",
            Self::ApricotAtomic { .. } => "ApricotAtomicBlock",
            Self::BanffProposal { .. } => "BanffProposalBlock",
            Self::BanffAbort { .. } => "BanffAbortBlock",
            Self::BanffCommit { .. } => "BanffCommitBlock",
            Self::BanffStandard { .. } => "BanffStandardBlock",
        }
    }

    /// Parent and height.
    pub fn common(&self) -> &CommonBlock {
        match self {
            Self::ApricotProposal { common, .. }
            | Self::ApricotAbort { common }
            | Self::ApricotCommit { common }
            | Self::ApricotStandard { common, .. }
            | Self::ApricotAtomic { common, .. }
            | Self::BanffProposal { common, .. }
            | Self::BanffAbort { common, .. }
            | Self::BanffCommit { common, .. }
            | Self::BanffStandard { common, .. } => common,
        }
    }

    /// The parent block id.
    pub fn parent_id(&self) -> Id {
        self.common().parent_id
    }

    /// The height.
    pub fn height(&self) -> u64 {
        self.common().height
    }

    /// The Banff timestamp (Unix seconds); `None` for Apricot blocks, which have none.
    pub fn timestamp(&self) -> Option<u64> {
        match self {
            Self::BanffProposal { time, .. }
            | Self::BanffAbort { time, .. }
            | Self::BanffCommit { time, .. }
            | Self::BanffStandard { time, .. } => Some(*time),
            _ => None,
        }
    }

    /// The txs in avalanchego's `Txs()` order (a Banff proposal's decision txs, then its proposal).
    pub fn txs(&self) -> Vec<&Tx> {
        match self {
            Self::ApricotProposal { tx, .. } | Self::ApricotAtomic { tx, .. } => vec![tx],
            Self::ApricotStandard { txs, .. } | Self::BanffStandard { txs, .. } => {
                txs.iter().collect()
            }
            Self::BanffProposal { txs, tx, .. } => txs.iter().chain(std::iter::once(tx)).collect(),
            _ => Vec::new(),
        }
    }

    /// The block bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(256);
        w.u16(CODEC_VERSION);
        w.u32(self.type_id());
        let common = |w: &mut Writer, c: &CommonBlock| {
            c.parent_id.encode(w);
            w.u64(c.height);
        };
        match self {
            Self::ApricotProposal { common: c, tx } | Self::ApricotAtomic { common: c, tx } => {
                common(&mut w, c);
                tx.encode(&mut w);
            }
            Self::ApricotAbort { common: c } | Self::ApricotCommit { common: c } => {
                common(&mut w, c)
            }
            Self::ApricotStandard { common: c, txs } => {
                common(&mut w, c);
                txs.encode(&mut w);
            }
            Self::BanffProposal {
                time,
                txs,
                common: c,
                tx,
            } => {
                w.u64(*time);
                txs.encode(&mut w);
                common(&mut w, c);
                tx.encode(&mut w);
            }
            Self::BanffAbort { time, common: c } | Self::BanffCommit { time, common: c } => {
                w.u64(*time);
                common(&mut w, c);
            }
            Self::BanffStandard {
                time,
                common: c,
                txs,
            } => {
                w.u64(*time);
                common(&mut w, c);
                txs.encode(&mut w);
            }
        }
        w.into_bytes()
    }

    /// The block id: `sha256(bytes)`.
    pub fn id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }
}
