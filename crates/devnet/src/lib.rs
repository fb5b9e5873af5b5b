//! A deterministic, seeded local-network X-Chain in avalanchego's real formats, so Snowline runs
//! with no node at all: the local genesis (real AVAX asset id), real secp256k1 keys and
//! signatures, BaseTx transfers, CreateAssetTx (fungible and NFT), OperationTx mints, ImportTx and
//! ExportTx, multisig and time-locked outputs; a DAG era of vertices (`X/vtx`, `X/tx`) ending
//! with the stop vertex, then proposervm-wrapped standard blocks (`X/block`).
//!
//! [`Devnet::generate`] returns an iterator of [`ContainerRecord`]s in acceptance order; it
//! streams, keeping only the spendable UTXO set in memory. [`Devnet::into_live`] then continues
//! the same chains a step at a time ([`LiveDevnet`]), stamped with the wall clock. See
//! `docs/devnet.md`.
//!
//! [`ContainerRecord`]: snowline_types::container::ContainerRecord

pub mod atomic;
mod cchain;
pub mod config;
pub mod error;
pub mod generator;
pub mod genesis;
pub mod keys;
mod live;
pub mod nodes;
pub mod output;
mod pchain;
pub mod pgenesis;
mod pool;
pub mod rng;
pub mod uptime;
mod wallet;

pub use atomic::AtomicUtxo;
pub use cchain::C_TX_FEE;
pub use config::{ConfigError, DevnetConfig};
pub use error::DevnetError;
pub use generator::{Devnet, DevnetStats, c_block_times, linear_genesis_block};
pub use genesis::XGenesis;
pub use keys::KeyRing;
pub use live::LiveDevnet;
pub use output::{WriteError, genesis_json, write_jsonl};
