//! JSON-RPC 2.0 over raw hyper, answering exactly as avalanchego does.
//!
//! avalanchego serves its APIs with gorilla/rpc v2's `json2` codec behind Go's
//! `net/http`; this crate reproduces that behaviour byte for byte (status codes,
//! error objects, messages, `data` members, key order, id echo, notifications),
//! including Go `encoding/json` details such as its parse-error messages,
//! case-insensitive member names and HTML-safe string escaping. See
//! `docs/jsonrpc.md` for the behaviour table and the limits.
//!
//! - Server: build [`Service`]s, group them in an [`Endpoint`], mount endpoints
//!   (and plain HTTP handlers) on a [`Router`], run a [`Server`].
//! - Params: typed methods decode with [`Params::parse`]; use [`JsonU64`] and
//!   friends for avalanchego's `json.Uint64` (accepts `5` or `"5"`, emits `"5"`).
//! - Client: the `snowline-jsonrpc-client` crate.

mod dispatch;
mod envelope;
mod error;
mod gate;
mod gojson;
mod params;
mod response;
mod router;
mod server;
mod service;

pub use error::{
    INVALID_ARG_MESSAGE, INVALID_REQUEST, PARSE_ERROR, RpcError, SERVER_ERROR,
    UPPERCASE_METHOD_MESSAGE,
};
pub use gate::{CallOutcome, CallRecord, Caller, Gate, Verdict};
pub use params::Params;
pub use response::{
    HttpResponse, JSON_CONTENT_TYPE, Refusals, TEXT_CONTENT_TYPE, text as text_response,
};
pub use router::{PlainHandler, Router};
pub use server::{Server, ServerConfig, ServerError, shutdown_signal};
pub use service::{BoxFuture, Endpoint, LookupError, Reply, RequestContext, Service};
pub use snowline_types::json_uint::{JsonU8, JsonU32, JsonU64};

/// Re-exported so users can build plain handlers without naming hyper versions.
pub use hyper;
