//! The answers of the two RPC usage operations, shaped as the OpenAPI's DTOs so the REST
//! handler only serializes them (camelCase, no nulls). Their buckets are the usage metrics'
//! ([`Metric`]), the OpenAPI's `RpcMetrics` having the same members.

use serde::{Deserialize, Serialize};

use crate::usage::Metric;

/// `SubnetRpcUsageMetricsResponseDTO`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubnetRpcUsageMetrics {
    /// The bucket size (`hourly`, `daily`, `weekly` or `monthly`).
    pub aggregate_duration: String,
    /// One entry per non-empty bucket, ascending by time (`RpcMetrics`).
    pub metrics: Vec<Metric>,
    /// The chain asked for (`chainId`); empty when every chain was aggregated.
    pub chain_id: String,
}

/// `PrimaryNetworkRpcUsageMetricsResponseDTO`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimaryNetworkRpcUsageMetrics {
    /// The bucket size (`hourly`, `daily`, `weekly` or `monthly`).
    pub aggregate_duration: String,
    /// One entry per non-empty bucket, ascending by time (`RpcMetrics`).
    pub metrics: Vec<Metric>,
    /// `mainnet` or `testnet` (`local` for the local network, which the OpenAPI does not name).
    pub network: String,
}
