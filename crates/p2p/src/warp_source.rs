//! The P2P layer as the Warp aggregator's [`SignatureSource`]: each request is an ACP-118
//! `AppRequest` to the node at the address a [`PeerDirectory`] gives, over the client's pooled
//! connection, addressed to the message's source chain.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use snowline_types::NodeId;
use snowline_types::warp::UnsignedMessage;
use snowline_warp::{SignatureSource, SourceError};

use crate::client::P2pClient;
use crate::error::P2pError;

/// Where each validator listens. The P-Chain records no addresses, so they come from the
/// operator (a file) or, on the devnet, from the signer peers as `warp-peers` prints them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeerDirectory(HashMap<NodeId, SocketAddr>);

impl PeerDirectory {
    /// An empty directory.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or moves) `node` at `addr`.
    pub fn insert(&mut self, node: NodeId, addr: SocketAddr) {
        self.0.insert(node, addr);
    }

    /// The address of `node`.
    pub fn get(&self, node: &NodeId) -> Option<SocketAddr> {
        self.0.get(node).copied()
    }

    /// How many nodes it lists.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it lists none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Reads JSON objects with `nodeId` (`NodeID-…`) and `addr` (`host:port`), one per line (as
    /// `warp-peers` prints them) or as one JSON array; other members are ignored.
    pub fn parse(text: &str) -> Result<Self, String> {
        let entries: Vec<serde_json::Value> = match serde_json::from_str(text.trim()) {
            Ok(serde_json::Value::Array(a)) => a,
            _ => text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
                .collect::<Result<_, _>>()?,
        };
        let mut out = Self::new();
        for (i, e) in entries.iter().enumerate() {
            let field = |name: &str| {
                e.get(name)
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| format!("entry {}: no string `{name}`", i + 1))
            };
            let node: NodeId = field("nodeId")?
                .parse()
                .map_err(|e| format!("entry {}: nodeId: {e}", i + 1))?;
            let addr: SocketAddr = field("addr")?
                .parse()
                .map_err(|e| format!("entry {}: addr: {e}", i + 1))?;
            out.insert(node, addr);
        }
        Ok(out)
    }
}

/// Asks validators for Warp signatures over the Avalanche P2P protocol.
#[derive(Debug, Clone)]
pub struct P2pSignatureSource {
    client: P2pClient,
    peers: PeerDirectory,
    request_timeout: Duration,
}

impl P2pSignatureSource {
    /// A source dialling the nodes of `peers` with `client`, each request (connection
    /// included) given `request_timeout`.
    pub fn new(client: P2pClient, peers: PeerDirectory, request_timeout: Duration) -> Self {
        Self {
            client,
            peers,
            request_timeout,
        }
    }

    /// The nodes it can reach.
    pub fn peers(&self) -> &PeerDirectory {
        &self.peers
    }
}

impl SignatureSource for P2pSignatureSource {
    /// A node is dialled on demand: it can be asked when its address is known.
    fn is_connected(&self, node: &NodeId) -> bool {
        self.peers.get(node).is_some()
    }

    async fn request(
        &self,
        node: &NodeId,
        message: &[u8],
        justification: &[u8],
    ) -> Result<Vec<u8>, SourceError> {
        let addr = self.peers.get(node).ok_or(SourceError::NotConnected)?;
        let unsigned = UnsignedMessage::parse(message)
            .map_err(|e| SourceError::Other(format!("not an unsigned Warp message: {e}")))?;
        let deadline = tokio::time::Instant::now() + self.request_timeout;
        let answer = self
            .client
            .request_signature(
                addr,
                *node,
                unsigned.source_chain_id,
                message,
                justification,
                deadline,
            )
            .await;
        match answer {
            Ok(signature) => Ok(signature),
            Err(P2pError::NotSeen) => Ok(Vec::new()),
            Err(P2pError::Timeout) => Err(SourceError::Timeout),
            Err(P2pError::App { code, message }) => Err(SourceError::AppError { code, message }),
            Err(
                e @ (P2pError::Connect(_)
                | P2pError::Handshake(_)
                | P2pError::WrongNodeId { .. }
                | P2pError::Closed),
            ) => {
                tracing::debug!(%node, %addr, error = %e, "validator not reachable");
                Err(SourceError::NotConnected)
            }
            Err(e) => Err(SourceError::Other(e.to_string())),
        }
    }
}
