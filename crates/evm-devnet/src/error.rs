//! What can go wrong while starting anvil, driving it, recording or replaying.

/// An error of the EVM devnet.
#[derive(Debug, thiserror::Error)]
pub enum DevnetError {
    /// No anvil binary (the message says where it was looked for).
    #[error("anvil not found: {0}")]
    NoAnvil(String),
    /// anvil did not start or stopped.
    #[error("anvil: {0}")]
    Anvil(String),
    /// A JSON-RPC call failed.
    #[error("{method}: {source}")]
    Rpc {
        /// The method called.
        method: String,
        /// What the client reported.
        source: snowline_jsonrpc_client::ClientError,
    },
    /// anvil answered something the driver did not expect.
    #[error("unexpected answer: {0}")]
    Unexpected(String),
    /// A committed contract fixture or recording is malformed.
    #[error("fixture: {0}")]
    Fixture(String),
    /// Reading or writing a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Binding or reading the address of the replay server's loopback port.
    #[error("replay server: {0}")]
    Listen(std::io::Error),
}
