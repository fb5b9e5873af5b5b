//! A coreth block's extra data: its atomic txs (`graft/coreth/plugin/evm/atomic/codec.go`,
//! `ExtractAtomicTxs`): codec version 0, then a batch `[]*Tx` from Apricot Phase 5 on, a single
//! `Tx` before; and the header's `ExtDataHash`, keccak-256 of the extra data's RLP.

use alloy_rlp::Encodable;

use super::CorethError;
use super::atomic_tx::{ParsedTx, Tx};
use super::header::Hash;
use crate::codec::{CODEC_VERSION, DEFAULT_MAX_SIZE, Decode, MinSize, Reader, Writer};
use crate::hashing::keccak256;
use crate::network::{FUJI_ID, MAINNET_ID};

/// `customtypes.EmptyExtDataHash`: the hash of empty extra data, `keccak256(rlp(""))`.
pub const EMPTY_EXT_DATA_HASH: Hash = [
    0x56, 0xe8, 0x1f, 0x17, 0x1b, 0xcc, 0x55, 0xa6, 0xff, 0x83, 0x45, 0xe6, 0x92, 0xc0, 0xf8, 0x6e,
    0x5b, 0x48, 0xe0, 0x1b, 0x99, 0x6c, 0xad, 0xc0, 0x01, 0x62, 0x2f, 0xb5, 0xe3, 0x63, 0xb4, 0x21,
];

/// The header's `ExtDataHash` for `ext_data`: keccak-256 of its RLP string encoding.
pub fn ext_data_hash(ext_data: &[u8]) -> Hash {
    let mut out = Vec::with_capacity(ext_data.len() + 9);
    ext_data.encode(&mut out);
    keccak256(&out)
}

/// When Apricot Phase 5 began on `network_id` (Unix seconds; `upgrade/upgrade.go`): from then
/// on a block's extra data is a batch of txs. Other networks have it from genesis.
pub fn apricot_phase5_time(network_id: u32) -> u64 {
    match network_id {
        MAINNET_ID => 1_638_468_000,
        FUJI_ID => 1_637_766_000,
        _ => 0,
    }
}

/// Whether a block of `network_id` made at `time` (Unix seconds) holds a batch of atomic txs.
pub fn is_batch(network_id: u32, time: u64) -> bool {
    time >= apricot_phase5_time(network_id)
}

/// The atomic txs of a block's extra data, in order: none when it is empty; one tx before
/// Apricot Phase 5 (`batch` false); a non-empty batch after.
pub fn parse_ext_data(ext_data: &[u8], batch: bool) -> Result<Vec<ParsedTx>, CorethError> {
    if ext_data.is_empty() {
        return Ok(Vec::new());
    }
    if !batch {
        return Ok(vec![ParsedTx::parse_with_max(ext_data, DEFAULT_MAX_SIZE)?]);
    }
    if ext_data.len() > DEFAULT_MAX_SIZE {
        return Err(crate::codec::CodecError::TooLarge {
            len: ext_data.len(),
            max: DEFAULT_MAX_SIZE,
        }
        .into());
    }
    let mut r = Reader::new(ext_data);
    let version = r.u16()?;
    if version != CODEC_VERSION {
        return Err(crate::codec::CodecError::UnknownVersion(version).into());
    }
    let n = r.count(Tx::MIN_SIZE, "C-Chain atomic tx")?;
    if n == 0 {
        return Err(CorethError::EmptyBatch);
    }
    let mut txs = Vec::with_capacity(n);
    for _ in 0..n {
        let start = r.position();
        Tx::decode(&mut r)?;
        let body = ext_data.get(start..r.position()).unwrap_or(&[]);
        let mut signed = Vec::with_capacity(body.len() + 2);
        signed.extend_from_slice(&CODEC_VERSION.to_be_bytes());
        signed.extend_from_slice(body);
        txs.push(ParsedTx::from_vec_with_max(signed, usize::MAX)?);
    }
    r.finish()?;
    Ok(txs)
}

/// The extra data holding `txs`: a batch (Apricot Phase 5 on), or the single tx's bytes when
/// `batch` is false and there is exactly one; empty for none.
pub fn encode_ext_data(txs: &[Tx], batch: bool) -> Vec<u8> {
    match txs {
        [] => Vec::new(),
        [tx] if !batch => tx.bytes(),
        _ => {
            let mut w = Writer::with_capacity(512 * txs.len());
            w.u16(CODEC_VERSION);
            w.len_u32(txs.len());
            for tx in txs {
                crate::codec::Encode::encode(tx, &mut w);
            }
            w.into_bytes()
        }
    }
}
