//! The X-Chain history the Data API serves: every UTXO with its creation and
//! consumption, per-address orders by time and by amount (unspent, and all), balances in the
//! X-Chain shape, vertices by height, linear blocks, assets; and the C-Chain's atomic txs.
//!
//! - [`tables`](mod@tables): the tables (add [`tables()`] to a binary's schema);
//! - [`XHistory`]: the [`Derive`](snowline_derive::Derive) hook that fills them in the
//!   same atomic batch as the containers (paired with `XChainState`, both run in one ingest);
//! - [`XHistoryReader`]: typed reads, as key-ordered iterators;
//! - [`XHistoryPages`]: the Data API's listings as keyset pages, each from one snapshot.
//!
//! See `docs/xchain-history.md`.

mod codec;
mod derive;
mod pages;
mod reader;
pub mod rows;
pub mod tables;
mod tx_index;

pub use derive::{HistoryStats, TxNote, XHistory, XJournal, exported_utxos};
pub use pages::LastActivity;
pub use pages::XBalances;
pub use pages::{
    Assets, BalancesPage, PageError, SharedUtxoPage, UtxoPage, UtxoQuery, VertexPage, XHistoryPages,
};
pub use pages::{CTx, CTxPosition, CTxQuery, c_kinds};
pub use pages::{LatestVertexPage, XVertexEntry};
pub use pages::{XBlock, XBlockPage};
pub use pages::{XTx, XTxPage, XTxPlace, XTxQuery, tx_type};
pub use reader::{
    ChainSummary, HistoryUtxo, PositionScan, UtxoOrder, UtxoPosition, XHistoryReader,
};
pub use rows::{
    AssetCap, AssetInfo, AssetTotal, AssetType, BlockRow, Event, Holding, TxRow, UtxoRecord,
    VertexRow,
};
pub use tables::tables;
