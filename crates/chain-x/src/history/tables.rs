//! The Data API's X-Chain tables. Every key is in the order an endpoint reads it (big-endian
//! integers, raw ids), so a page is one range scan from its token's position; see
//! `docs/xchain-history.md` for the layout and cost of each.

use snowline_store::{Access, Table, TableSpec};
use snowline_types::{Id, ShortId};

use super::rows::{AssetInfo, AssetTotal, BlockRow, TxRow, UtxoRecord, VertexRow};

/// `utxo id -> UtxoRecord`: every UTXO ever seen (spent ones kept), with its bytes, amount,
/// chains, creation and consumption.
#[derive(Debug, Clone, Copy)]
pub struct XhUtxos;
impl Table for XhUtxos {
    const NAME: &'static str = "xh_utxos";
    const ACCESS: Access = Access::PointLookup;
    type Key = Id;
    type Value = UtxoRecord;
}

/// `(address, creation ts, utxo id) -> ()`: an owner's unspent UTXOs by time.
#[derive(Debug, Clone, Copy)]
pub struct XhUnspentByTime;
impl Table for XhUnspentByTime {
    const NAME: &'static str = "xh_unspent_by_time";
    type Key = (ShortId, u64, Id);
    type Value = ();
}

/// `(address, amount, utxo id) -> ()`: an owner's unspent UTXOs by amount.
#[derive(Debug, Clone, Copy)]
pub struct XhUnspentByAmount;
impl Table for XhUnspentByAmount {
    const NAME: &'static str = "xh_unspent_by_amount";
    type Key = (ShortId, u64, Id);
    type Value = ();
}

/// `(address, creation ts, utxo id) -> ()`: an owner's UTXOs, spent included, by time (also what
/// balances as of a past time scan).
#[derive(Debug, Clone, Copy)]
pub struct XhAllByTime;
impl Table for XhAllByTime {
    const NAME: &'static str = "xh_all_by_time";
    type Key = (ShortId, u64, Id);
    type Value = ();
}

/// `(address, amount, utxo id) -> ()`: an owner's UTXOs, spent included, by amount.
#[derive(Debug, Clone, Copy)]
pub struct XhAllByAmount;
impl Table for XhAllByAmount {
    const NAME: &'static str = "xh_all_by_amount";
    type Key = (ShortId, u64, Id);
    type Value = ();
}

/// `(address, asset, holding code, shared chain, locktime) -> AssetTotal`: the unspent balance of
/// an address's *single-owner* UTXOs, split by what decides the balance bucket at query time
/// (locked iff locktime > the time asked). Multi-owner UTXOs are in [`XhMultiOwner`] so a query
/// over several addresses counts each once.
#[derive(Debug, Clone, Copy)]
pub struct XhBalances;
impl Table for XhBalances {
    const NAME: &'static str = "xh_balances";
    type Key = (ShortId, Id, u8, Id, u64);
    type Value = AssetTotal;
}

/// `(address, utxo id) -> ()`: unspent UTXOs with more than one owner address.
#[derive(Debug, Clone, Copy)]
pub struct XhMultiOwner;
impl Table for XhMultiOwner {
    const NAME: &'static str = "xh_multi_owner";
    type Key = (ShortId, Id);
    type Value = ();
}

/// `tx id -> TxRow`: every applied tx (dedup of DAG txs seen in `X/tx` and in their vertex).
#[derive(Debug, Clone, Copy)]
pub struct XhTxs;
impl Table for XhTxs {
    const NAME: &'static str = "xh_txs";
    const ACCESS: Access = Access::PointLookup;
    type Key = Id;
    type Value = TxRow;
}

/// `(vertex height, vertex index) -> VertexRow`: `vertices:listByHeight`.
#[derive(Debug, Clone, Copy)]
pub struct XhVertices;
impl Table for XhVertices {
    const NAME: &'static str = "xh_vertices";
    type Key = (u64, u64);
    type Value = VertexRow;
}

/// `height -> BlockRow`: the linear chain (linear genesis at 0).
#[derive(Debug, Clone, Copy)]
pub struct XhBlocks;
impl Table for XhBlocks {
    const NAME: &'static str = "xh_blocks";
    type Key = u64;
    type Value = BlockRow;
}

/// `asset id -> AssetInfo`.
#[derive(Debug, Clone, Copy)]
pub struct XhAssets;
impl Table for XhAssets {
    const NAME: &'static str = "xh_assets";
    const ACCESS: Access = Access::PointLookup;
    type Key = Id;
    type Value = AssetInfo;
}

/// Chain-wide facts: [`META_GENESIS_TIME`], [`META_FIRST_TIME`], [`META_LAST_TIME`].
#[derive(Debug, Clone, Copy)]
pub struct XhMeta;
impl Table for XhMeta {
    const NAME: &'static str = "xh_meta";
    type Key = u8;
    type Value = u64;
}

/// [`XhMeta`] key: the genesis time (present once the genesis was applied).
pub const META_GENESIS_TIME: u8 = 0;
/// [`XhMeta`] key: acceptance time of the first container.
pub const META_FIRST_TIME: u8 = 1;
/// [`XhMeta`] key: acceptance time of the last container.
pub const META_LAST_TIME: u8 = 2;

/// Every history table, for composing a binary's [`Schema`](snowline_store::Schema).
pub fn tables() -> Vec<TableSpec> {
    vec![
        TableSpec::of::<XhUtxos>(),
        TableSpec::of::<XhUnspentByTime>(),
        TableSpec::of::<XhUnspentByAmount>(),
        TableSpec::of::<XhAllByTime>(),
        TableSpec::of::<XhAllByAmount>(),
        TableSpec::of::<XhBalances>(),
        TableSpec::of::<XhMultiOwner>(),
        TableSpec::of::<XhTxs>(),
        TableSpec::of::<XhVertices>(),
        TableSpec::of::<XhBlocks>(),
        TableSpec::of::<XhAssets>(),
        TableSpec::of::<XhMeta>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_apart_from_the_state_tables() {
        let mut names: Vec<&str> = tables().iter().map(|t| t.name).collect();
        names.extend(crate::tables::tables().iter().map(|t| t.name));
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }
}
