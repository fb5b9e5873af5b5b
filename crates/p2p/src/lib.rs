//! The Avalanche P2P protocol, as much as asking validators for Warp signatures needs: staking
//! identities (loaded from avalanchego's staking files or generated), TLS 1.3 with staking
//! certificates, the handshake, framing, `AppRequest`/`AppResponse`/`AppError` carrying ACP-118
//! signature requests (`docs/p2p.md`).

pub mod cert;
pub mod client;
pub mod conn;
pub mod error;
pub mod frame;
pub mod handshake;
pub mod identity;
pub mod ip;
pub mod proto;
pub mod self_signed;
pub mod staking_files;
pub mod tls;
pub mod warp_source;

pub use client::{P2pClient, Peer};
pub use error::{HandshakeError, P2pError};
pub use identity::StakingIdentity;
pub use staking_files::StakingFiles;
pub use warp_source::{P2pSignatureSource, PeerDirectory};
