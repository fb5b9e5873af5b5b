//! Errors of the store: [`StoreError`] for operations, [`DecodeError`] for key and value codecs.

/// Why stored bytes could not be turned back into a typed key or value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The input ended before a component was complete.
    #[error("unexpected end of input: needed {needed} bytes, {remaining} left")]
    UnexpectedEnd {
        /// Bytes the component needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// Bytes were left over after the whole key or value was decoded.
    #[error("{0} trailing bytes after the encoded value")]
    TrailingBytes(usize),
    /// A variable-length key component has a malformed escape or no terminator.
    #[error("malformed escaped byte string in key")]
    BadEscape,
    /// A string component is not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A byte that must be 0 or 1 was something else.
    #[error("invalid bool byte {0}")]
    InvalidBool(u8),
    /// The avalanchego linear codec rejected the value.
    #[error(transparent)]
    Codec(#[from] snowline_types::codec::CodecError),
    /// A user-supplied codec failed for its own reason.
    #[error("{0}")]
    Other(String),
}

/// Which half of an entry failed to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The key.
    Key,
    /// The value.
    Value,
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Part::Key => "key",
            Part::Value => "value",
        })
    }
}

/// Everything that can go wrong opening, reading or writing the store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// RocksDB reported an error (its message is kept; RocksDB types never leave this crate).
    #[error("rocksdb: {0}")]
    Rocks(String),
    /// The store on disk was written with another schema version.
    #[error("schema version mismatch: store has version {found}, this build expects {expected}")]
    SchemaMismatch {
        /// The version stored on disk.
        found: u32,
        /// The version of the schema passed to `open`.
        expected: u32,
    },
    /// The store holds data but no schema version (not created by this crate, or damaged).
    #[error("store at {0} has no schema version; it was not created by snowline-store")]
    MissingSchemaVersion(String),
    /// A read-only or secondary open found tables of the schema missing on disk.
    #[error("store lacks tables {0:?}; a read-write open creates them")]
    MissingTables(Vec<String>),
    /// A table was used that the schema this store was opened with does not list.
    #[error("table {0} is not part of this store's schema")]
    UnknownTable(String),
    /// The schema itself is invalid (duplicate or reserved table names).
    #[error("invalid schema: {0}")]
    InvalidSchema(String),
    /// A write was attempted on a read-only or secondary store.
    #[error("store is opened read-only; writes are refused")]
    ReadOnly,
    /// `catch_up` was called on a store that is not a secondary instance.
    #[error("catch_up needs a secondary instance")]
    NotSecondary,
    /// Stored bytes could not be decoded into the table's types.
    #[error("decoding {part} in table {table}: {source}")]
    Decode {
        /// The table (column family) read.
        table: &'static str,
        /// Key or value.
        part: Part,
        /// The codec's reason.
        source: DecodeError,
    },
    /// A local write to a replica's store, which takes only replicated batches.
    #[error("store is a replica: it takes only the primary's batches")]
    Replica,
    /// A replicated batch out of sequence: the replica stands at `expected - 1`.
    #[error("batch {got} out of sequence: the next batch here is {expected}")]
    JournalGap {
        /// The sequence number that would follow the replica's position.
        expected: u64,
        /// The one offered.
        got: u64,
    },
    /// A replicated batch that cannot be applied: malformed, another schema, unknown tables.
    #[error("replicated batch refused: {0}")]
    BadJournal(String),
    /// The caller asked for something that cannot be done (bad arguments).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
}

/// The result type of store operations.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

pub(crate) fn rocks(e: rocksdb::Error) -> StoreError {
    StoreError::Rocks(e.into_string())
}
