//! The X-Chain endpoints of the Data API, read through the chain crate's pages
//! (`snowline_chain_x::history::XHistoryPages`): balances, UTXOs and vertices by height. Each
//! handler parses, calls one page function and renders; `primary` routes them.

pub(crate) mod assets;
pub(crate) mod balances;
pub(crate) mod blocks;
mod context;
pub(crate) mod render;
pub(crate) mod txs;
pub(crate) mod utxos;
pub(crate) mod vertices;

pub use context::XChainApi;
pub(crate) use context::page_error;
