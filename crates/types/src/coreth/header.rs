//! The coreth block header (`graft/coreth/plugin/evm/customtypes/header_ext.go`,
//! `HeaderSerializable`): the 15 Ethereum legacy fields, the required `ExtDataHash` after
//! `Nonce`, then optional fields, each present only when it or a later one is set. The block hash
//! is the keccak-256 of this RLP list.

use alloy_rlp::{Decodable, Encodable};

use super::CorethError;
use super::rlp::{list_payload, put_list};
use crate::hashing::keccak256;

/// A 32-byte hash.
pub type Hash = [u8; 32];

/// A coreth header, every field in RLP order. Upstream's `big.Int` fields are held as `u128`
/// (larger values are rejected: Avalanche's difficulty, fees and gas are far below 2^128) and the
/// block number as `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The parent block's hash.
    pub parent_hash: Hash,
    /// Hash of the uncles list (always the empty list's on Avalanche).
    pub uncle_hash: Hash,
    /// Fee recipient.
    pub coinbase: [u8; 20],
    /// State root.
    pub root: Hash,
    /// Transactions root.
    pub tx_hash: Hash,
    /// Receipts root.
    pub receipt_hash: Hash,
    /// Logs bloom.
    pub bloom: [u8; 256],
    /// Difficulty (1 on Avalanche).
    pub difficulty: u128,
    /// Block number (a `big.Int` upstream; heights beyond `u64` are rejected).
    pub number: u64,
    /// Gas limit.
    pub gas_limit: u64,
    /// Gas used by the EVM txs.
    pub gas_used: u64,
    /// Unix seconds.
    pub time: u64,
    /// Header extra bytes (fee window before Apricot Phase 3 ends, etc.).
    pub extra: Vec<u8>,
    /// Mix digest.
    pub mix_digest: Hash,
    /// Nonce.
    pub nonce: [u8; 8],
    /// keccak-256 of the RLP of the block's extra data (its atomic txs).
    pub ext_data_hash: Hash,
    /// EIP-1559 base fee (Apricot Phase 3).
    pub base_fee: Option<u128>,
    /// Gas used by the atomic txs (Apricot Phase 4).
    pub ext_data_gas_used: Option<u128>,
    /// Block gas cost (Apricot Phase 4).
    pub block_gas_cost: Option<u128>,
    /// EIP-4844 blob gas used.
    pub blob_gas_used: Option<u64>,
    /// EIP-4844 excess blob gas.
    pub excess_blob_gas: Option<u64>,
    /// EIP-4788 parent beacon root.
    pub parent_beacon_root: Option<Hash>,
    /// Block time in milliseconds (Granite).
    pub time_milliseconds: Option<u64>,
    /// ACP-226 minimum delay excess (Granite).
    pub min_delay_excess: Option<u64>,
    /// Target exponent (Helicon).
    pub target_exponent: Option<u64>,
    /// Minimum price exponent (Helicon).
    pub min_price_exponent: Option<u64>,
    /// Settled height.
    pub settled_height: Option<u64>,
    /// Settled gas time.
    pub settled_gas_unix: Option<u64>,
    /// Settled gas numerator.
    pub settled_gas_numerator: Option<u64>,
    /// Settled excess.
    pub settled_excess: Option<u64>,
}

/// Decodes an optional trailing field: absent when the list has ended.
fn optional<T: Decodable>(buf: &mut &[u8]) -> Result<Option<T>, CorethError> {
    if buf.is_empty() {
        return Ok(None);
    }
    Ok(Some(T::decode(buf)?))
}

/// The optional fields in RLP order, `None` encoding as the empty string when a later one is set
/// (as Go's `rlp:"optional"` does for a nil pointer).
enum Opt<'a> {
    Big(&'a Option<u128>),
    Int(&'a Option<u64>),
    Hash(&'a Option<Hash>),
}

impl Opt<'_> {
    fn is_some(&self) -> bool {
        match self {
            Opt::Big(v) => v.is_some(),
            Opt::Int(v) => v.is_some(),
            Opt::Hash(v) => v.is_some(),
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Opt::Big(Some(v)) => v.encode(out),
            Opt::Int(Some(v)) => v.encode(out),
            Opt::Hash(Some(v)) => v.encode(out),
            _ => out.push(alloy_rlp::EMPTY_STRING_CODE),
        }
    }
}

impl Header {
    /// Decodes one header RLP list from the front of `buf`, advancing it. A `None` optional
    /// field followed by a set one cannot be told from a zero and decodes as `Some(0)`, except a
    /// hash, which must then be 32 bytes.
    pub fn decode(buf: &mut &[u8]) -> Result<Self, CorethError> {
        let mut payload = list_payload(buf)?;
        let p = &mut payload;
        let h = Header {
            parent_hash: Hash::decode(p)?,
            uncle_hash: Hash::decode(p)?,
            coinbase: <[u8; 20]>::decode(p)?,
            root: Hash::decode(p)?,
            tx_hash: Hash::decode(p)?,
            receipt_hash: Hash::decode(p)?,
            bloom: <[u8; 256]>::decode(p)?,
            difficulty: u128::decode(p)?,
            number: u64::decode(p)?,
            gas_limit: u64::decode(p)?,
            gas_used: u64::decode(p)?,
            time: u64::decode(p)?,
            extra: alloy_rlp::Bytes::decode(p)?.to_vec(),
            mix_digest: Hash::decode(p)?,
            nonce: <[u8; 8]>::decode(p)?,
            ext_data_hash: Hash::decode(p)?,
            base_fee: optional(p)?,
            ext_data_gas_used: optional(p)?,
            block_gas_cost: optional(p)?,
            blob_gas_used: optional(p)?,
            excess_blob_gas: optional(p)?,
            parent_beacon_root: optional(p)?,
            time_milliseconds: optional(p)?,
            min_delay_excess: optional(p)?,
            target_exponent: optional(p)?,
            min_price_exponent: optional(p)?,
            settled_height: optional(p)?,
            settled_gas_unix: optional(p)?,
            settled_gas_numerator: optional(p)?,
            settled_excess: optional(p)?,
        };
        if !p.is_empty() {
            return Err(CorethError::Malformed(
                "header has fields after settledExcess",
            ));
        }
        Ok(h)
    }

    /// The RLP encoding of this header.
    pub fn rlp(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(640);
        self.parent_hash.encode(&mut payload);
        self.uncle_hash.encode(&mut payload);
        self.coinbase.encode(&mut payload);
        self.root.encode(&mut payload);
        self.tx_hash.encode(&mut payload);
        self.receipt_hash.encode(&mut payload);
        self.bloom.encode(&mut payload);
        self.difficulty.encode(&mut payload);
        self.number.encode(&mut payload);
        self.gas_limit.encode(&mut payload);
        self.gas_used.encode(&mut payload);
        self.time.encode(&mut payload);
        self.extra.as_slice().encode(&mut payload);
        self.mix_digest.encode(&mut payload);
        self.nonce.encode(&mut payload);
        self.ext_data_hash.encode(&mut payload);
        let opts = self.optionals();
        let last = opts.iter().rposition(Opt::is_some);
        if let Some(last) = last {
            for o in opts.iter().take(last + 1) {
                o.encode(&mut payload);
            }
        }
        let mut out = Vec::with_capacity(payload.len() + 4);
        put_list(&mut out, &payload);
        out
    }

    fn optionals(&self) -> [Opt<'_>; 14] {
        [
            Opt::Big(&self.base_fee),
            Opt::Big(&self.ext_data_gas_used),
            Opt::Big(&self.block_gas_cost),
            Opt::Int(&self.blob_gas_used),
            Opt::Int(&self.excess_blob_gas),
            Opt::Hash(&self.parent_beacon_root),
            Opt::Int(&self.time_milliseconds),
            Opt::Int(&self.min_delay_excess),
            Opt::Int(&self.target_exponent),
            Opt::Int(&self.min_price_exponent),
            Opt::Int(&self.settled_height),
            Opt::Int(&self.settled_gas_unix),
            Opt::Int(&self.settled_gas_numerator),
            Opt::Int(&self.settled_excess),
        ]
    }

    /// The block hash: keccak-256 of the header's RLP.
    pub fn hash(&self) -> Hash {
        keccak256(&self.rlp())
    }
}

impl Default for Header {
    fn default() -> Self {
        Header {
            parent_hash: [0; 32],
            uncle_hash: [0; 32],
            coinbase: [0; 20],
            root: [0; 32],
            tx_hash: [0; 32],
            receipt_hash: [0; 32],
            bloom: [0; 256],
            difficulty: 0,
            number: 0,
            gas_limit: 0,
            gas_used: 0,
            time: 0,
            extra: Vec::new(),
            mix_digest: [0; 32],
            nonce: [0; 8],
            ext_data_hash: [0; 32],
            base_fee: None,
            ext_data_gas_used: None,
            block_gas_cost: None,
            blob_gas_used: None,
            excess_blob_gas: None,
            parent_beacon_root: None,
            time_milliseconds: None,
            min_delay_excess: None,
            target_exponent: None,
            min_price_exponent: None,
            settled_height: None,
            settled_gas_unix: None,
            settled_gas_numerator: None,
            settled_excess: None,
        }
    }
}
