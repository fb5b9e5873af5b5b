//! The EVM chains' room (the C-Chain's EVM side and any EVM L1): reads accepted blocks with
//! their receipts and call traces from a node's JSON-RPC ([`source`]), reads what their rows
//! need beyond them (balances, token metadata: [`enrich`]) and derives the Data API's EVM rows
//! ([`tables`](mod@tables), [`rows`]) in crash-safe batches ([`EvmChain`], [`sync`]), and reads
//! them back as the Data API's pages ([`pages`]); other rooms derive from the same blocks in
//! the same batches through a [`BlockHook`]. See `docs/evm-indexing.md`.

pub mod config;
mod derive;
pub mod enrich;
mod error;
pub mod export;
mod follow;
pub mod genesis;
mod holdings;
mod hook;
pub mod metadata;
pub mod pages;
pub mod parse;
pub mod rows;
pub mod source;
mod status;
pub mod tables;
mod token_cache;

pub use config::EvmSourceConfig;
pub use derive::{EvmChain, SyncConfig, run, sync, write_blocks};
pub use error::EvmError;
pub use follow::{follow, follow_with};
pub use hook::{BlockHook, BlockHooks};
pub use status::{SyncSnapshot, SyncStatus};
pub use tables::tables;
pub use token_cache::{TOKEN_CACHE_ROWS, TokenCache};
