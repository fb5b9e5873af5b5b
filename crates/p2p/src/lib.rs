//! The Avalanche P2P protocol, as much as asking validators for Warp signatures needs: TLS 1.3
//! with staking certificates, the handshake, framing, `AppRequest`/`AppResponse`/`AppError`
//! carrying ACP-118 signature requests (`docs/p2p.md`); and devnet validator peers that answer
//! them.

pub mod client;
pub mod conn;
pub mod error;
pub mod frame;
pub mod handshake;
pub mod identity;
pub mod ip;
pub mod proto;
pub mod signer_peer;
pub mod tls;
pub mod warp_source;

pub use client::{P2pClient, Peer};
pub use error::{HandshakeError, P2pError};
pub use identity::StakingIdentity;
pub use signer_peer::{SignerBehaviour, SignerPeer};
pub use warp_source::{P2pSignatureSource, PeerDirectory};
