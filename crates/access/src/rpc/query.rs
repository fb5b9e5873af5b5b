//! What an RPC usage aggregation asks for: the scope (primary network or subnets), range,
//! bucket size, grouping and filters.

use crate::usage::Interval;

/// Which calls an aggregation covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RpcScope {
    /// Calls to the primary network's chains (`getPrimaryNetworkRpcUsageMetrics`).
    Primary,
    /// Calls to any other chain: subnets' and L1s' (`getSubnetRpcUsageMetrics`).
    Subnet,
}

/// The value of a call's country and continent: Snowline does no IP geolocation, so every
/// call is of the OpenAPI's "clients without country code data".
pub const UNKNOWN_PLACE: &str = "XX";

/// The field values are grouped by: the union of the two operations' `groupBy` enumerations
/// (`RpcUsageMetricsGroupByEnum`, `PrimaryNetworkRpcMetricsGroupByEnum`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RpcGroupBy {
    /// The JSON-RPC method.
    RpcMethod,
    /// The response code (see [`RpcCall::response_code`](super::RpcCall)).
    ResponseCode,
    /// The API key id: a key is what lifts a caller above the anonymous limits.
    RlBypassToken,
    /// The HTTP path.
    RequestPath,
    /// The caller's country ([`UNKNOWN_PLACE`]).
    Country,
    /// The caller's continent ([`UNKNOWN_PLACE`]).
    Continent,
    /// The `User-Agent`.
    UserAgent,
}

impl RpcGroupBy {
    /// The Data API's name (`groupBy`, and `groupedBy` in the answer).
    pub const fn as_str(self) -> &'static str {
        match self {
            RpcGroupBy::RpcMethod => "rpcMethod",
            RpcGroupBy::ResponseCode => "responseCode",
            RpcGroupBy::RlBypassToken => "rlBypassToken",
            RpcGroupBy::RequestPath => "requestPath",
            RpcGroupBy::Country => "country",
            RpcGroupBy::Continent => "continent",
            RpcGroupBy::UserAgent => "userAgent",
        }
    }
}

/// Exact-match filters; `None` matches every call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RpcFilters {
    /// Only this chain (blockchain id).
    pub chain_id: Option<String>,
    /// Only this response code.
    pub response_code: Option<i32>,
    /// Only this method.
    pub rpc_method: Option<String>,
    /// Only this key id (`Some("")`: calls without a key).
    pub api_key_id: Option<String>,
    /// Only this path.
    pub request_path: Option<String>,
    /// Only this country (only [`UNKNOWN_PLACE`] matches).
    pub country: Option<String>,
    /// Only this continent (only [`UNKNOWN_PLACE`] matches).
    pub continent: Option<String>,
    /// Only this user agent.
    pub user_agent: Option<String>,
}

/// An aggregation request, with times in ms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcQuery {
    /// Only this organisation's calls; `None` = every organisation's and the anonymous ones.
    pub org_id: Option<String>,
    /// Only calls to this network (network id).
    pub network_id: u32,
    /// Primary network chains or the others.
    pub scope: RpcScope,
    /// Range start, ms since the epoch, inclusive.
    pub start_ms: u64,
    /// Range end, ms since the epoch, exclusive.
    pub end_ms: u64,
    /// Bucket size.
    pub interval: Interval,
    /// Grouping within each bucket; `None` = one group per bucket.
    pub group_by: Option<RpcGroupBy>,
    /// Exact-match filters.
    pub filters: RpcFilters,
}
