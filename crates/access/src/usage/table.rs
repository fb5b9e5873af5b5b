//! The usage events table, in the binary's main data store.

use snowline_store::{Access, Table, TableSpec};

/// Name of the usage events table (column family).
pub const USAGE_EVENTS_TABLE: &str = "access_usage_events";

/// `(minute start ms, seq) -> block of events`: every write batch stores the events of one UTC
/// minute as one row (`seq` separates rows of the same minute), each event as
/// `varint ms since the minute ‖ varint length ‖ encode(event)`
/// ([`encode`](super::event::encode)). One row per minute and batch, not per request, keeps
/// metering's cost per request to encoding; a time range is still one forward scan. Values stay
/// raw bytes so scans decode borrowed views ([`decode_ref`](super::event::decode_ref)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct UsageEventsTable;

impl Table for UsageEventsTable {
    const NAME: &'static str = USAGE_EVENTS_TABLE;
    const ACCESS: Access = Access::Mixed;
    type Key = (u64, u64);
    type Value = Vec<u8>;
}

/// The tables of usage metering, for composing the main store's
/// [`Schema`](snowline_store::Schema).
pub fn tables() -> [TableSpec; 1] {
    [TableSpec::of::<UsageEventsTable>()]
}
