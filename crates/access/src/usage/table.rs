//! The usage events table, in the binary's main data store.

use snowline_store::{Table, table};

/// Name of the usage events table (column family).
pub const USAGE_EVENTS_TABLE: &str = <UsageEventsTable as Table>::NAME;

table! {
    /// The tables of usage metering, for composing the main store's
    /// [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `(minute start ms, seq) -> block of events`: every write batch stores the events of one UTC
    /// minute as one row (`seq` separates rows of the same minute), each event as
    /// `varint ms since the minute ‖ varint length ‖ encode(event)`
    /// ([`encode`](super::event::encode)). One row per minute and batch, not per request, keeps
    /// metering's cost per request to encoding; a time range is still one forward scan. Values stay
    /// raw bytes so scans decode borrowed views ([`decode_ref`](super::event::decode_ref)).
    pub(crate) UsageEventsTable: "access_usage_events", (u64, u64) => Vec<u8>;
}
