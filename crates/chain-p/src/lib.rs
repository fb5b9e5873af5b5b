//! The P-Chain's room: what the Data API serves about the P-Chain, derived from accepted
//! `P/block` containers (and the X-Chain's atomic txs, for the atomic memory the two share) in
//! the same atomic batch as the containers.
//!
//! - [`tables`](mod@tables): the tables (add [`tables()`] to a binary's schema);
//! - [`PChain`]: the [`Derive`](snowline_derive::Derive) hook that fills them
//!   (UTXOs with creation, consumption and staking, per-address orders, stakers and their
//!   rewards, blocks by proposer, subnets, chains, L1 validators, the current supply);
//! - [`PReader`]: typed reads, from one snapshot;
//! - [`pages::PChainPages`]: the Data API's listings, as keyset pages;
//! - [`record_uptimes`]: the followed node's uptimes of the current validators, polled beside
//!   the follower.
//!
//! See `docs/pchain-history.md`.

mod container;
mod derive;
mod error;
mod journal;
mod l1_fee;
mod l1_messages;
pub mod metrics;
pub mod pages;
mod pending;
mod reader;
pub mod rows;
mod staking;
pub mod tables;
#[cfg(test)]
mod test_devnet;
mod tx_index;
pub mod upgrades;
mod uptime;
mod validator_orders;

// `test_devnet` is also compiled into the integration tests, so it names this crate as they do.
#[cfg(test)]
extern crate self as snowline_chain_p;

pub use container::{P_DERIVE_PATHS, P_PATHS, PContainer};
pub use derive::{PChain, PChainStats};
pub use error::PChainError;
pub use journal::{Journal, L1Change, L1Note, Note, PNote, Payout, RewardNote};
pub use l1_fee::{FeeConfig, FeeState, price as l1_fee_price};
pub use reader::PReader;
pub use snowline_derive::UtxoNote;
pub use tables::tables;
pub use uptime::record_uptimes;
