//! The committed recording (`fixtures/evm/devnet/`): which chains, at which size, and how a
//! recording is made from a fresh anvil.

use std::path::PathBuf;

use crate::anvil::{Anvil, AnvilConfig};
use crate::driver::{ScenarioRun, run_scenario};
use crate::error::DevnetError;
use crate::scenario::{C_CHAIN_ID, L1_CHAIN_ID, ScenarioConfig};

/// The chains of the committed recording, each at [`ScenarioConfig::small`].
pub const RECORDED_CHAINS: [u64; 2] = [C_CHAIN_ID, L1_CHAIN_ID];

/// The committed recording of `chain_id`: `fixtures/evm/devnet/<chain id>.jsonl`.
pub fn recording_path(chain_id: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evm/devnet")
        .join(format!("{chain_id}.jsonl"))
}

/// The seed of the committed ICM recording (`fixtures/evm/icm/`).
pub const ICM_SEED: u64 = 1;

/// The committed ICM recording of `chain_id` (43112 or 99999):
/// `fixtures/evm/icm/<chain id>.jsonl`, [`crate::icm::record_icm`] of [`ICM_SEED`].
pub fn icm_recording_path(chain_id: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/evm/icm")
        .join(format!("{chain_id}.jsonl"))
}

/// Starts a fresh anvil for `config.chain_id` on a free port, runs the scenario on it and
/// returns the running node with what the scenario left.
pub async fn start_devnet(config: &ScenarioConfig) -> Result<(Anvil, ScenarioRun), DevnetError> {
    let anvil = Anvil::start(&AnvilConfig {
        chain_id: config.chain_id,
        port: 0,
    })?;
    let run = run_scenario(&anvil.url(), config).await?;
    Ok((anvil, run))
}

/// Runs `config` on a fresh anvil and returns its recording (see [`crate::record()`]).
pub async fn record_scenario(config: &ScenarioConfig) -> Result<Vec<u8>, DevnetError> {
    let (anvil, _) = start_devnet(config).await?;
    let mut out = Vec::new();
    crate::record::record(&anvil.url(), &mut out).await?;
    Ok(out)
}
