//! The key table and the schema of the keys store.

use snowline_store::{Schema, Table, table};

use super::record::StoredKey;

table! {
    /// The tables of the keys store, for composing a [`Schema`].
    pub fn tables();

    /// `(first 8 bytes of SHA-256(secret), remaining 24 bytes) -> record`. Resolving a
    /// presented key is one point get on the full hash; the CLI's key id is the 8-byte prefix
    /// (a prefix scan).
    pub(crate) ApiKeysTable: "access_api_keys" (PointLookup), ([u8; 8], [u8; 24]) => StoredKey;
}

/// Name of the key table (column family) in the keys store.
pub const KEYS_TABLE: &str = <ApiKeysTable as Table>::NAME;

/// Schema version of the keys store; bump when the key or value encoding changes.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole schema of the keys store (its own directory, `DATA/keys`).
pub fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(SCHEMA_VERSION), Schema::with_spec)
}
