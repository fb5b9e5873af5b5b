//! The crate's errors: what a caller of the client can tell apart (connect, handshake, timeout,
//! app error), and why a handshake was refused.

use snowline_types::NodeId;

use crate::frame::FrameError;
use crate::proto::DecodeError;

/// Why a P2P operation failed.
#[derive(Debug, thiserror::Error)]
pub enum P2pError {
    /// The staking identity is unusable.
    #[error("staking identity: {0}")]
    Identity(&'static str),
    /// A staking file could not be read or written.
    #[error("staking file {}: {message}", path.display())]
    StakingFile {
        /// The file.
        path: std::path::PathBuf,
        /// What failed.
        message: String,
    },
    /// The TLS configuration could not be built.
    #[error("tls configuration: {0}")]
    TlsConfig(#[from] rustls::Error),
    /// The TCP connection could not be opened.
    #[error("connect failed: {0}")]
    Connect(std::io::Error),
    /// The peer presented a certificate of another node.
    #[error("peer is {actual}, expected {expected}")]
    WrongNodeId {
        /// The node id asked for.
        expected: NodeId,
        /// The hash of the certificate the peer presented.
        actual: NodeId,
    },
    /// TLS or the P2P handshake failed.
    #[error("handshake failed: {0}")]
    Handshake(#[from] HandshakeError),
    /// The deadline passed before the answer.
    #[error("timed out")]
    Timeout,
    /// The peer answered with an `AppError`.
    #[error("app error {code}: {message}")]
    App {
        /// The error code (negative codes are the p2p SDK's, positive the VM's).
        code: i32,
        /// The peer's message.
        message: String,
    },
    /// The peer answered with an empty signature: it has not seen the message.
    #[error("the peer has not seen the message (empty signature)")]
    NotSeen,
    /// The peer's answer is malformed.
    #[error("malformed answer: {0}")]
    Malformed(String),
    /// The connection is closed.
    #[error("connection closed")]
    Closed,
    /// Reading or writing a frame failed.
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// Socket setup failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// Why a handshake was refused or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum HandshakeError {
    /// The TLS handshake failed.
    #[error("tls: {0}")]
    Tls(String),
    /// The peer sent no certificate.
    #[error("no peer certificate")]
    NoCertificate,
    /// The peer's certificate does not parse.
    #[error("bad certificate: {0}")]
    BadCertificate(String),
    /// Another network.
    #[error("network id {theirs}, ours is {ours}")]
    WrongNetwork {
        /// Our network id.
        ours: u32,
        /// The peer's network id.
        theirs: u32,
    },
    /// The peer's clock differs from ours by more than the tolerance.
    #[error("clock difference {0} s over the tolerance")]
    ClockSkew(u64),
    /// The peer's client version is not compatible.
    #[error("incompatible client {0}")]
    IncompatibleVersion(String),
    /// Too many or malformed tracked subnets.
    #[error("bad tracked subnets")]
    BadTrackedSubnets,
    /// An ACP both supported and objected to.
    #[error("an ACP is both supported and objected to")]
    AcpConflict,
    /// A known-peers bloom filter or salt that does not parse.
    #[error("bad known-peers filter")]
    BadKnownPeers,
    /// The claimed IP is malformed or has port 0.
    #[error("bad claimed ip")]
    BadIp,
    /// The IP was signed in the future.
    #[error("ip signing time {0} too far in the future")]
    IpTimestampInFuture(u64),
    /// The TLS-key signature of the IP does not verify.
    #[error("invalid tls signature of the ip")]
    BadIpSignature,
    /// The BLS signature of the IP does not parse, or does not verify against the expected key.
    #[error("invalid bls signature of the ip")]
    BadBlsSignature,
    /// A second `Handshake`.
    #[error("second handshake message")]
    DuplicateHandshake,
    /// The peer did not finish in time.
    #[error("timed out")]
    Timeout,
    /// The connection failed or closed.
    #[error("connection: {0}")]
    Frame(#[from] FrameError),
    /// The peer sent bytes that are not a message.
    #[error(transparent)]
    Decode(#[from] DecodeError),
}
