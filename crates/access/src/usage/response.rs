//! The answer of an aggregation, shaped as the Data API's `UsageMetricsResponseDTO` so the REST
//! handler only serializes it (camelCase, no nulls).

use serde::{Deserialize, Serialize};

/// `UsageMetricsResponseDTO`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetrics {
    /// The bucket size (`minute`, `hourly`, `daily`, `weekly` or `monthly`).
    pub aggregate_duration: String,
    /// The organisation asked for; empty when every organisation was aggregated.
    pub org_id: String,
    /// One entry per non-empty bucket, ascending by time.
    pub metrics: Vec<Metric>,
}

/// `Metric`: one bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metric {
    /// Bucket start, Unix seconds.
    pub timestamp: i64,
    /// One entry per group, by `totalRequests` descending then `groupValue` ascending.
    pub values: Vec<UsageMetricsValue>,
}

/// `UsageMetricsValueDTO`: the figures of one group in one bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetricsValue {
    /// The grouping (`requestPath`, `responseCode`, ...) or `None`.
    pub grouped_by: String,
    /// The group's value, always a string (response codes as `"200"`); absent when ungrouped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_value: Option<String>,
    /// Requests in the group.
    pub total_requests: u64,
    /// `totalRequests` / the bucket's length in seconds.
    pub requests_per_second: f64,
    /// Share of 2xx answers, in percent.
    pub success_rate_percent: f64,
    /// The median latency in ms (mean of the two middle values for an even count).
    pub median_response_time_msecs: f64,
    /// Requests answered 4xx.
    pub invalid_requests: u64,
    /// Sum of the credits used.
    pub api_credits_used: u64,
    /// Sum of the credits wasted.
    pub api_credits_wasted: u64,
}
