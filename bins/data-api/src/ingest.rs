//! Filling the data-api store: the X-Chain genesis, following an upstream node's index API, and
//! importing a file of containers. Every write goes through `node_index` with the X-Chain
//! history (`indexer::history::XHistory`) as its derive hook, so containers, derived rows and the
//! cursor commit in one batch.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use snowline_devnet::{Devnet, DevnetConfig};
use snowline_indexer::XGenesisState;
use snowline_indexer::history::XHistory;
use snowline_node_index::{FollowConfig, FollowStatus, Follower, IndexWriter, IngestStats};
use snowline_store::{Schema, Store};
use snowline_types::container::IndexPath;
use snowline_types::network::NetworkInfo;

/// Schema version of the data-api store; bumped when its tables change incompatibly.
const SCHEMA_VERSION: u32 = 2;

/// Start time of the primary network's genesis (avalanchego
/// `genesis/genesis_{mainnet,fuji,local}.json`, `"startTime"`): the creation time of genesis
/// UTXOs.
pub const GENESIS_START_TIME: u64 = 1_599_696_000;

/// The X-Chain paths the Data API indexes, vertices first so DAG txs get their heights at once.
pub const X_PATHS: [IndexPath; 3] = [IndexPath::XVtx, IndexPath::XTx, IndexPath::XBlock];

/// The tables of the data-api store: the container index, the X-Chain history, usage events.
pub fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_indexer::history::tables())
        .chain(snowline_access::usage::tables())
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}

/// Opens (creating if needed) the store in `dir`.
pub fn open(dir: &Path) -> Result<Arc<Store>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Store::open(dir, &schema())
        .map(Arc::new)
        .map_err(|e| format!("cannot open the store in {}: {e}", dir.display()))
}

/// Applies the devnet's X-Chain genesis (its AVAX asset, linear genesis block and atomic
/// UTXOs) once (a no-op when the store has a genesis); returns an address the devnet funds, as
/// `X-local1...`, for example calls.
pub fn apply_devnet_genesis(
    store: &Store,
    network: &NetworkInfo,
    seed: u64,
) -> Result<String, String> {
    let devnet = Devnet::generate(DevnetConfig::small().with_seed(seed))
        .map_err(|e| format!("devnet: {e}"))?;
    let genesis = XGenesisState::of_devnet(&devnet);
    XHistory::new(network.x_chain_id)
        .apply_genesis(store, &genesis, GENESIS_START_TIME)
        .map_err(|e| format!("devnet genesis: {e}"))?;
    // Key 1 is funded in the first vertex (docs/devnet.md).
    snowline_types::address::format_address("X", network.hrp, &devnet.keys().addr(1))
        .map_err(|e| format!("devnet address: {e}"))
}

/// Follows `upstream`'s X-Chain index paths until `shutdown`, keeping `status` current.
pub async fn follow(
    store: Arc<Store>,
    network: &'static NetworkInfo,
    upstream: &str,
    batch: u64,
    poll: Duration,
    status: Arc<FollowStatus>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let follower = Follower::new(
        upstream,
        FollowConfig {
            paths: X_PATHS.to_vec(),
            batch,
            poll_interval: poll,
            unlogged_catch_up: true,
            ..FollowConfig::default()
        },
    )
    .map_err(|e| format!("upstream {upstream}: {e}"))?;
    let mut writer = IndexWriter::open(&*store).map_err(|e| e.to_string())?;
    let mut history = XHistory::new(network.x_chain_id);
    follower
        .run_observed(&store, &mut writer, &mut history, &status, shutdown)
        .await
        .map_err(|e| format!("following {upstream}: {e}"))
}

/// Imports a JSON-lines file of containers, showing progress (rate and ETA) on stderr and a
/// summary line at the end.
pub fn import(
    store: &Store,
    network: &NetworkInfo,
    file: &Path,
    batch: usize,
) -> Result<(), String> {
    let total = count_lines(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut writer = IndexWriter::open(store).map_err(|e| e.to_string())?;
    let mut history = XHistory::new(network.x_chain_id);
    // Without the write-ahead log, as `node-rpc import`: a kill -9 loses the batches since the
    // last flush (never part of one) and a rerun resumes; everything is flushed at the end.
    store
        .set_unlogged_writes(true)
        .map_err(|e| format!("import of {}: {e}", file.display()))?;
    let started = Instant::now();
    let mut last_print = Instant::now();
    let imported = snowline_node_index::import_file(
        store,
        &mut writer,
        file,
        batch,
        &mut history,
        |s: &IngestStats| {
            if last_print.elapsed() >= Duration::from_millis(500) {
                last_print = Instant::now();
                eprint!("\r{}   ", progress(s.read, total, started.elapsed()));
            }
        },
    )
    .map_err(|e| format!("import of {}: {e}", file.display()));
    let flushed = store
        .set_unlogged_writes(false)
        .map_err(|e| format!("import of {}: flushing: {e}", file.display()));
    let stats = imported?;
    flushed?;
    let secs = started.elapsed().as_secs_f64();
    let h = history.stats();
    eprintln!("\r{}   ", progress(stats.read, total, started.elapsed()));
    println!(
        "data-api: imported {} containers ({} already present) holding {} txs from {} in {:.1} s \
         ({:.0} containers/s)",
        stats.added,
        stats.duplicates,
        h.txs,
        file.display(),
        secs,
        stats.added as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `N / TOTAL containers (P%), R/s, ETA …`.
fn progress(done: u64, total: u64, elapsed: Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let pct = if total == 0 {
        100.0
    } else {
        done as f64 * 100.0 / total as f64
    };
    let eta = if rate > 0.0 {
        let left = total.saturating_sub(done) as f64 / rate;
        format!("{}m{:02}s", (left / 60.0) as u64, (left % 60.0) as u64)
    } else {
        "?".to_owned()
    };
    format!("data-api: {done} / {total} containers ({pct:.0}%), {rate:.0}/s, ETA {eta}")
}

/// Lines in a file (one container per line), counted in 1 MiB reads.
fn count_lines(file: &Path) -> std::io::Result<u64> {
    let mut f = std::fs::File::open(file)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        let read = f.read(&mut buf)?;
        if read == 0 {
            return Ok(n);
        }
        n += buf[..read].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_shows_share_rate_and_eta() {
        let p = progress(250, 1000, Duration::from_secs(5));
        assert_eq!(p, "data-api: 250 / 1000 containers (25%), 50/s, ETA 0m15s");
        assert!(progress(0, 10, Duration::from_secs(1)).ends_with("ETA ?"));
    }
}
