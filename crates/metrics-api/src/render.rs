//! The JSON answers: the spec's Series response (v1), the OpenAPI's `MetricsApiResponse` (v2)
//! and its `Chain`. Absent fields are left out, never `null`.

use serde::{Serialize, Serializer};
use snowline_chain_metrics::{Point, Value};

/// A data point: `{timestamp, value}`, plus `inProgress: true` for a bucket that has not ended.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointJson {
    timestamp: u64,
    #[serde(serialize_with = "number")]
    value: Value,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    in_progress: bool,
}

impl From<&Point> for PointJson {
    fn from(p: &Point) -> Self {
        Self {
            timestamp: p.timestamp,
            value: p.value,
            in_progress: p.in_progress,
        }
    }
}

/// A count as an exact JSON integer, a ratio as a JSON number.
fn number<S: Serializer>(v: &Value, s: S) -> Result<S::Ok, S::Error> {
    match *v {
        Value::Count(n) => s.serialize_u128(n),
        Value::Ratio(x) if x.is_finite() => s.serialize_f64(x),
        Value::Ratio(_) => s.serialize_u8(0),
    }
}

/// `GET /v1/avg_tps/{chainId}`: the spec's Series response, or the legacy form's
/// (`nextPageStartKey` for `nextPageToken`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Series {
    pub results: Vec<PointJson>,
    pub status: u16,
    pub last_run: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_start_key: Option<String>,
}

/// `GET /v2/chains/{chainId}/metrics/{metric}`: `MetricsApiResponse`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V2Series {
    pub results: Vec<PointJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The OpenAPI's `Chain`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainJson<'a> {
    pub evm_chain_id: u64,
    pub chain_name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blockchain_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subnet_id: Option<&'a str>,
    pub network: &'static str,
}

/// `GET /v2/chains`: `ListChainsResponse` (one page: the listing is small).
#[derive(Debug, Serialize)]
pub struct ChainList<'a> {
    pub chains: Vec<ChainJson<'a>>,
}
