//! The key table and the schema of the keys store.

use snowline_store::{Access, Schema, Table, TableSpec};

use super::record::StoredKey;

/// `(first 8 bytes of SHA-256(secret), remaining 24 bytes) -> record`. Resolving a presented key
/// is one point get on the full hash; the CLI's key id is the 8-byte prefix (a prefix scan).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ApiKeysTable;

impl Table for ApiKeysTable {
    const NAME: &'static str = KEYS_TABLE;
    const ACCESS: Access = Access::PointLookup;
    type Key = ([u8; 8], [u8; 24]);
    type Value = StoredKey;
}

/// Name of the key table (column family) in the keys store.
pub const KEYS_TABLE: &str = "access_api_keys";

/// Schema version of the keys store; bump when the key or value encoding changes.
pub const SCHEMA_VERSION: u32 = 1;

/// The tables of the keys store, for composing a [`Schema`].
pub fn tables() -> [TableSpec; 1] {
    [TableSpec::of::<ApiKeysTable>()]
}

/// The whole schema of the keys store (its own directory, `DATA/keys`).
pub fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}
