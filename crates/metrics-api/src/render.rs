//! The JSON answers: the spec's Series response (v1), the OpenAPI's `MetricsApiResponse` (v2)
//! and its `Chain`. Absent fields are left out, never `null`.

use serde::{Serialize, Serializer};
use snowline_chain_metrics::{Point, RollingValues, Value, Window};

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

/// A window's value, when the metric has that window.
fn window_number<S: Serializer>(v: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => number(v, s),
        None => s.serialize_none(),
    }
}

/// The OpenAPI's `ChainRollingWindowMetricsValue`: the windows the metric has, the others left
/// out.
#[derive(Debug, Default, Serialize)]
pub struct RollingJson {
    #[serde(rename = "lastHour", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_hour: Option<Value>,
    #[serde(rename = "lastDay", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_day: Option<Value>,
    #[serde(rename = "lastWeek", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_week: Option<Value>,
    #[serde(rename = "lastMonth", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_month: Option<Value>,
    #[serde(rename = "last90Days", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_90_days: Option<Value>,
    #[serde(rename = "lastYear", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    last_year: Option<Value>,
    #[serde(rename = "allTime", skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    all_time: Option<Value>,
}

impl From<&RollingValues> for RollingJson {
    fn from(r: &RollingValues) -> Self {
        let mut out = Self::default();
        for (window, value) in &r.values {
            let slot = match window {
                Window::LastHour => &mut out.last_hour,
                Window::LastDay => &mut out.last_day,
                Window::LastWeek => &mut out.last_week,
                Window::LastMonth => &mut out.last_month,
                Window::Last90Days => &mut out.last_90_days,
                Window::LastYear => &mut out.last_year,
                Window::AllTime => &mut out.all_time,
            };
            *slot = Some(*value);
        }
        out
    }
}

/// `GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`: `RollingWindowMetricsApiResponse`.
#[derive(Debug, Serialize)]
pub struct RollingResponse {
    pub result: RollingJson,
}

/// The legacy `RollingWindowResponse`'s `result`: its five windows, snake_case.
#[derive(Debug, Default, Serialize)]
pub struct LegacyRollingJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    pub last_hour: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    pub last_day: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    pub last_month: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    pub last_year: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(serialize_with = "window_number")]
    pub all_time: Option<Value>,
}

/// `GET /v1/{metric}/{chainId}/rollingWindow`: the legacy `RollingWindowResponse`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyRollingResponse {
    pub status: u16,
    pub last_run: u64,
    pub result: LegacyRollingJson,
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

/// The legacy `StakingInformation`: a point and its subnet.
#[derive(Debug, Serialize)]
pub struct StakingInformationJson {
    #[serde(flatten)]
    pub point: PointJson,
    #[serde(rename = "subnetID")]
    pub subnet_id: String,
}

/// The legacy `StakingInformationResponse`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StakingInformationResponse {
    pub results: Vec<StakingInformationJson>,
    pub status: u16,
    pub last_run: u64,
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
    pub subnet_id: Option<String>,
    pub network: &'static str,
}

/// `GET /v2/chains`: `ListChainsResponse` (one page: the listing is small).
#[derive(Debug, Serialize)]
pub struct ChainList<'a> {
    pub chains: Vec<ChainJson<'a>>,
}

/// The OpenAPI's `ICMMetricsValue`: a count, its bucket, its ends (cb58; `""`: every chain).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmPointJson {
    pub value: u64,
    pub timestamp: u64,
    pub src_blockchain_id: String,
    pub dest_blockchain_id: String,
}

/// `GET /v2/icm/timeseries`: `ICMMetricsApiResponse`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmSeries {
    pub results: Vec<IcmPointJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
}

/// The OpenAPI's `ICMRollingWindowMetricsValue`: messages sent in every window.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmRollingJson {
    pub last_hour: u64,
    pub last_day: u64,
    pub last_week: u64,
    pub last_month: u64,
    #[serde(rename = "last90Days")]
    pub last_90_days: u64,
    pub last_year: u64,
    pub all_time: u64,
    pub src_blockchain_id: String,
    pub dest_blockchain_id: String,
}

/// `GET /v2/icm/summary`: `ICMRollingWindowMetricsApiResponse`.
#[derive(Debug, Serialize)]
pub struct IcmRollingResponse {
    pub result: IcmRollingJson,
}

/// The legacy `SubnetMapping`: an EVM chain id and its subnet.
#[derive(Debug, Serialize)]
pub struct SubnetMappingJson {
    #[serde(rename = "chainID")]
    pub chain_id: u64,
    #[serde(rename = "subnetID")]
    pub subnet_id: String,
    pub timestamp: u64,
    pub network: &'static str,
}

/// The legacy `ChainInformation`: a chain the P-Chain created.
#[derive(Debug, Serialize)]
pub struct ChainInformationJson {
    #[serde(rename = "subnetID")]
    pub subnet_id: String,
    pub timestamp: u64,
    #[serde(rename = "blockchainID")]
    pub blockchain_id: String,
    #[serde(rename = "vmID")]
    pub vm_id: String,
    #[serde(rename = "chainName")]
    pub chain_name: String,
}

/// The legacy `SubnetInformation`: a subnet the P-Chain created.
#[derive(Debug, Serialize)]
pub struct SubnetInformationJson {
    #[serde(rename = "controlKeys")]
    pub control_keys: Vec<String>,
    pub threshold: u32,
    #[serde(rename = "subnetID")]
    pub subnet_id: String,
    pub timestamp: u64,
    #[serde(rename = "validatorCount")]
    pub validator_count: u64,
}

/// The legacy listings' envelope (`SubnetMappingsResponse`, `ChainInformationResponse`,
/// `SubnetsResponse`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing<T> {
    pub results: Vec<T>,
    pub status: u16,
    pub last_run: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_start_key: Option<String>,
}
