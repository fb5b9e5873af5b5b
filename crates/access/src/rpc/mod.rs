//! JSON-RPC usage metering: the calls `node-rpc` answers, recorded off the request path into a
//! small store of their own, pruned, and aggregated into the Data API's RPC usage metrics
//! (`getSubnetRpcUsageMetrics`, `getPrimaryNetworkRpcUsageMetrics`). `docs/access.md`, "RPC
//! usage".

mod aggregate;
mod call;
mod log;
mod meter;
mod query;
mod response;
mod table;

pub use aggregate::aggregate_calls;
pub use call::{Outcome, RpcCall};
pub use log::RpcUsageLog;
pub use meter::{MeterConfig, RpcMeter};
pub use query::{RpcFilters, RpcGroupBy, RpcQuery, RpcScope, UNKNOWN_PLACE};
pub use response::{PrimaryNetworkRpcUsageMetrics, SubnetRpcUsageMetrics};
pub use table::{RPC_CALLS_TABLE, SCHEMA_VERSION, schema};
