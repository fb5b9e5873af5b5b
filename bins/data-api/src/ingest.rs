//! Filling the data-api store: the genesis, following an upstream node's index API, and
//! importing a file of containers. Every write goes through `node_index` with the X-Chain
//! history (`chain_x::history::XHistory`), the P-Chain (`chain_p::PChain`) and the
//! `validator_activity` webhooks (`webhooks::PlatformHook`) as its derive hooks, dispatched by
//! index path, so containers, derived rows, webhook events and the cursor commit in one batch.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use snowline_chain_p::{P_PATHS, PChain};
use snowline_chain_x::history::XHistory;
use snowline_cli::{DevnetSeed, UpstreamCalls};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{FollowConfig, FollowStatus, Follower, IndexWriter};
use snowline_store::{Schema, Store};
use snowline_types::container::IndexPath;
use snowline_types::network::NetworkInfo;
use snowline_webhooks::PlatformHook;

/// Schema version of the data-api store; bumped when its tables change incompatibly (5: the
/// C-Chain's atomic txs from `C/block` join X's and P's atomic memory; 6: the P-Chain's
/// per-owner sums, `ph_balances` and `ph_unspent_special`; 7: the EVM chains' `ev_` tables; 8:
/// the EVM metrics' `cm_` tables, derived with the blocks, so an older store lacks them for the
/// blocks it holds; 9: the ICM messages' `icm_` tables, likewise, and the messenger's logs; 10:
/// the L1 validators' fee days, paying periods and fee curves, `ph_l1_fee_days` and others,
/// the staking metrics' per-day rows, `ph_staking_days`, and the validators by subnet and
/// acceptance, `ph_validators_by_subnet` and `ph_validator_spans`, derived with the P-Chain
/// blocks; the ICM metrics' counter rows, `icm_counts` and `icm_counted_deliveries`; 11: the
/// L1 validators' states by height, `ph_l1_history`, which an L1's validator set at a height is
/// rebuilt from; 12: the P-Chain's whole-chain listings, `ph_orders` (validators by block
/// height, delegators by start, subnets by creation), and its tx index, `ph_txs_by_address` and
/// `ph_tx_utxos`; the X-Chain's tx index, `xh_txs_by_address`, `xh_txs_by_time`,
/// `xh_txs_by_asset` and `xh_tx_utxos`; the EVM address-to-tx index, `ev_txs_by_address`, every
/// address a tx touches with the parts it played, and `ev_transfers_by_address` each transfer's
/// standard; the EVM token balances summed from the transfer logs, `ev_holdings` and
/// `ev_holding_history`, and the NFT ids of each collection, `ev_nft_tokens`; all derived with
/// the blocks; 13: the X-Chain state's `x_atomic_consumed`, and its early imports name their
/// importing tx, so the state follows the one shared-memory rule; the C-Chain's atomic txs,
/// `xh_c_txs`, `xh_c_txs_by_time`, `xh_c_txs_by_address` and `ph_c_txs_by_address`, derived with
/// the `C/block` containers and the atomic UTXOs they move; the X-Chain's blocks by proposer,
/// `xh_blocks_by_proposer`; the followed node's validator uptimes, `ph_uptimes` and
/// `ph_uptimes_at`, polled beside the follower; the AVAX burned by each chain's txs and the
/// genesis's initial supply, kept in `ph_meta` and `xh_meta` with the blocks; the NFT metadata queue, `ev_nft_queue` (tokens given
/// a new URI, queued with their block), the fetched metadata, `ev_nft_metadata`, and the token
/// balances by token, `ev_holders`, derived with the blocks; the transaction export jobs,
/// `ev_exports`; 14: the P-Chain's txs by L1 validation, `ph_txs_by_l1_validation`; the
/// C-Chain's blocks from the `C/block` containers, `ph_c_blocks`, `ph_c_block_hashes` and
/// `ph_c_blocks_by_proposer`; the P-Chain's current balances' stake sums, `ph_stake_sums`
/// (`ph_unspent_special`'s value now says which UTXOs they count), and the stakeable-locked
/// AVAX by lock end, `ph_stakeable_locked`; the webhooks' event stream window, `wh_stream`,
/// and an export job's kind in `ev_exports`; 15: a P-Chain tx's row in `ph_txs` keeps where its
/// bytes lie in its block's container, so a tx is rendered by parsing it alone; 16: the
/// validator listings' orders and totals kept with the P-Chain blocks: `ph_validator_sorts`
/// (every validator and the current ones by block height, delegation capacity, end and fee, of
/// every subnet and of each), `ph_validators_by_node`, each validator's delegations
/// (`ph_delegations`), the current staker txs by height in `ph_orders`, and the stakes and
/// potential rewards of the primary-network stakers not settled in `ph_meta`; a linear X-Chain
/// block's tx row in `xh_txs` keeps where the tx lies in its container, and a C-Chain atomic
/// tx's row in `xh_c_txs` its block's number, hash and time and where it lies in the container,
/// so both are read without parsing their block; 17: an EVM tx's token transfers, listed
/// internal txs and count of TeleporterMessenger logs in one row, `ev_tx_parts`, in place of
/// `ev_transfers_by_tx` and `ev_internal_by_tx`, so a tx's detail and an address's history read
/// them with one lookup per tx; 18: an EVM tx's row and parts keyed by block and index, found by
/// hash through `ev_tx_hashes` (in place of `ev_txs_by_block`), and the address-to-tx index's
/// value only the roles, and the internal txs by address only keys (their rows are in the
/// tx's parts), so the largest rows arrive in key order and compaction moves them; 19: each EVM
/// owner's token-balance changes by block, `ev_holding_log`, with periodic snapshots of its
/// whole holdings, `ev_holding_snapshots`, and how far the log runs past the last one,
/// `ev_holding_tally`, so its balances at a past block are one seek and a short scan; 20:
/// the P-Chain staker txs not settled by address, `ph_staking_by_address`, with each one's
/// entries in `ph_staker_addresses`, for the staking listing).
const SCHEMA_VERSION: u32 = snowline_cli::DATA_API_SCHEMA_VERSION;

/// Start time of the primary network's genesis (avalanchego
/// `genesis/genesis_{mainnet,fuji,local}.json`, `"startTime"`): the creation time of genesis
/// UTXOs.
pub const GENESIS_START_TIME: u64 = 1_599_696_000;

/// The tables of the data-api store: the container index, the X-Chain history, the P-Chain,
/// the EVM chains with their metrics and ICM messages, usage events, webhooks and their outbox.
pub fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::history::tables())
        .chain(snowline_chain_p::tables())
        .chain(snowline_chain_evm::tables())
        .chain(snowline_chain_metrics::tables())
        .chain(snowline_chain_icm::tables())
        .chain(snowline_access::usage::tables())
        .chain(snowline_webhooks::tables())
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}

/// Prints `table entries sha256` for every table of the index in `dir`, or the entries of
/// `table` (see `data-api digest`).
pub fn digest(dir: &Path, table: Option<&str>) -> Result<(), String> {
    snowline_cli::print_digest(&dir.join("index"), &schema(), table)
}

/// Opens (creating if needed) the store in `dir`.
pub fn open(dir: &Path) -> Result<Arc<Store>, String> {
    snowline_cli::open_store(dir, &schema())
}

/// Applies the devnet's X-Chain genesis (its AVAX asset, linear genesis block and atomic
/// UTXOs) and P-Chain genesis (UTXOs, validators, chains) once each (a no-op when the store has
/// them); returns an address the devnet funds, as `X-local1...`, for example calls.
pub fn apply_devnet_genesis(
    store: &Store,
    network: &NetworkInfo,
    which: DevnetSeed,
) -> Result<String, String> {
    let devnet = Devnet::generate(DevnetConfig::sized(which.txs).with_seed(which.seed))
        .map_err(|e| format!("devnet: {e}"))?;
    let genesis = devnet.x_genesis();
    let (mut x, mut p) = chain_hooks(network);
    x.apply_genesis(store, &genesis, GENESIS_START_TIME)
        .map_err(|e| format!("devnet X-Chain genesis: {e}"))?;
    p.apply_genesis(store, &devnet.p_genesis())
        .map_err(|e| format!("devnet P-Chain genesis: {e}"))?;
    // Key 1 is funded in the first vertex (docs/devnet.md).
    snowline_types::address::format_address("X", network.hrp, &devnet.keys().addr(1))
        .map_err(|e| format!("devnet address: {e}"))
}

/// The derive hooks of the data-api store: the X-Chain history and the P-Chain, by path, then
/// the webhooks' P-Chain hook, which sees each P-Chain block after the P-Chain's own rows.
pub type Hooks = ((XHistory, PChain), PlatformHook);

/// [`Hooks`] with `platform` queueing the webhooks' events, told by the P-Chain's hook what
/// each block did.
pub fn hooks(network: &NetworkInfo, platform: PlatformHook) -> Hooks {
    let platform = platform.for_network(network);
    let (x, p) = chain_hooks(network);
    let x = x.with_journal(platform.x_journal());
    ((x, p.with_journal(platform.journal())), platform)
}

/// The X-Chain history and the P-Chain hooks.
fn chain_hooks(network: &NetworkInfo) -> (XHistory, PChain) {
    (
        XHistory::new(network.x_chain_id, network.p_chain_id),
        PChain::new(
            network.network_id,
            network.p_chain_id,
            network.x_chain_id,
            network.avax_asset_id,
        ),
    )
}

/// How `data-api serve` follows its upstream: `--follow-batch`, `--poll-ms` and the call
/// bounds (`--upstream-timeout-ms`, `--retry-max-ms`).
#[derive(Debug, Clone, Copy)]
pub struct FollowFlags {
    pub batch: u64,
    pub batch_bytes: usize,
    pub poll: Duration,
    pub calls: UpstreamCalls,
}

/// Follows `upstream`'s X- and P-Chain index paths until `shutdown`, keeping `status` current
/// and queueing `platform`'s webhook events; an upstream not listening yet is waited for (said
/// once; `/readyz` says "upstream not reached yet" meanwhile), so data-api may start before its
/// node.
pub async fn follow(
    store: Arc<Store>,
    network: &'static NetworkInfo,
    upstream: &str,
    flags: FollowFlags,
    status: Arc<FollowStatus>,
    platform: PlatformHook,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let follower = Follower::new(
        upstream,
        flags.calls.apply(FollowConfig {
            paths: snowline_chain_x::X_PATHS
                .iter()
                .chain(&P_PATHS)
                .copied()
                .chain([IndexPath::CBlock])
                .collect(),
            batch: flags.batch,
            batch_bytes: flags.batch_bytes,
            poll_interval: flags.poll,
            unlogged_catch_up: true,
            ..FollowConfig::default()
        }),
    )
    .map_err(|e| format!("upstream {upstream}: {e}"))?
    .with_status(status);
    tokio::pin!(shutdown);
    tokio::select! {
        waited = snowline_cli::wait_for_upstream("data-api", upstream) => waited?,
        () = &mut shutdown => return Ok(()),
    }
    let mut writer = IndexWriter::open(&*store).map_err(|e| e.to_string())?;
    let mut hooks = hooks(network, platform);
    follower
        .run(&store, &mut writer, &mut hooks, shutdown)
        .await
        .map_err(|e| format!("following {upstream}: {e}"))
}

/// Imports a JSON-lines file of containers with the X- and P-Chain derived, showing progress
/// on stderr and a summary line at the end. The store's `validator_activity` webhooks get their
/// events queued, delivered by the next `serve`.
pub fn import(
    store: &Store,
    network: &NetworkInfo,
    file: &Path,
    batch: snowline_cli::ImportBatch,
) -> Result<(), String> {
    let registry = snowline_webhooks::Registry::load(store)
        .map_err(|e| format!("cannot load the webhooks: {e}"))?;
    let platform = PlatformHook::new(
        registry,
        Arc::new(snowline_webhooks::Wakers::default()),
        snowline_webhooks::Limits::default().queued,
    );
    let mut hooks = hooks(network, platform);
    let (stats, took) =
        snowline_cli::import_with_progress(store, file, batch, &mut hooks, "data-api")?;
    let secs = took.as_secs_f64();
    println!(
        "data-api: imported {} containers ({} already present) holding {} X-Chain and {} P-Chain \
         txs from {} in {:.1} s ({:.0} containers/s)",
        stats.added,
        stats.duplicates,
        hooks.0.0.stats().txs,
        hooks.0.1.stats().txs,
        file.display(),
        secs,
        stats.added as f64 / secs.max(1e-9)
    );
    Ok(())
}
