//! The P-Chain endpoints of the Data API, read through the chain crate's pages
//! (`snowline_chain_p::pages::PChainPages`): balances, UTXOs, rewards paid and pending, blocks by
//! proposer, L1 validators. Each handler parses, calls one page function and renders; `primary`
//! routes them.

pub(crate) mod balances;
pub(crate) mod blocks;
mod context;
pub(crate) mod l1;
mod render;
pub(crate) mod rewards;
pub(crate) mod staking;
pub(crate) mod txs;
pub(crate) mod utxos;

pub use context::PChainApi;
pub(crate) use context::{asset_amount, page_error};
