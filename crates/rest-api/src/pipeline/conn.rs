//! What the stages share: the built app and server config of every connection, and one
//! connection's own state.

use crate::app::Built;
use crate::metering::UNKNOWN_PATH;
use crate::ratelimit::BudgetCache;
use bytes::Bytes;
use http_body_util::Full;
use hyper::Response;
use snowline_http::{Admission, ServerConfig};
use std::net::SocketAddr;
use std::sync::Arc;

/// The response type of the server.
pub(crate) type HttpResponse = Response<Full<Bytes>>;

/// Everything a connection needs, shared.
pub(crate) struct Shared {
    pub(crate) app: Built,
    pub(crate) config: ServerConfig,
    /// The template requests that match no route are counted and metered under.
    pub(super) unknown: Arc<str>,
}

impl Shared {
    pub(crate) fn new(app: Built, config: ServerConfig) -> Self {
        Self {
            app,
            config,
            unknown: Arc::from(UNKNOWN_PATH),
        }
    }
}

/// One connection: the server, the peer, and what its requests keep from one to the next.
pub(crate) struct Conn {
    pub(super) shared: Arc<Shared>,
    pub(super) remote: SocketAddr,
    /// The rate-limit budget of the connection's last caller.
    pub(super) budget: BudgetCache,
    /// Accepted past the connection cap: its request is answered 503.
    pub(super) over_capacity: bool,
}

impl Conn {
    pub(crate) fn new(shared: Arc<Shared>, remote: SocketAddr, admission: Admission) -> Self {
        Self {
            shared,
            remote,
            budget: BudgetCache::new(),
            over_capacity: admission == Admission::OverCapacity,
        }
    }
}
