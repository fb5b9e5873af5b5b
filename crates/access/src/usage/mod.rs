//! Usage metering: events recorded off the request path, kept by time, pruned, and aggregated
//! into the Data API's `UsageMetrics`.

mod aggregate;
pub(crate) mod buckets;
pub mod calendar;
mod event;
mod log;
mod query;
mod queue;
pub mod response;
mod rows;
mod table;
mod writer;

pub use crate::batch::WriterConfig;
pub use aggregate::{Aggregator, aggregate_events};
pub use event::{UsageEvent, UsageEventRef};
pub use log::{LogPage, LogPosition, UsageLog};
pub use query::{GroupBy, Interval, UsageFilters, UsageQuery};
pub use response::{Metric, UsageMetrics, UsageMetricsValue};
pub use rows::{UsageRow, decode_rows, encode_rows};
pub use table::{USAGE_EVENTS_TABLE, tables};
pub use writer::UsageWriter;
