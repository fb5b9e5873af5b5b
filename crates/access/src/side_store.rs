//! [`SideStore`]: a small store of its own, beside the main data store, that one process writes
//! and others follow as RocksDB secondaries: the API keys (the CLI writes, servers follow) and
//! `node-rpc`'s metered calls (`node-rpc` writes, `data-api` follows).

use std::path::Path;

use snowline_store::{Schema, Store};

use crate::error::Result;

/// A store opened read-write or followed as a secondary; reads and writes go to the [`Store`]
/// it dereferences to.
#[derive(Debug)]
pub(crate) struct SideStore {
    store: Store,
}

impl SideStore {
    /// Opens (creating if needed) the store at `path` for reading and writing.
    pub(crate) fn open(path: impl AsRef<Path>, schema: &Schema) -> Result<Self> {
        Ok(Self {
            store: Store::open(path, schema)?,
        })
    }

    /// Opens the store at `primary` as a secondary keeping its own logs in `secondary_dir`;
    /// creates an empty store at `primary` first if none exists, so a reader can start before
    /// the writer has.
    pub(crate) fn open_secondary(
        primary: impl AsRef<Path>,
        secondary_dir: impl AsRef<Path>,
        schema: &Schema,
    ) -> Result<Self> {
        let primary = primary.as_ref();
        if !primary.join("CURRENT").exists() {
            drop(Store::open(primary, schema)?);
        }
        Ok(Self {
            store: Store::open_secondary(primary, secondary_dir, schema)?,
        })
    }

    /// For a secondary: makes the writer's changes since the last call visible.
    pub(crate) fn catch_up(&self) -> Result<()> {
        Ok(self.store.catch_up()?)
    }
}

impl std::ops::Deref for SideStore {
    type Target = Store;

    fn deref(&self) -> &Store {
        &self.store
    }
}

/// Gives `$owner`, a type whose one field `store` is a [`SideStore`] of the schema `$schema()`,
/// the four methods every such owner offers: `open`, `open_secondary`, `store` and `catch_up`.
/// `$changes` says what the writer's changes are, in their docs.
macro_rules! side_store_owner {
    ($owner:ident, $schema:path, $changes:literal) => {
        impl $owner {
            /// Opens (creating if needed) the store at `path` for reading and writing.
            pub fn open(path: impl AsRef<std::path::Path>) -> $crate::error::Result<Self> {
                let store = $crate::side_store::SideStore::open(path, &$schema())?;
                Ok(Self { store })
            }

            #[doc = concat!(
                "Opens the store at `primary` as a secondary keeping its own logs in ",
                "`secondary_dir`; creates an empty store at `primary` first if none exists, so a ",
                "reader can start before the writer has. ", $changes, " appear after [`",
                stringify!($owner), "::catch_up`]."
            )]
            pub fn open_secondary(
                primary: impl AsRef<std::path::Path>,
                secondary_dir: impl AsRef<std::path::Path>,
            ) -> $crate::error::Result<Self> {
                let store = $crate::side_store::SideStore::open_secondary(
                    primary,
                    secondary_dir,
                    &$schema(),
                )?;
                Ok(Self { store })
            }

            /// The underlying store.
            pub fn store(&self) -> &snowline_store::Store {
                &self.store
            }

            #[doc = concat!("For a secondary: makes ", $changes, " since the last call visible.")]
            pub fn catch_up(&self) -> $crate::error::Result<()> {
                self.store.catch_up()
            }
        }
    };
}

pub(crate) use side_store_owner;
