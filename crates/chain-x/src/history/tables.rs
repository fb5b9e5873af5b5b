//! The Data API's X-Chain tables. Every key is in the order an endpoint reads it (big-endian
//! integers, raw ids), so a page is one range scan from its token's position; see
//! `docs/xchain-history.md` for the layout and cost of each.

use snowline_store::table;
use snowline_types::{Id, NodeId, ShortId};

use super::rows::{AssetInfo, AssetTotal, BlockRow, CTxRow, Event, TxRow, UtxoRecord, VertexRow};

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

    /// `(proposer, block time, height) -> ()`: the linear blocks whose proposervm wrapper is
    /// signed, by the node that signed it (`listPrimaryNetworkBlocksByNodeId`).
    pub XhBlocksByProposer: "xh_blocks_by_proposer", (NodeId, u64, u64) => ();

    /// `asset id -> AssetInfo`.
    pub XhAssets: "xh_assets" (PointLookup), Id => AssetInfo;

    /// `utxo id -> consumption`: imports through atomic memory derived before the export that
    /// creates their UTXO (the other chain's containers arrive later); the export then creates
    /// the UTXO already consumed and removes the entry.
    pub XhEarlySpends: "xh_early_spends" (PointLookup), Id => Event;

    /// `C-Chain atomic tx id -> CTxRow`: every `ImportTx` and `ExportTx` of the C-Chain (with
    /// the X- or the P-Chain): its block and where its bytes lie in the block's container.
    pub XhCTxs: "xh_c_txs" (PointLookup), Id => CTxRow;

    /// `(kind, block time, tx id) -> ()`: the C-Chain's atomic txs by their block's time, each
    /// kind ([`C_IMPORT`], [`C_EXPORT`]) apart, the chain's latest.
    pub XhCTxsByTime: "xh_c_txs_by_time", (u8, u64, Id) => ();

    /// `((address, role), block time, tx id) -> ()`: the C-Chain's atomic txs an address takes
    /// part in. Roles [`C_OWNER_IMPORT`] / [`C_OWNER_EXPORT`]: an owner of a UTXO the tx moves
    /// through the X-Chain's shared memory (the P-Chain's side is `ph_c_txs_by_address`);
    /// [`C_EVM_IMPORT`] / [`C_EVM_EXPORT`]: the EVM address an import credits or an export
    /// debits, for txs with either chain.
    pub XhCTxsByAddress: "xh_c_txs_by_address", ((ShortId, u8), u64, Id) => ();

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

/// [`XhCTxsByTime`] kind: an `ImportTx`.
pub const C_IMPORT: u8 = 0;
/// [`XhCTxsByTime`] kind: an `ExportTx`.
pub const C_EXPORT: u8 = 1;
/// [`XhCTxsByAddress`] role: an owner of a UTXO an `ImportTx` consumed.
pub const C_OWNER_IMPORT: u8 = 0;
/// [`XhCTxsByAddress`] role: an owner of a UTXO an `ExportTx` emitted.
pub const C_OWNER_EXPORT: u8 = 1;
/// [`XhCTxsByAddress`] role: an EVM address an `ImportTx` credits.
pub const C_EVM_IMPORT: u8 = 2;
/// [`XhCTxsByAddress`] role: an EVM address an `ExportTx` debits.
pub const C_EVM_EXPORT: u8 = 3;
