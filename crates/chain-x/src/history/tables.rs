//! The Data API's X-Chain tables. Every key is in the order an endpoint reads it (big-endian
//! integers, raw ids), so a page is one range scan from its token's position; see
//! `docs/xchain-history.md` for the layout and cost of each.

use snowline_store::table;
use snowline_types::{Id, ShortId};

use super::rows::{AssetInfo, AssetTotal, BlockRow, Event, TxRow, UtxoRecord, VertexRow};

table! {
    /// Every history table, for composing a binary's [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `utxo id -> UtxoRecord`: every UTXO ever seen (spent ones kept), with its bytes, amount,
    /// chains, creation and consumption.
    pub XhUtxos: "xh_utxos" (PointLookup), Id => UtxoRecord;

    /// `(address, creation ts, utxo id) -> ()`: an owner's unspent UTXOs by time.
    pub XhUnspentByTime: "xh_unspent_by_time", (ShortId, u64, Id) => ();

    /// `(address, amount, utxo id) -> ()`: an owner's unspent UTXOs by amount.
    pub XhUnspentByAmount: "xh_unspent_by_amount", (ShortId, u64, Id) => ();

    /// `(address, creation ts, utxo id) -> ()`: an owner's UTXOs, spent included, by time (also what
    /// balances as of a past time scan).
    pub XhAllByTime: "xh_all_by_time", (ShortId, u64, Id) => ();

    /// `(address, amount, utxo id) -> ()`: an owner's UTXOs, spent included, by amount.
    pub XhAllByAmount: "xh_all_by_amount", (ShortId, u64, Id) => ();

    /// `(address, asset, holding code, shared chain, locktime) -> AssetTotal`: the unspent balance of
    /// an address's *single-owner* UTXOs, split by what decides the balance bucket at query time
    /// (locked iff locktime > the time asked). Multi-owner UTXOs are in [`XhMultiOwner`] so a query
    /// over several addresses counts each once.
    pub XhBalances: "xh_balances", (ShortId, Id, u8, Id, u64) => AssetTotal;

    /// `(address, utxo id) -> ()`: unspent UTXOs with more than one owner address.
    pub XhMultiOwner: "xh_multi_owner", (ShortId, Id) => ();

    /// `tx id -> TxRow`: every applied tx (dedup of DAG txs seen in `X/tx` and in their vertex).
    pub XhTxs: "xh_txs" (PointLookup), Id => TxRow;

    /// `(address, acceptance ts, tx id) -> ()`: every X-Chain tx an address takes part in (owner
    /// of a UTXO it consumes or emits), by the time the tx was first accepted (genesis txs
    /// aside).
    pub XhTxsByAddress: "xh_txs_by_address", (ShortId, u64, Id) => ();

    /// `(asset, first acceptance ts, tx id) -> ()`: every X-Chain tx consuming or emitting a
    /// UTXO of the asset (genesis txs aside), an asset's txs.
    pub XhTxsByAsset: "xh_txs_by_asset", (Id, u64, Id) => ();

    /// `(acceptance ts, tx id) -> ()`: every X-Chain tx by the time it was first accepted
    /// (genesis txs aside), the chain's latest txs.
    pub XhTxsByTime: "xh_txs_by_time", (u64, Id) => ();

    /// `(tx id, role, utxo id) -> ()`: the UTXOs an X-Chain tx consumed ([`TX_CONSUMED`]) and
    /// emitted ([`TX_EMITTED`]: its outputs and exports).
    pub XhTxUtxos: "xh_tx_utxos", (Id, u8, Id) => ();

    /// `(vertex height, vertex index) -> VertexRow`: `vertices:listByHeight`.
    pub XhVertices: "xh_vertices", (u64, u64) => VertexRow;

    /// `height -> BlockRow`: the linear chain (linear genesis at 0).
    pub XhBlocks: "xh_blocks", u64 => BlockRow;

    /// `asset id -> AssetInfo`.
    pub XhAssets: "xh_assets" (PointLookup), Id => AssetInfo;

    /// `utxo id -> consumption`: imports through atomic memory derived before the export that
    /// creates their UTXO (the other chain's containers arrive later); the export then creates
    /// the UTXO already consumed and removes the entry.
    pub XhEarlySpends: "xh_early_spends" (PointLookup), Id => Event;

    /// Chain-wide facts: [`META_GENESIS_TIME`], [`META_FIRST_TIME`], [`META_LAST_TIME`].
    pub XhMeta: "xh_meta", u8 => u64;
}

/// [`XhMeta`] key: the genesis time (present once the genesis was applied).
pub const META_GENESIS_TIME: u8 = 0;
/// [`XhMeta`] key: acceptance time of the first container.
pub const META_FIRST_TIME: u8 = 1;
/// [`XhMeta`] key: acceptance time of the last container.
pub const META_LAST_TIME: u8 = 2;
/// [`XhMeta`] key: nAVAX the X-Chain's txs burned (`avm::UnsignedTx::burned`), summed.
pub const META_X_BURNED: u8 = 3;

/// [`XhTxUtxos`] role: a UTXO the tx consumed.
pub const TX_CONSUMED: u8 = 0;
/// [`XhTxUtxos`] role: a UTXO the tx emitted.
pub const TX_EMITTED: u8 = 1;
