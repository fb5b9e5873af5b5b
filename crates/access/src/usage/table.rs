//! The usage events table, in the binary's main data store.

use snowline_store::{Access, Table, TableSpec};

/// Name of the usage events table (column family).
pub const USAGE_EVENTS_TABLE: &str = "access_usage_events";

/// `(timestamp ms, seq) -> event bytes` ([`encode`](super::event::encode)): a time range is
/// one forward scan; `seq` separates events of the same millisecond. Values stay raw bytes in the
/// table type so scans decode borrowed views ([`decode_ref`](super::event::decode_ref)) instead of
/// allocating every string.
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
    [TableSpec {
        name: UsageEventsTable::NAME,
        access: UsageEventsTable::ACCESS,
    }]
}
