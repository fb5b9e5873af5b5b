//! X-Chain state derived from accepted containers: the UTXO set with a per-address index,
//! atomic UTXOs exported to the X-Chain, accepted txs, assets and aliases, and linear-chain
//! blocks by id and height.
//!
//! - [`tables`]: the tables (add [`tables::tables`] to a binary's schema);
//! - [`XChainState`]: applies containers; it is the node-index [`Derive`](snowline_node_index::Derive)
//!   hook, so its rows land in the same atomic batch as the containers;
//! - [`XContainer`]: a container decoded once (the derivers' `Prepare`, run off the writer);
//! - [`XReader`]: lookups and avalanchego's `getUTXOs` pagination.
//!
//! See `docs/xchain-state.md`.

mod container;
mod error;
/// The Data API's X-Chain history: UTXOs with creation and consumption, per-address orders,
/// balances, vertices, blocks and assets (`docs/xchain-history.md`).
pub mod history;
mod reader;
mod state;
mod stored_bytes;
pub mod tables;

pub use container::{X_PATHS, XContainer, XVertex};
pub use error::XStateError;
pub use reader::{UtxoPage, XReader};
pub use state::{XChainState, XStats};
