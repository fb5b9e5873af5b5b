//! What a server asks before a request is answered and tells after: who calls (API keys) and
//! what they used (metering), implemented outside this crate ([`Router::gate`](crate::Router)).

use std::time::Duration;

use hyper::StatusCode;
use hyper::http::request::Parts;
pub use snowline_types::access::{CallOutcome, Caller};

/// The decision on a request's head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Served, on behalf of this caller (`None`: no key was presented).
    Admit(Option<Caller>),
    /// Refused with this HTTP status and message, written as a JSON-RPC error object
    /// (`-32600`, `id` null: the call is not read).
    Refuse {
        /// The HTTP status (401 without a valid key, 403 for a disabled one).
        status: StatusCode,
        /// The error's message.
        message: String,
    },
}

/// One answered request, as a [`Gate`] is told of it.
#[derive(Debug, Clone, Copy)]
pub struct CallRecord<'a> {
    /// The HTTP path.
    pub path: &'a str,
    /// The JSON-RPC method, when the call was read.
    pub method: Option<&'a str>,
    /// The HTTP status answered.
    pub status: u16,
    /// The code of the JSON-RPC error object answered, if one was.
    pub rpc_error: Option<i32>,
    /// How the call ended.
    pub outcome: CallOutcome,
    /// From the head's arrival to the answer.
    pub latency: Duration,
    /// Who called (`None`: no key, or refused).
    pub caller: Option<&'a Caller>,
    /// The `User-Agent` header, as visible ASCII (empty when absent or not).
    pub user_agent: &'a str,
}

/// Verdict and metering of every request to a JSON-RPC endpoint or an unknown path (not of
/// the plain handlers: health, readiness, metrics). Both run inline: keep them fast and
/// non-blocking.
pub trait Gate: Send + Sync {
    /// Admits or refuses a request by its head.
    fn admit(&self, parts: &Parts) -> Verdict;
    /// Records an answered request.
    fn record(&self, call: &CallRecord<'_>);
}
