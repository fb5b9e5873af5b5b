//! The X-Chain state `node-rpc`'s `avm.*` serves, as avalanchego keeps it: the UTXO set with a
//! per-address index, atomic UTXOs exported to the X-Chain, accepted txs, assets and aliases, and
//! linear-chain blocks by id and height.
//!
//! - [`tables`]: the tables (add [`tables::tables`] to a binary's schema);
//! - [`XChainState`] (`derive.rs`): the derive hook that applies containers, its rows in the
//!   same atomic batch as the containers;
//! - [`XReader`]: lookups and avalanchego's `getUTXOs` pagination.
//!
//! See `docs/xchain-state.md`.

mod derive;
mod reader;
mod rows;
pub mod tables;

pub use derive::{XChainState, XStats, c_chain_of};
pub use reader::{UtxoPage, XReader, XStateIndex};
