//! [`OutboundError`]: why an outbound request got no answer, in kinds a caller maps onto its
//! own statuses (a webhook's failed attempt, an NFT's metadata status).

/// A request that got no (acceptable) answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutboundError {
    /// The URL is malformed, has credentials or a scheme other than `http` and `https`.
    #[error("{0}")]
    Url(String),
    /// The host resolves only to networks the private-network rule refuses.
    #[error("{0}")]
    Refused(String),
    /// The host does not resolve, or no connection, TLS session or HTTP exchange succeeded.
    #[error("{0}")]
    Unreachable(String),
    /// The exchange did not finish in time.
    #[error("{0}")]
    Timeout(String),
    /// The answer's body is larger than the client accepts.
    #[error("the answer is larger than {limit} bytes")]
    TooLarge {
        /// The cap, in bytes.
        limit: usize,
    },
    /// A redirect without a usable `Location`, or more redirects than the client follows.
    #[error("{0}")]
    Redirect(String),
}
