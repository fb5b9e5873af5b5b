//! `GET /v1/apiLogs` (`getApiLogs`): the request log, one entry per metered request, read from
//! the same usage events `GET /v1/apiUsageMetrics` aggregates (`access::usage`), newest first,
//! paged with sealed page tokens. The organisation, range and filters are those of the usage
//! metrics (`usage::usage_query`): the caller's organisation (an `admin` key may name another
//! with `orgId`), whole UTC days, exact-match filters. `docs/access.md`.

use std::sync::Arc;

use serde::Serialize;
use snowline_access::usage::{LogPosition, UsageLog};
use snowline_query::params::page_size;
use snowline_query::{FilterDigest, SealedPageTokens, TokenSecret};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};
use snowline_types::access::UsageEvent;

use crate::params::{bad, page_token};
use crate::usage::usage_query;

/// The `hostRegion` every entry reports: one self-hosted server has no regions.
pub const HOST_REGION: &str = "self-hosted";

/// `LogsResponseDTO`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogsResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_token: Option<String>,
    org_id: String,
    logs: Vec<LogsFormat>,
}

/// `LogsFormat`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogsFormat {
    org_id: String,
    log_id: String,
    event_timestamp: u64,
    api_key_id: String,
    api_key_alias: String,
    host_region: &'static str,
    request_type: String,
    request_path: String,
    api_credits_consumed: u64,
    request_duration_msecs: f64,
    response_code: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    chain_id: Option<String>,
    metadata: LogsMetadata,
}

/// `LogsFormatMetadata`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogsMetadata {
    ip_address: String,
    host: String,
    user_agent: String,
}

/// The id of the event at `at`: its position's 20 bytes in hex, unique and stable while kept.
fn log_id(at: &LogPosition) -> String {
    hex::encode(at.to_bytes())
}

fn entry(at: &LogPosition, e: UsageEvent) -> LogsFormat {
    LogsFormat {
        org_id: e.org_id,
        log_id: log_id(at),
        // Milliseconds since the Unix epoch, as the event keeps it.
        event_timestamp: e.timestamp_ms,
        // Keys are known by id; the alias is the id (the key store's names stay with the CLI).
        api_key_alias: e.api_key_id.clone(),
        api_key_id: e.api_key_id,
        host_region: HOST_REGION,
        request_type: e.request_type,
        request_path: e.request_path,
        api_credits_consumed: u64::from(e.credits_used) + u64::from(e.credits_wasted),
        request_duration_msecs: e.latency_us as f64 / 1000.0,
        response_code: e.response_code,
        chain_id: e.chain_id,
        metadata: LogsMetadata {
            ip_address: e.ip_address,
            host: e.host,
            user_agent: e.user_agent,
        },
    }
}

/// Adds `getApiLogs` (weight `xxl`, as the OpenAPI gives it).
pub fn routes(router: Router, log: Arc<UsageLog>, secret: TokenSecret) -> Router {
    let tokens = SealedPageTokens::new(secret);
    router.get_blocking("/v1/apiLogs", Weight::XXL, move |req| {
        logs(&log, &tokens, req)
    })
}

fn logs(log: &UsageLog, tokens: &SealedPageTokens, req: &Request) -> Result<Reply, ApiError> {
    let query = usage_query(req, req.now_secs())?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)? as usize;
    let caller_org = req.caller().map(|c| c.org_id.clone()).unwrap_or_default();
    let digest = FilterDigest::new("apiLogs")
        .field("caller", &caller_org)
        .optional("orgId", query.org_id.as_deref())
        .field("start", &query.start_ms.to_string())
        .field("end", &query.end_ms.to_string())
        .optional("chainId", query.filters.chain_id.as_deref())
        .optional("responseCode", query.filters.response_code.as_deref())
        .optional("requestType", query.filters.request_type.as_deref())
        .optional("apiKeyId", query.filters.api_key_id.as_deref())
        .optional("requestPath", query.filters.request_path.as_deref())
        .finish();
    let after = page_token(tokens, req, &digest)?
        .map(|p| {
            LogPosition::from_bytes(&p)
                .ok_or_else(|| ApiError::bad_request("Invalid pageToken: not valid for this query"))
        })
        .transpose()?;
    let (page, next) = log
        .logs(&query, after, size)
        .map_err(|e| ApiError::internal(format!("request log: {e}")))?;
    Reply::json(&LogsResponse {
        next_page_token: next.map(|p| tokens.encode(&digest, &p.to_bytes(), None)),
        org_id: query.org_id.clone().unwrap_or_default(),
        logs: page.into_iter().map(|(at, e)| entry(&at, e)).collect(),
    })
}
