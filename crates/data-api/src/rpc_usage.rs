//! `GET /v1/subnetRpcUsageMetrics` and `GET /v1/primaryNetworkRpcUsageMetrics`: the JSON-RPC
//! calls `node-rpc` metered (`access::rpc`), aggregated. A key is required: the calls reported
//! are those of the key's organisation; an `admin` key sees every organisation's and the calls
//! made without a key.

use std::sync::Arc;

use snowline_access::rpc::{
    PrimaryNetworkRpcUsageMetrics, RpcFilters, RpcGroupBy, RpcQuery, RpcScope, RpcUsageLog,
    SubnetRpcUsageMetrics,
};
use snowline_access::usage::{Interval, Metric};
use snowline_query::params::{
    Network, PrimaryRpcGroupBy, RpcTimeInterval, SubnetRpcGroupBy, required, served_network,
};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::network::NetworkInfo;

use crate::params::{bad, param_error};
use crate::usage_params::{day_range, required_caller};

/// The seven continent codes, and `XX` for clients without location data.
const CONTINENTS: [&str; 8] = ["AF", "AN", "AS", "EU", "NA", "OC", "SA", "XX"];

/// Where the calls come from: `node-rpc`'s record, followed as a secondary (`None`: no
/// `node-rpc` is metered for this server, and both operations report no calls).
#[derive(Debug, Clone)]
pub struct RpcUsage {
    log: Option<Arc<RpcUsageLog>>,
    network: &'static NetworkInfo,
}

impl RpcUsage {
    /// The metrics of `network`'s calls in `log`.
    pub fn new(log: Option<Arc<RpcUsageLog>>, network: &'static NetworkInfo) -> Self {
        Self { log, network }
    }

    /// The buckets of `q`, after catching up with `node-rpc`'s writes.
    fn aggregate(&self, q: &RpcQuery) -> Result<Vec<Metric>, ApiError> {
        let Some(log) = &self.log else {
            return Ok(Vec::new());
        };
        // A failed catch-up (a passing one: the next request retries) leaves what was seen
        // last; the answer is then that much older, which beats no answer.
        let _ = log.catch_up();
        log.aggregate(q)
            .map_err(|e| ApiError::internal(format!("RPC usage aggregation: {e}")))
    }
}

/// Adds the two operations (weight `xxl`, as the OpenAPI's).
pub fn routes(router: Router, usage: RpcUsage) -> Router {
    let subnet = usage.clone();
    // Scans of the range: on the blocking pool.
    router
        .get_blocking("/v1/subnetRpcUsageMetrics", Weight::XXL, move |req| {
            let (query, interval) = subnet_query(req, subnet.network, req.now_secs())?;
            let metrics = subnet.aggregate(&query)?;
            Reply::json(&SubnetRpcUsageMetrics {
                aggregate_duration: interval.as_str().to_owned(),
                metrics,
                chain_id: query.filters.chain_id.unwrap_or_default(),
            })
        })
        .get_blocking(
            "/v1/primaryNetworkRpcUsageMetrics",
            Weight::XXL,
            move |req| {
                let (query, interval, network) = primary_query(req, usage.network, req.now_secs())?;
                let metrics = usage.aggregate(&query)?;
                Reply::json(&PrimaryNetworkRpcUsageMetrics {
                    aggregate_duration: interval.as_str().to_owned(),
                    metrics,
                    network: network.to_owned(),
                })
            },
        )
}

/// What both operations share: the caller's organisation, the day-rounded range (the last 7
/// days up to and including today by default), the interval (daily by default), the response
/// code and method filters.
fn common_query(
    req: &Request,
    network: &NetworkInfo,
    scope: RpcScope,
    now: u64,
) -> Result<(RpcQuery, RpcTimeInterval), ApiError> {
    let caller = required_caller(req, "RPC usage is")?;
    let org_id = (caller.tier != "admin").then(|| caller.org_id.clone());
    let (start_ms, end_ms) = day_range(req, now)?;
    let wire = RpcTimeInterval::parse_or(req.query("timeInterval"), RpcTimeInterval::Daily)
        .map_err(bad)?;
    let interval = match wire {
        RpcTimeInterval::Hourly => Interval::Hourly,
        RpcTimeInterval::Daily => Interval::Daily,
        RpcTimeInterval::Weekly => Interval::Weekly,
        RpcTimeInterval::Monthly => Interval::Monthly,
    };
    let response_code = match req.query("responseCode") {
        Some(raw) => Some(raw.parse::<i32>().map_err(|_| {
            param_error(
                "responseCode",
                "must be an HTTP status such as 200 or 401, or a JSON-RPC error code such as \
                 -32000",
                raw,
            )
        })?),
        None => None,
    };
    let query = RpcQuery {
        org_id,
        network_id: network.network_id,
        scope,
        start_ms,
        end_ms,
        interval,
        group_by: None,
        filters: RpcFilters {
            response_code,
            rpc_method: req.query("rpcMethod").map(str::to_owned),
            ..RpcFilters::default()
        },
    };
    Ok((query, wire))
}

/// `getSubnetRpcUsageMetrics`: calls to chains other than the primary network's.
pub(crate) fn subnet_query(
    req: &Request,
    network: &NetworkInfo,
    now: u64,
) -> Result<(RpcQuery, RpcTimeInterval), ApiError> {
    let (mut query, interval) = common_query(req, network, RpcScope::Subnet, now)?;
    query.group_by = match req.query("groupBy") {
        Some(raw) => Some(match SubnetRpcGroupBy::parse(raw).map_err(bad)? {
            SubnetRpcGroupBy::RpcMethod => RpcGroupBy::RpcMethod,
            SubnetRpcGroupBy::ResponseCode => RpcGroupBy::ResponseCode,
            SubnetRpcGroupBy::RlBypassToken => RpcGroupBy::RlBypassToken,
        }),
        None => None,
    };
    query.filters.chain_id = req.query("chainId").map(str::to_owned);
    query.filters.api_key_id = req.query("rlBypassApiToken").map(str::to_owned);
    Ok((query, interval))
}

/// `getPrimaryNetworkRpcUsageMetrics`: calls to the primary network's chains, of the
/// `network` this server indexes (the answer names Fuji `testnet`, as the OpenAPI's enum).
pub(crate) fn primary_query(
    req: &Request,
    network: &'static NetworkInfo,
    now: u64,
) -> Result<(RpcQuery, RpcTimeInterval, &'static str), ApiError> {
    let (mut query, interval) = common_query(req, network, RpcScope::Primary, now)?;
    let asked = served_network(
        required("network", req.query("network")).map_err(bad)?,
        network,
    )?;
    query.group_by = match req.query("groupBy") {
        Some(raw) => Some(match PrimaryRpcGroupBy::parse(raw).map_err(bad)? {
            PrimaryRpcGroupBy::RpcMethod => RpcGroupBy::RpcMethod,
            PrimaryRpcGroupBy::RequestPath => RpcGroupBy::RequestPath,
            PrimaryRpcGroupBy::ResponseCode => RpcGroupBy::ResponseCode,
            PrimaryRpcGroupBy::Country => RpcGroupBy::Country,
            PrimaryRpcGroupBy::Continent => RpcGroupBy::Continent,
            PrimaryRpcGroupBy::UserAgent => RpcGroupBy::UserAgent,
        }),
        None => None,
    };
    let country = req.query("country");
    if let Some(raw) = country
        && !(raw.len() == 2
            && raw
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
    {
        return Err(param_error(
            "country",
            "must be an ISO 3166-1 alpha-2 country code such as US, XX or T1",
            raw,
        ));
    }
    let continent = req.query("continent");
    if let Some(raw) = continent
        && !CONTINENTS.contains(&raw)
    {
        return Err(param_error(
            "continent",
            &format!("must be one of {}", CONTINENTS.join(", ")),
            raw,
        ));
    }
    query.filters.request_path = req.query("requestPath").map(str::to_owned);
    query.filters.country = country.map(str::to_owned);
    query.filters.continent = continent.map(str::to_owned);
    query.filters.user_agent = req.query("userAgent").map(str::to_owned);
    let name = match asked {
        Network::Mainnet => "mainnet",
        Network::Fuji => "testnet",
        Network::Local => "local",
    };
    Ok((query, interval, name))
}
