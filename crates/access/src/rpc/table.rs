//! The table of metered calls and the schema of their store.

use snowline_store::{Schema, Table, table};

table! {
    /// The tables of the RPC usage store.
    pub fn tables();

    /// `(arrival ms, seq) -> call` ([`RpcCall::encode`](super::call::RpcCall)): a time range is
    /// one forward scan; `seq` (a per-run random base plus a counter) keeps two calls of the
    /// same millisecond apart, also across restarts.
    pub(crate) RpcCallsTable: "access_rpc_calls", (u64, u64) => Vec<u8>;
}

/// Name of the calls table (column family).
pub const RPC_CALLS_TABLE: &str = <RpcCallsTable as Table>::NAME;

/// Schema version of the RPC usage store; bump when the key or value encoding changes.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole schema of the RPC usage store (`node-rpc`'s `DATA_DIR/rpc-usage`).
pub fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}
