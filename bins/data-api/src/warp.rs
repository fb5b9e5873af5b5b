//! The Warp aggregation endpoints' wiring: the P2P client with an ephemeral staking identity
//! (as icm-services makes one when given no certificate), the validators' addresses from
//! `--warp-peers`, the aggregator with its signature cache.

use std::sync::Arc;
use std::time::Duration;

use snowline_chain_p::pages::PChainPages;
use snowline_data_api::warp::WarpApi;
use snowline_devnet::nodes::DevnetNode;
use snowline_p2p::{P2pClient, P2pSignatureSource, PeerDirectory, StakingIdentity};
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
    // A fresh self-signed staking certificate: validators accept any, and ours identifies
    // nothing but this process.
    let seed = u64::from_le_bytes(
        *random_seed()
            .first_chunk::<8>()
            .ok_or("the identity seed is too short")?,
    );
    let node = DevnetNode::new(seed, 0).map_err(|e| format!("staking identity: {e}"))?;
    let identity =
        StakingIdentity::from_devnet(&node).map_err(|e| format!("staking identity: {e}"))?;
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

/// 32 random bytes from the operating system.
fn random_seed() -> [u8; 32] {
    let mut b = [0u8; 32];
    // A failure leaves zeros: the identity is then the same each start, which is harmless.
    let _ = getrandom::fill(&mut b);
    b
}
