//! The Warp aggregation endpoints' wiring: the P2P client with this service's staking identity
//! (`--staking-dir`, generated there on first start as avalanchego generates one), the
//! validators' addresses from `--warp-peers`, the aggregator with its signature cache.

use std::sync::Arc;
use std::time::Duration;

use snowline_chain_p::pages::PChainPages;
use snowline_data_api::warp::WarpApi;
use snowline_p2p::{P2pClient, P2pSignatureSource, PeerDirectory, StakingFiles};
use snowline_types::network::NetworkInfo;
use snowline_warp::Aggregator;

use crate::cli::ServeArgs;

/// Longest wait for one validator's answer, connection included (avalanchego's
/// `DefaultNetworkMaximumTimeout`).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The aggregation endpoints' state for `network` over `pchain`.
pub fn api(
    args: &ServeArgs,
    pchain: Arc<PChainPages>,
    network: &'static NetworkInfo,
) -> Result<WarpApi<P2pSignatureSource>, String> {
    let peers = match &args.warp_peers {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--warp-peers {}: {e}", path.display()))?;
            PeerDirectory::parse(&text)
                .map_err(|e| format!("--warp-peers {}: {e}", path.display()))?
        }
        None => PeerDirectory::new(),
    };
    // Validators accept any self-signed staking certificate; ours names this service.
    let staking_dir = args
        .staking_dir
        .clone()
        .unwrap_or_else(|| args.common.data_dir.join("staking"));
    let identity = StakingFiles::in_dir(&staking_dir)
        .load_or_generate(snowline_p2p::handshake::unix_now())
        .map_err(|e| format!("--staking-dir {}: {e}", staking_dir.display()))?;
    let client =
        P2pClient::new(identity, network.network_id).map_err(|e| format!("P2P client: {e}"))?;
    println!(
        "data-api: Warp aggregation asks {} validator address(es) over P2P as {}",
        peers.len(),
        client.node_id()
    );
    let source = P2pSignatureSource::new(client, peers, REQUEST_TIMEOUT);
    Ok(WarpApi::new(
        pchain,
        Arc::new(Aggregator::new(source)),
        network,
        Duration::from_millis(args.warp_timeout_ms.max(1)),
    ))
}
