//! The data directory: one store holding the container index and the X-Chain state, and the
//! sources that fill it (the devnet, a file, an upstream node).

use std::path::Path;
use std::sync::Arc;

use snowline_chain_x::state::XChainState;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexError, IndexWriter, IngestStats, ingest};
use snowline_store::{Schema, Store};
use snowline_types::NetworkInfo;
use snowline_types::address::format_address;
use snowline_types::container::ContainerLine;

/// Version of the combined schema of this binary's store (3: the X-Chain state learns the
/// P-Chain's exports to X from `P/block`, `x_atomic_early_imports`, atomic sequence apart; 4:
/// and the C-Chain's from `C/block`; 5: `x_atomic_consumed`, and the early imports name their
/// importing tx, so the state follows the one shared-memory rule).
const SCHEMA_VERSION: u32 = 5;

/// Containers per atomic write batch when loading the devnet.
const DEVNET_BATCH: usize = 512;

/// The schema: the container index's tables and the X-Chain state's.
pub fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::state::tables::tables())
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}

/// Opens (creating if needed) the store in `dir`.
pub fn open(dir: &Path) -> Result<Arc<Store>, String> {
    snowline_cli::open_store(dir, &schema())
}

/// What loading the devnet did, a funded address to show in example calls, and the devnet at
/// the end of its history (to go on live).
pub struct DevnetLoad {
    /// Containers added (0 when the store already held the devnet).
    pub added: u64,
    /// A devnet address that holds UTXOs, as `X-local1...`.
    pub funded_address: String,
    /// The devnet, its history generated.
    pub devnet: Devnet,
}

/// The devnet of `seed`: the small preset when `txs` is 0, else about `txs` txs.
pub fn devnet(seed: u64, txs: u64) -> Result<Devnet, String> {
    Devnet::generate(DevnetConfig::sized(txs).with_seed(seed)).map_err(|e| format!("devnet: {e}"))
}

/// The X-Chain state hook of `network`: its X-Chain, sharing atomic memory with its P-Chain
/// (whose exports to X it reads from `P/block`).
pub fn state(network: &NetworkInfo) -> XChainState {
    XChainState::new(network.x_chain_id, network.p_chain_id)
}

/// Writes the devnet's X-Chain genesis into the store, once (a no-op when it is there).
pub fn apply_devnet_genesis(store: &Store, devnet: &Devnet) -> Result<(), String> {
    state(&NetworkInfo::LOCAL)
        .apply_genesis(store, &devnet.x_genesis())
        .map(|_| ())
        .map_err(|e| format!("devnet genesis: {e}"))
}

/// Loads the devnet into the store; containers already there are skipped, so a restart resumes
/// where a previous load stopped (every batch is whole) and a full store is left as is.
pub fn load_devnet(store: &Store, seed: u64, txs: u64) -> Result<DevnetLoad, String> {
    let mut devnet = devnet(seed, txs)?;
    apply_devnet_genesis(store, &devnet)?;
    let mut state = state(&NetworkInfo::LOCAL);
    let mut writer = IndexWriter::open(store).map_err(|e| e.to_string())?;
    let source = devnet.by_ref().map(|r| {
        r.map(|record| ContainerLine {
            record,
            index: None,
        })
        .map_err(|e| IndexError::Source(format!("devnet: {e}")))
    });
    let stats = ingest(store, &mut writer, source, DEVNET_BATCH, &mut state, |_| {})
        .map_err(|e| format!("loading the devnet: {e}"))?;
    // Key 0 is the well-known `ewoq` key, which spends all it has on funding the others;
    // key 1 is funded in the first vertex (docs/devnet.md).
    let funded_address = format_address("X", NetworkInfo::LOCAL.hrp, &devnet.keys().addr(1))
        .map_err(|e| format!("devnet address: {e}"))?;
    Ok(DevnetLoad {
        added: stats.added,
        funded_address,
        devnet,
    })
}

/// Imports a JSON-lines file of `network`'s containers with the X-Chain state derived, printing
/// progress on stderr (`snowline_cli::import_with_progress`: unlogged, flushed at the end).
pub fn import(
    store: &Store,
    network: &NetworkInfo,
    file: &Path,
    batch: snowline_cli::ImportBatch,
) -> Result<IngestStats, String> {
    snowline_cli::import_with_progress(store, file, batch, &mut state(network), "node-rpc")
        .map(|(stats, _)| stats)
}
