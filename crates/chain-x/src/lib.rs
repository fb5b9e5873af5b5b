//! The X-Chain's room: everything Snowline derives from and reads about the X-Chain.
//!
//! - [`state`]: the `avm.*` view (`node-rpc`): UTXO set, atomic UTXOs, txs, assets, blocks;
//! - [`history`]: the Data API view: every UTXO with its creation and consumption, per-address
//!   orders, balances, vertices, blocks, assets, and the listings as keyset pages;
//! - [`XContainer`]: a container decoded once, the hooks' shared `Prepare`, [`X_PATHS`] and
//!   [`X_DERIVE_PATHS`] (X's paths and `P/block`, for the atomic memory the chains share).
//!
//! Both views are derive hooks (`snowline_derive`) of the node-index ingest, each with the same
//! rooms: `tables.rs`, `derive.rs`, `reader.rs` (and `pages.rs` for the Data API's listings).

mod container;
mod error;
pub mod history;
pub mod state;

pub use container::{X_DERIVE_PATHS, X_PATHS, XContainer, XVertex};
pub use error::XStateError;
