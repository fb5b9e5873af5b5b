//! The proposer-VM wrapper around snowman blocks (`vms/proposervm/block`): what `/ext/index/X/block`
//! stores. Type ids: 0 `statelessBlock` (signed or unsigned), 1 `option`, 2 `statelessGraniteBlock`.
//!
//! `u16 0 | u32 type | parentID | i64 timestamp | u64 pChainHeight | u32+certificate | u32+block
//! | [granite: u64 epochPChainHeight | u64 epochNumber | i64 epochStartTime] | u32+signature`;
//! an option is `u16 0 | u32 1 | parentID | u32+block`.

use crate::codec::{CODEC_VERSION, CodecError, Reader, Writer};
use crate::hashing::{hash160, sha256};
use crate::{Id, NodeId, ShortId};

/// Type id of a (pre-Granite) stateless block.
pub const STATELESS_BLOCK: u32 = 0;
/// Type id of an option block.
pub const OPTION_BLOCK: u32 = 1;
/// Type id of a Granite stateless block (with an epoch).
pub const STATELESS_GRANITE_BLOCK: u32 = 2;

/// The P-Chain epoch a Granite block was built in (`block.Epoch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Epoch {
    /// P-Chain height of the epoch.
    pub p_chain_height: u64,
    /// Epoch number.
    pub number: u64,
    /// Unix seconds the epoch started.
    pub start_time: i64,
}

/// The fields of a signed-or-unsigned stateless block.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StatelessBlock {
    /// Parent proposervm block id.
    pub parent_id: Id,
    /// Unix seconds.
    pub timestamp: i64,
    /// The P-Chain height the proposer used.
    pub p_chain_height: u64,
    /// DER staking certificate of the proposer; empty when unsigned.
    pub certificate: Vec<u8>,
    /// The inner VM block bytes.
    pub inner: Vec<u8>,
    /// `Some` for Granite blocks (type 2).
    pub epoch: Option<Epoch>,
    /// Signature over the header; empty when unsigned.
    pub signature: Vec<u8>,
}

/// An outer proposervm block.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Block {
    /// Type 0 or 2.
    Stateless(StatelessBlock),
    /// Type 1: an oracle option wrapping an inner block.
    Option {
        /// Parent proposervm block id.
        parent_id: Id,
        /// Inner VM block bytes.
        inner: Vec<u8>,
    },
}

/// A parsed proposervm block with its bytes and id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedBlock {
    /// The block.
    pub block: Block,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The proposervm block id (see [`Block::id_of`]).
    pub id: Id,
}

impl Block {
    /// Parses outer block bytes: version 0, a known type id, nothing trailing. No size limit
    /// (the proposervm codec uses `math.MaxInt`); callers bound their input.
    pub fn parse(bytes: &[u8]) -> Result<ParsedBlock, CodecError> {
        let block = Self::decode_outer(bytes)?;
        let id = block.id_of(bytes);
        Ok(ParsedBlock {
            block,
            bytes: bytes.to_vec(),
            id,
        })
    }

    /// [`Block::parse`] of bytes the caller owns: they are kept without a copy.
    pub fn parse_vec(bytes: Vec<u8>) -> Result<ParsedBlock, CodecError> {
        let block = Self::decode_outer(&bytes)?;
        let id = block.id_of(&bytes);
        Ok(ParsedBlock { block, bytes, id })
    }

    /// Decodes outer block bytes as [`Block::parse`] does, without hashing them for the id or
    /// copying them: for a caller that needs only the wrapped block (an X-Chain indexer given a
    /// container whose id was already checked).
    pub fn decode(bytes: &[u8]) -> Result<Block, CodecError> {
        Self::decode_outer(bytes)
    }

    /// Decodes outer block bytes: version 0, a known type id, nothing trailing.
    fn decode_outer(bytes: &[u8]) -> Result<Block, CodecError> {
        let mut r = Reader::new(bytes);
        let version = r.u16()?;
        if version != CODEC_VERSION {
            return Err(CodecError::UnknownVersion(version));
        }
        let block = match r.u32()? {
            OPTION_BLOCK => Block::Option {
                parent_id: Id(r.array()?),
                inner: r.bytes()?.to_vec(),
            },
            t @ (STATELESS_BLOCK | STATELESS_GRANITE_BLOCK) => {
                let parent_id = Id(r.array()?);
                let timestamp = r.i64()?;
                let p_chain_height = r.u64()?;
                let certificate = r.bytes()?.to_vec();
                let inner = r.bytes()?.to_vec();
                let epoch = if t == STATELESS_GRANITE_BLOCK {
                    Some(Epoch {
                        p_chain_height: r.u64()?,
                        number: r.u64()?,
                        start_time: r.i64()?,
                    })
                } else {
                    None
                };
                let signature = r.bytes()?.to_vec();
                Block::Stateless(StatelessBlock {
                    parent_id,
                    timestamp,
                    p_chain_height,
                    certificate,
                    inner,
                    epoch,
                    signature,
                })
            }
            type_id => {
                return Err(CodecError::UnknownTypeId {
                    type_id,
                    context: "proposervm block",
                });
            }
        };
        r.finish()?;
        Ok(block)
    }

    /// The block bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(128 + self.inner().len());
        w.u16(CODEC_VERSION);
        match self {
            Block::Option { parent_id, inner } => {
                w.u32(OPTION_BLOCK);
                w.raw(&parent_id.0);
                w.bytes(inner);
            }
            Block::Stateless(b) => {
                w.u32(if b.epoch.is_some() {
                    STATELESS_GRANITE_BLOCK
                } else {
                    STATELESS_BLOCK
                });
                w.raw(&b.parent_id.0);
                w.i64(b.timestamp);
                w.u64(b.p_chain_height);
                w.bytes(&b.certificate);
                w.bytes(&b.inner);
                if let Some(e) = &b.epoch {
                    w.u64(e.p_chain_height);
                    w.u64(e.number);
                    w.i64(e.start_time);
                }
                w.bytes(&b.signature);
            }
        }
        w.into_bytes()
    }

    /// The id of this block given its bytes: for stateless blocks `sha256` of the bytes without
    /// the trailing `u32 len | signature` (`statelessBlockMetadata.initialize`); for options
    /// `sha256` of all the bytes (`option.initialize`).
    pub fn id_of(&self, bytes: &[u8]) -> Id {
        match self {
            Block::Option { .. } => Id(sha256(bytes)),
            Block::Stateless(_) => {
                let cut = self.id_len(bytes.len());
                Id(sha256(bytes.get(..cut).unwrap_or(&[])))
            }
        }
    }

    /// How many leading bytes of its `len` encoded bytes the id hashes (see
    /// [`Block::id_of`]): all of an option, all but the trailing signature of a stateless block.
    pub fn id_len(&self, len: usize) -> usize {
        match self {
            Block::Option { .. } => len,
            Block::Stateless(b) => len.saturating_sub(4 + b.signature.len()),
        }
    }

    /// The id, encoding the block first.
    pub fn id(&self) -> Id {
        self.id_of(&self.bytes())
    }

    /// The parent proposervm block id.
    pub fn parent_id(&self) -> Id {
        match self {
            Block::Option { parent_id, .. } => *parent_id,
            Block::Stateless(b) => b.parent_id,
        }
    }

    /// The wrapped inner VM block bytes.
    pub fn inner(&self) -> &[u8] {
        match self {
            Block::Option { inner, .. } => inner,
            Block::Stateless(b) => &b.inner,
        }
    }

    /// Where the inner VM block bytes start in this block's encoding ([`Block::bytes`]): after
    /// the fields before it and its `u32` length. Lets an index point into a stored container
    /// instead of keeping a second copy of the inner block.
    pub fn inner_offset(&self) -> usize {
        // version (2), type id (4), parent id (32), then for a stateless block timestamp (8),
        // P-Chain height (8) and the length-prefixed certificate (4 + n); the inner's length (4).
        match self {
            Block::Option { .. } => 2 + 4 + 32 + 4,
            Block::Stateless(b) => 2 + 4 + 32 + 8 + 8 + 4 + b.certificate.len() + 4,
        }
    }

    /// The wrapped inner VM block bytes, taken out of the block without a copy.
    pub fn into_inner(self) -> Vec<u8> {
        match self {
            Block::Option { inner, .. } => inner,
            Block::Stateless(b) => b.inner,
        }
    }

    /// The proposer: `hash160` of the certificate (`ids.NodeIDFromCert`); `None` for unsigned
    /// blocks and options.
    pub fn proposer(&self) -> Option<NodeId> {
        match self {
            Block::Stateless(b) if !b.certificate.is_empty() => {
                Some(NodeId(ShortId(hash160(&b.certificate))))
            }
            _ => None,
        }
    }

    /// An unsigned block (empty certificate and signature) as `BuildUnsigned` makes for a devnet;
    /// a zero `epoch` gives a pre-Granite block (type 0), any other a Granite one (type 2).
    pub fn build_unsigned(
        parent_id: Id,
        timestamp: i64,
        p_chain_height: u64,
        epoch: Epoch,
        inner: Vec<u8>,
    ) -> ParsedBlock {
        let block = Block::Stateless(StatelessBlock {
            parent_id,
            timestamp,
            p_chain_height,
            certificate: Vec::new(),
            inner,
            epoch: (epoch != Epoch::default()).then_some(epoch),
            signature: Vec::new(),
        });
        let bytes = block.bytes();
        let id = block.id_of(&bytes);
        ParsedBlock { block, bytes, id }
    }

    /// A signed pre-Granite block (`block.Build`): the id is `sha256` of the bytes without the
    /// signature, and `sign` is given `sha256(header)` ([`header_bytes`] of `chain_id`, the
    /// parent and that id) and returns the proposer's signature (for an ECDSA staking key, the
    /// ASN.1 DER signature of that digest, as `staking.CheckSignature` verifies it).
    #[allow(clippy::too_many_arguments)]
    pub fn build_signed<E>(
        parent_id: Id,
        timestamp: i64,
        p_chain_height: u64,
        certificate: Vec<u8>,
        inner: Vec<u8>,
        chain_id: Id,
        sign: impl FnOnce(&[u8; 32]) -> Result<Vec<u8>, E>,
    ) -> Result<ParsedBlock, E> {
        let mut block = StatelessBlock {
            parent_id,
            timestamp,
            p_chain_height,
            certificate,
            inner,
            epoch: None,
            signature: Vec::new(),
        };
        let id = Block::Stateless(block.clone()).id();
        let header_hash = sha256(&header_bytes(chain_id, parent_id, id));
        block.signature = sign(&header_hash)?;
        let block = Block::Stateless(block);
        let bytes = block.bytes();
        Ok(ParsedBlock { block, bytes, id })
    }

    /// The header a signed block's signature covers (see [`header_bytes`]); `None` for options
    /// and unsigned blocks.
    pub fn signed_header(&self, chain_id: Id) -> Option<Vec<u8>> {
        match self {
            Block::Stateless(b) if !b.certificate.is_empty() => {
                Some(header_bytes(chain_id, b.parent_id, self.id()))
            }
            _ => None,
        }
    }

    /// An option block (`BuildOption`).
    pub fn build_option(parent_id: Id, inner: Vec<u8>) -> ParsedBlock {
        let block = Block::Option { parent_id, inner };
        let bytes = block.bytes();
        let id = block.id_of(&bytes);
        ParsedBlock { block, bytes, id }
    }
}

/// The proposervm block header a proposer signs (`block.BuildHeader`, `statelessHeader`):
/// `u16 0 | chainID | parentID | bodyID`, the body id being the block id.
pub fn header_bytes(chain_id: Id, parent_id: Id, body_id: Id) -> Vec<u8> {
    let mut w = Writer::with_capacity(98);
    w.u16(CODEC_VERSION);
    w.raw(&chain_id.0);
    w.raw(&parent_id.0);
    w.raw(&body_id.0);
    w.into_bytes()
}
