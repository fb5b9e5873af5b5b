//! Snowline's storage layer: typed tables over RocksDB.
//!
//! Only this crate knows RocksDB; its API speaks in [`Table`]s (a column family with a key codec
//! and a value codec), atomic [`WriteBatch`]es, consistent [`Snapshot`]s and ordered [`Scan`]s in
//! either direction. The interface is deliberately narrow — get, scan a range either way, atomic
//! batch, snapshot — so it could be served by another ordered KV engine (TiKV) later.
//!
//! ```no_run
//! use snowline_store::{Direction, ReadView, Schema, Store, Table, WriteBatch};
//! use snowline_types::Id;
//!
//! /// Blocks by (height, id).
//! struct Blocks;
//! impl Table for Blocks {
//!     const NAME: &'static str = "blocks";
//!     type Key = (u64, Id);
//!     type Value = Vec<u8>;
//! }
//!
//! # fn main() -> Result<(), snowline_store::StoreError> {
//! let schema = Schema::new(1).with::<Blocks>();
//! let store = Store::open("/tmp/snowline-doc", &schema)?;
//! let mut batch = WriteBatch::new();
//! batch.put::<Blocks>(&(7, Id::EMPTY), &b"block".to_vec());
//! store.write(batch)?;
//! for entry in store.prefix_scan::<Blocks, _>(&7u64, None, Direction::Reverse)?.take(10) {
//!     let ((height, id), bytes) = entry?;
//!     println!("{height} {id} {}", bytes.len());
//! }
//! # Ok(()) }
//! ```

mod backlog;
mod batch;
mod db;
pub mod error;
pub mod journal;
pub mod key;
mod memory;
mod options;
mod page;
mod read;
mod replication;
pub mod row;
mod store;
mod table;
pub mod value;

pub use backlog::{BACKLOG_LEVEL0_TRIGGER, Backlog};
pub use batch::{OpHandle, WriteBatch};
pub use error::{DecodeError, Part, Result, StoreError};
pub use journal::{JOURNAL_TABLE, JournalEntry, JournalPosition, JournalRole};
pub use key::{Desc, KeyCodec, KeyPrefix, decode_key, encode_key};
pub use memory::MemoryUsage;
pub use options::StoreOptions;
pub use page::{KeysetScans, PageError, ReadFailure};
pub use read::{Direction, Entry, ReadView, Scan};
pub use store::{Mode, Snapshot, Store};
pub use table::{Access, DEFAULT_CF, META_TABLE, Schema, Table, TableSpec};
pub use value::{EncodesAs, Linear, ValueCodec, encode_value};
