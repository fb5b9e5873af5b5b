//! The X-Chain state tables. Keys are in query order; values are compact binary, UTXOs in the
//! chain's own codec bytes (exactly what `avm.getUTXOs` serves).

use snowline_store::value::ValueCodec;
use snowline_store::{DecodeError, Desc, table};
use snowline_types::{Id, ShortId};

pub use super::rows::StoredBytes;

table! {
    /// Every table of the X-Chain state, for composing a binary's [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `utxo id -> (creation seq, utxo bytes)`: the current (unspent) UTXO set of the X-Chain.
    pub XUtxos: "x_utxos" (PointLookup), Id => UtxoRow;

    /// `(address, Desc(seq), utxo id) -> ()`: per address, its UTXOs newest first (avalanchego keeps
    /// a linked list with the newest at the head, `vms/components/avax/utxo_state.go`).
    pub XAddrUtxos: "x_addr_utxos", (ShortId, Desc<u64>, Id) => ();

    /// `(address, utxo id) -> seq`: where a UTXO sits in its address's list (`startIndex`
    /// resumption).
    pub XAddrUtxoPos: "x_addr_utxo_pos" (PointLookup), (ShortId, Id) => u64;

    /// `(source chain, utxo id) -> (seq, utxo bytes)`: UTXOs other chains exported to the X-Chain
    /// and not yet imported (its shared memory).
    pub XAtomicUtxos: "x_atomic_utxos" (PointLookup), (Id, Id) => UtxoRow;

    /// `(source chain, address, Desc(seq), utxo id) -> ()`: atomic UTXOs per address, newest first.
    pub XAtomicAddrUtxos: "x_atomic_addr_utxos", (Id, ShortId, Desc<u64>, Id) => ();

    /// `(source chain, address, utxo id) -> seq`: position of an atomic UTXO in its address list.
    pub XAtomicAddrPos: "x_atomic_addr_pos" (PointLookup), (Id, ShortId, Id) => u64;

    /// `(source chain, utxo id) -> importing tx`: atomic UTXOs an X-Chain `ImportTx` took before
    /// the source's export was derived (the other chain's containers arrive later); the export
    /// then leaves them out of shared memory and removes the entry.
    pub XAtomicEarlyImports: "x_atomic_early_imports" (PointLookup), (Id, Id) => Id;

    /// `(source chain, utxo id) -> importing tx`: atomic UTXOs an X-Chain `ImportTx` took out of
    /// shared memory. Shared memory forgets them; the state remembers, so an export read again
    /// (its container delivered twice) is the same put, not a second one.
    pub XAtomicConsumed: "x_atomic_consumed" (PointLookup), (Id, Id) => Id;

    /// `tx id -> where its signed bytes are`: every accepted X-Chain tx (genesis txs included),
    /// as a range of the container holding it (or inline for genesis txs).
    pub XTxs: "x_txs" (PointLookup), Id => StoredBytes;

    /// `asset id -> (name, symbol, denomination)`: every asset a `CreateAssetTx` created.
    pub XAssets: "x_assets" (PointLookup), Id => AssetRow;

    /// `alias -> asset id` (`AVAX` → the genesis asset; avalanchego `genesis.go` aliases).
    pub XAssetAliases: "x_asset_aliases" (PointLookup), String => Id;

    /// `asset id -> primary alias`, for `getAllBalances` (`PrimaryAliasOrDefault`).
    pub XAssetPrimaryAlias: "x_asset_primary_alias" (PointLookup), Id => String;

    /// `inner avm block id -> height`.
    pub XBlockIds: "x_block_ids" (PointLookup), Id => u64;

    /// `height -> where the inner avm block bytes are` (what `avm.getBlock` serves, not the
    /// proposervm wrapper): a range of its `X/block` container, or inline for the genesis block.
    pub XBlocks: "x_blocks", u64 => StoredBytes;

    /// Counters: [`META_NEXT_SEQ`], [`META_GENESIS`], [`META_NEXT_ATOMIC_SEQ`],
    /// [`META_NEXT_C_ATOMIC_SEQ`].
    pub XMeta: "x_meta", u8 => u64;
}

/// [`XMeta`] key: the next UTXO creation sequence number.
pub const META_NEXT_SEQ: u8 = 0;
/// [`XMeta`] key: present (value 1) once the genesis was applied.
pub const META_GENESIS: u8 = 1;
/// [`XMeta`] key: the next sequence number of an atomic UTXO from the P-Chain (or of another
/// chain but C). Atomic UTXOs count apart from X's own, and per source chain, so every order
/// stays the same whichever chain's containers arrive first.
pub const META_NEXT_ATOMIC_SEQ: u8 = 2;
/// [`XMeta`] key: the next sequence number of an atomic UTXO from the C-Chain.
pub const META_NEXT_C_ATOMIC_SEQ: u8 = 3;

/// A stored UTXO: `u64 BE seq ‖ utxo bytes` (codec version 0, as the node marshals it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoRow {
    /// Creation order (larger = newer).
    pub seq: u64,
    /// The UTXO bytes.
    pub bytes: Vec<u8>,
}

impl ValueCodec for UtxoRow {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.reserve(8 + self.bytes.len());
        out.extend_from_slice(&self.seq.to_be_bytes());
        out.extend_from_slice(&self.bytes);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (Some(seq), Some(rest)) = (bytes.get(..8), bytes.get(8..)) else {
            return Err(DecodeError::UnexpectedEnd {
                needed: 8,
                remaining: bytes.len(),
            });
        };
        let seq = <[u8; 8]>::try_from(seq).map_err(|e| DecodeError::Other(e.to_string()))?;
        Ok(Self {
            seq: u64::from_be_bytes(seq),
            bytes: rest.to_vec(),
        })
    }
}

/// An asset: `u8 denomination ‖ u32 BE name length ‖ name ‖ symbol`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetRow {
    /// Human-readable name.
    pub name: String,
    /// Ticker symbol.
    pub symbol: String,
    /// Decimal places.
    pub denomination: u8,
}

impl ValueCodec for AssetRow {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.push(self.denomination);
        let len = u32::try_from(self.name.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(self.symbol.as_bytes());
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let short = || DecodeError::UnexpectedEnd {
            needed: 5,
            remaining: bytes.len(),
        };
        let denomination = *bytes.first().ok_or_else(short)?;
        let len = bytes
            .get(1..5)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .ok_or_else(short)?;
        let len = usize::try_from(u32::from_be_bytes(len))
            .map_err(|e| DecodeError::Other(e.to_string()))?;
        let end = 5usize.saturating_add(len);
        let (Some(name), Some(symbol)) = (bytes.get(5..end), bytes.get(end..)) else {
            return Err(DecodeError::UnexpectedEnd {
                needed: end,
                remaining: bytes.len(),
            });
        };
        let text =
            |b: &[u8]| String::from_utf8(b.to_vec()).map_err(|e| DecodeError::Other(e.to_string()));
        Ok(Self {
            name: text(name)?,
            symbol: text(symbol)?,
            denomination,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_store::encode_value;

    #[test]
    fn utxo_row_layout() {
        let r = UtxoRow {
            seq: 258,
            bytes: vec![9, 8],
        };
        let enc = encode_value(&r);
        assert_eq!(enc, vec![0, 0, 0, 0, 0, 0, 1, 2, 9, 8]);
        assert_eq!(UtxoRow::decode_value(&enc), Ok(r));
        assert!(UtxoRow::decode_value(&enc[..7]).is_err());
    }

    #[test]
    fn asset_row_layout() {
        let a = AssetRow {
            name: "Avalanche".into(),
            symbol: "AVAX".into(),
            denomination: 9,
        };
        let enc = encode_value(&a);
        assert_eq!(&enc[..5], &[9, 0, 0, 0, 9]);
        assert_eq!(AssetRow::decode_value(&enc), Ok(a));
        assert!(AssetRow::decode_value(&enc[..8]).is_err());
        assert!(AssetRow::decode_value(&[1, 0xff, 0xff, 0xff, 0xff]).is_err());
    }
}
