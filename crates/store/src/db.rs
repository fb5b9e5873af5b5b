//! The RocksDB handle type the store opens and its reads go through.

use rocksdb::{DBWithThreadMode, SingleThreaded};

/// The RocksDB handle type used throughout (column families fixed after open).
pub(crate) type Db = DBWithThreadMode<SingleThreaded>;
