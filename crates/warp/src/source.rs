//! Where signature shares come from: one request to one node. The P2P layer implements it with
//! an ACP-118 `AppRequest` (`SignatureRequest{message, justification}` → `SignatureResponse`).

use std::future::Future;

use snowline_types::NodeId;

/// Why a node gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// No connection to the node.
    #[error("node not connected")]
    NotConnected,
    /// The node did not answer in time.
    #[error("request timed out")]
    Timeout,
    /// The node answered with an application error (ACP-118 signers' codes).
    #[error("app error {code}: {message}")]
    AppError {
        /// The error code.
        code: i32,
        /// The error message.
        message: String,
    },
    /// Anything else (transport, decoding).
    #[error("{0}")]
    Other(String),
}

/// Asks one node to sign a Warp message.
pub trait SignatureSource: Send + Sync {
    /// The node's signature of the unsigned `message` bytes: 96 compressed bytes, or empty when
    /// the node has not seen the message yet.
    fn request(
        &self,
        node: &NodeId,
        message: &[u8],
        justification: &[u8],
    ) -> impl Future<Output = Result<Vec<u8>, SourceError>> + Send;

    /// Whether `node` can be asked now (a P2P connection is up). Only connected nodes are asked,
    /// and connected stake below the quorum fails at once (`failed to connect to a threshold of
    /// stake`). By default every node is.
    fn is_connected(&self, node: &NodeId) -> bool {
        let _ = node;
        true
    }
}
