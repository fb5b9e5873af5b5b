//! Usage metering: events recorded off the request path, kept by time, pruned, and aggregated
//! into the Data API's `UsageMetrics`.

pub(crate) mod aggregate;
pub mod calendar;
mod event;
mod log;
mod query;
mod queue;
pub mod response;
mod rows;
mod table;
pub(crate) mod writer;

pub use aggregate::{Aggregator, aggregate_events};
pub use event::{UsageEvent, UsageEventRef};
pub use log::{LogPage, LogPosition, UsageLog};
pub use query::{GroupBy, Interval, UsageFilters, UsageQuery};
pub use response::{Metric, UsageMetrics, UsageMetricsValue};
pub use rows::{UsageRow, decode_rows, encode_rows};
pub use table::{USAGE_EVENTS_TABLE, tables};
pub use writer::{UsageWriter, WriterConfig};
