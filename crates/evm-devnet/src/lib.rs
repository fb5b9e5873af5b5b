//! A deterministic EVM devnet for the EVM indexer's tests, benchmarks and the demo.
//!
//! [`Anvil`] starts Foundry's `anvil` (installed by `cargo xtask setup`, found by
//! [`anvil_bin`]); [`run_scenario`] drives it through a seeded [`ScenarioConfig`] (token
//! deployments, transfers, mints, factory CREATE/CREATE2, value-carrying internal calls,
//! reverts) so the same seed gives the same block hashes; [`record()`] writes the JSON-RPC
//! answers an indexer asks for, block by block, as JSON lines; [`Recording`] and [`serve`]
//! answer them again as a JSON-RPC node without anvil (`evm-replay`; [`spawn_replay`] on a free
//! loopback port, for tests). [`icm`] runs a second scenario across two anvils: Teleporter (ICM)
//! messages between the C-Chain and an L1, read back by [`icm_model`]. [`synth`] generates a
//! chain of any size from a seed instead, served the same way (`evm-synth`; [`spawn_synth`]).
//! See `docs/evm-devnet.md`.

pub mod anvil;
pub mod contracts;
mod driver;
pub mod error;
pub mod fixture;
pub mod icm;
pub mod icm_model;
pub mod metrics_model;
pub mod model;
pub mod record;
pub mod replay;
pub mod scenario;
mod server;
pub mod synth;

pub use anvil::{Anvil, AnvilConfig, anvil_bin, anvil_or_skip, npm_dir};
pub use driver::{ScenarioRun, dev_accounts, run_scenario};
pub use error::DevnetError;
pub use fixture::{
    ICM_SEED, RECORDED_CHAINS, icm_recording_path, record_scenario, recording_path, start_devnet,
};
pub use record::record;
pub use replay::Recording;
pub use scenario::{C_CHAIN_ID, L1_CHAIN_ID, ScenarioConfig};
pub use server::{Answers, LocalReplay, serve, spawn_replay};
pub use synth::{LocalSynth, Synth, SynthConfig, spawn_synth};
