//! Dev tooling for Warp aggregation: the devnet's validators as Avalanche P2P peers that answer
//! ACP-118 signature requests ([`SignerPeer`], on purpose wrongly when asked), and the
//! `warp-peers` binary that starts them for `data-api --warp-peers` (`docs/p2p.md`).

pub mod signer_peer;

pub use signer_peer::{SignerBehaviour, SignerPeer};

use snowline_devnet::nodes::DevnetNode;
use snowline_p2p::{P2pError, StakingIdentity};

/// The P2P staking identity of a devnet node: its certificate, P-256 key and BLS key.
pub fn devnet_identity(node: &DevnetNode) -> Result<StakingIdentity, P2pError> {
    StakingIdentity::from_p256(
        node.cert_der.clone(),
        &node.staking_secret_bytes(),
        &node.bls_secret_bytes(),
    )
}
