//! What a request turned out to be, filled in by the stages as they learn it and read at the
//! end for the response headers, metrics and metering.

use crate::auth::Caller;
use crate::weight::Weight;
use hyper::HeaderMap;
use hyper::header::HeaderValue;
use std::net::IpAddr;
use std::sync::Arc;

/// What the request turned out to be.
pub(super) struct Facts {
    /// The route template it is counted under (`unknown` until routed).
    pub(super) template: Arc<str>,
    pub(super) weight: Weight,
    pub(super) request_type: Option<Arc<str>>,
    /// Only filled when metering is on.
    pub(super) chain_id: Option<String>,
    /// The client's address, `Host` and `User-Agent` (only filled when metering is on; the
    /// header values are shared, not copied).
    pub(super) client: Option<(IpAddr, Option<HeaderValue>, Option<HeaderValue>)>,
    pub(super) caller: Option<Arc<Caller>>,
    /// The answer's headers so far (the rate-limit ones, `allow`), added to in place so the
    /// limiter's headers need no list of their own; the respond stage adds `content-type`.
    pub(super) headers: HeaderMap,
    /// Whether the connection closes after the answer.
    pub(super) close: bool,
}

impl Facts {
    /// Nothing known yet: counted under `unknown`, free, anonymous.
    pub(super) fn unknown(template: &Arc<str>) -> Self {
        Self {
            template: Arc::clone(template),
            weight: Weight::FREE,
            request_type: None,
            chain_id: None,
            client: None,
            caller: None,
            headers: HeaderMap::new(),
            close: false,
        }
    }
}
