//! The C-Chain endpoints of the Data API: its blocks as the `C/block` containers give them
//! (`blocks`), its atomic txs (`txs`), and the balances and UTXOs of
//! its atomic memory (what the X- and P-Chain exported to it, not imported yet, and what it
//! exported to them, not imported there), read through both chain crates' pages (`XHistoryPages::shared_utxos`,
//! `PChainPages::shared_utxos` and their balances) and merged. Its EVM side is served elsewhere.
//! Each handler parses, calls the page functions and renders; `primary` routes them.

pub(crate) mod balances;
pub(crate) mod blocks;
mod context;
mod render;
pub(crate) mod txs;
pub(crate) mod utxos;

pub use context::CChainApi;
