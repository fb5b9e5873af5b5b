//! The X-Chain history the Data API serves (issue #5): every UTXO with its creation and
//! consumption, per-address orders by time and by amount (unspent, and all), balances in the
//! X-Chain shape, vertices by height, linear blocks, assets.
//!
//! - [`tables`]: the tables (add [`tables::tables`] to a binary's schema);
//! - [`XHistory`]: the [`Derive`](snowline_node_index::Derive) hook that fills them in the same
//!   atomic batch as the containers; [`DeriveBoth`] runs it next to `XChainState`;
//! - [`XHistoryReader`]: what the endpoints read, as key-ordered iterators.
//!
//! See `docs/xchain-history.md`.

mod balances;
mod both;
mod codec;
mod derive;
mod pending;
mod reader;
pub mod rows;
pub mod tables;

pub use balances::XBalances;
pub use both::DeriveBoth;
pub use derive::{HistoryStats, XHistory, exported_utxos};
pub use reader::{
    ChainSummary, HistoryUtxo, PositionScan, UtxoOrder, UtxoPosition, XHistoryReader,
};
pub use rows::{
    AssetCap, AssetInfo, AssetTotal, AssetType, BlockRow, Event, Holding, TxRow, UtxoRecord,
    VertexRow,
};
pub use tables::tables;
