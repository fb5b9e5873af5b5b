//! Table definitions and the schema: which tables (column families) a store holds, and its version.

use crate::error::{Result, StoreError};
use crate::key::KeyCodec;
use crate::value::ValueCodec;

/// How a table is read; selects per-table tuning (see `docs/store.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Access {
    /// Point lookups and range scans (the default).
    #[default]
    Mixed,
    /// Almost only point lookups (id -> record): adds a hash index inside data blocks and a
    /// memtable bloom filter, which make `get` cheaper and cost a little space.
    PointLookup,
    /// A log: keys are mostly written in increasing order (containers by index). Every level
    /// shares one compression, so files that do not overlap move down a level without being
    /// rewritten (RocksDB only moves a file whose compression is the output level's).
    Append,
}

/// A typed table: one RocksDB column family holding `Key -> Value`.
///
/// ```
/// use snowline_store::{Table, Access};
/// struct BlocksByHeight;
/// impl Table for BlocksByHeight {
///     const NAME: &'static str = "blocks_by_height";
///     type Key = u64;
///     type Value = Vec<u8>;
/// }
/// ```
pub trait Table {
    /// The column family name; unique in a schema, stable forever once data is written.
    const NAME: &'static str;
    /// How reads use this table.
    const ACCESS: Access = Access::Mixed;
    /// The key type; its encoding defines the table's order.
    type Key: KeyCodec;
    /// The value type.
    type Value: ValueCodec;
}

/// Declares tables: for each a unit struct and its [`Table`] impl, from one line
/// `NAME: "column family" (ACCESS), KEY => VALUE;` (the access pattern is optional). A leading
/// `fn NAME();` also defines a function listing every table of the block, for composing a
/// [`Schema`], so a table is named once.
///
/// ```
/// use snowline_store::{Schema, table};
///
/// table! {
///     /// The tables of this example.
///     pub fn tables();
///     /// Blocks by height.
///     pub BlocksByHeight: "blocks_by_height", u64 => Vec<u8>;
///     /// Where a block is, by id.
///     pub BlockIds: "block_ids" (PointLookup), [u8; 32] => u64;
/// }
///
/// let schema = tables().into_iter().fold(Schema::new(1), Schema::with_spec);
/// assert!(schema.contains("blocks_by_height") && schema.contains("block_ids"));
/// assert_eq!(<BlockIds as snowline_store::Table>::ACCESS, snowline_store::Access::PointLookup);
/// ```
#[macro_export]
macro_rules! table {
    (
        $(#[$list_meta:meta])* $list_vis:vis fn $list:ident();
        $(
            $(#[$meta:meta])*
            $vis:vis $name:ident: $cf:literal $(($access:ident))?, $key:ty => $value:ty;
        )+
    ) => {
        $crate::table! {
            $(
                $(#[$meta])*
                $vis $name: $cf $(($access))?, $key => $value;
            )+
        }
        $(#[$list_meta])*
        $list_vis fn $list() -> ::std::vec::Vec<$crate::TableSpec> {
            ::std::vec![$($crate::TableSpec::of::<$name>()),+]
        }
    };
    (
        $(
            $(#[$meta:meta])*
            $vis:vis $name:ident: $cf:literal $(($access:ident))?, $key:ty => $value:ty;
        )+
    ) => {
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, Copy)]
            $vis struct $name;

            impl $crate::Table for $name {
                const NAME: &'static str = $cf;
                $(const ACCESS: $crate::Access = $crate::Access::$access;)?
                type Key = $key;
                type Value = $value;
            }
        )+
    };
}

/// One table as the schema records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableSpec {
    /// The column family name.
    pub name: &'static str,
    /// Its access pattern.
    pub access: Access,
}

impl TableSpec {
    /// The spec of table `T`: its name and access pattern.
    pub const fn of<T: Table>() -> TableSpec {
        TableSpec {
            name: T::NAME,
            access: T::ACCESS,
        }
    }
}

/// Column family that holds store metadata (the schema version); reserved.
pub const META_TABLE: &str = "__snowline_meta";
/// RocksDB's own default column family; reserved and unused.
pub const DEFAULT_CF: &str = "default";

/// The tables of a store and the schema version that is checked on every open. Bump the version
/// whenever a table's key or value encoding changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    version: u32,
    tables: Vec<TableSpec>,
}

impl Schema {
    /// An empty schema with this version.
    pub fn new(version: u32) -> Self {
        Self {
            version,
            tables: Vec::new(),
        }
    }

    /// Adds table `T` (builder style).
    #[must_use]
    pub fn with<T: Table>(mut self) -> Self {
        self.tables.push(TableSpec::of::<T>());
        self
    }

    /// Adds a table by spec (for schemas assembled at run time).
    #[must_use]
    pub fn with_spec(mut self, spec: TableSpec) -> Self {
        self.tables.push(spec);
        self
    }

    /// The schema version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The tables, in the order they were added.
    pub fn tables(&self) -> &[TableSpec] {
        &self.tables
    }

    /// Whether the schema lists a table named `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.tables.iter().any(|t| t.name == name)
    }

    /// Rejects empty, reserved and duplicate table names.
    pub fn validate(&self) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        for t in &self.tables {
            if t.name.is_empty()
                || t.name == META_TABLE
                || t.name == DEFAULT_CF
                || t.name == crate::journal::JOURNAL_TABLE
            {
                return Err(StoreError::InvalidSchema(format!(
                    "table name {:?} is empty or reserved",
                    t.name
                )));
            }
            if !seen.insert(t.name) {
                return Err(StoreError::InvalidSchema(format!(
                    "table {:?} is listed twice",
                    t.name
                )));
            }
        }
        Ok(())
    }
}
