//! `GET /v1/apiUsageMetrics`: this server's own usage, aggregated from the events the REST edge
//! meters (`access::usage`). A key is required: usage is reported per organisation, the caller's
//! own; an `admin` key may name any organisation with `orgId`, or omit it to see them all.

use std::sync::Arc;

use snowline_access::usage::{GroupBy, Interval, UsageFilters, UsageLog, UsageQuery};
use snowline_query::params::{RequestType, TimeInterval, UsageGroupBy};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};

use crate::params::{bad, param_error};
use crate::usage_params::{day_range, required_caller};

/// Adds the usage endpoint (weight `xxl`, as the OpenAPI's `getApiUsageMetrics`).
pub fn routes(router: Router, log: Arc<UsageLog>) -> Router {
    // A scan of the range: on the blocking pool.
    router.get_blocking("/v1/apiUsageMetrics", Weight::XXL, move |req| {
        let query = usage_query(req, req.now_secs())?;
        let metrics = log
            .aggregate(&query)
            .map_err(|e| ApiError::internal(format!("usage aggregation: {e}")))?;
        Reply::json(&metrics)
    })
}

/// The aggregation a request asks for. `startTimestamp` and `endTimestamp` are rounded down to
/// 00:00 UTC of their day and the end day is included; the defaults are the last 7 days up to
/// and including today, in daily buckets.
pub(crate) fn usage_query(req: &Request, now: u64) -> Result<UsageQuery, ApiError> {
    let caller = required_caller(req, "usage metrics are")?;
    let admin = caller.tier == "admin";
    let org_id = match req.query("orgId") {
        Some(org) if org == caller.org_id => Some(org.to_owned()),
        Some(org) if admin => Some(org.to_owned()),
        Some(org) => {
            return Err(ApiError::forbidden(format!(
                "this key belongs to organisation {:?} and may not read the usage of {org:?}",
                caller.org_id
            )));
        }
        None if admin => None,
        None => Some(caller.org_id.clone()),
    };
    let (start_ms, end_ms) = day_range(req, now)?;
    // Parsed with `query`'s wire enums (their errors name the allowed values), then mapped onto
    // the aggregation's own types, which have the same spellings.
    let interval =
        TimeInterval::parse_or(req.query("timeInterval"), TimeInterval::Daily).map_err(bad)?;
    let interval = interval
        .as_str()
        .parse::<Interval>()
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let group_by = match req.query("groupBy") {
        Some(raw) => Some(
            UsageGroupBy::parse(raw)
                .map_err(bad)?
                .as_str()
                .parse::<GroupBy>()
                .map_err(|e| ApiError::internal(e.to_string()))?,
        ),
        None => None,
    };
    let request_type = match req.query("requestType") {
        Some(raw) => Some(RequestType::parse(raw).map_err(bad)?.as_str().to_owned()),
        None => None,
    };
    let response_code = match req.query("responseCode") {
        Some(raw) if raw.len() == 3 && raw.bytes().all(|b| b.is_ascii_digit()) => {
            Some(raw.to_owned())
        }
        Some(raw) => {
            return Err(param_error(
                "responseCode",
                "must be an HTTP status code such as 200 or 429",
                raw,
            ));
        }
        None => None,
    };
    Ok(UsageQuery {
        org_id,
        start_ms,
        end_ms,
        interval,
        group_by,
        filters: UsageFilters {
            chain_id: req.query("chainId").map(str::to_owned),
            response_code,
            request_type,
            api_key_id: req.query("apiKeyId").map(str::to_owned),
            request_path: req.query("requestPath").map(str::to_owned),
        },
    })
}
