//! Tables shared by the store tests.
#![allow(dead_code)]

use snowline_store::{Access, JOURNAL_TABLE, Schema, Store, Table};
use snowline_types::Id;

/// (height, id) -> bytes: the shape of a block index.
pub struct Blocks;
impl Table for Blocks {
    const NAME: &'static str = "blocks";
    type Key = (u64, Id);
    type Value = Vec<u8>;
}

/// id -> height: a point-lookup index.
pub struct BlockIds;
impl Table for BlockIds {
    const NAME: &'static str = "block_ids";
    const ACCESS: Access = Access::PointLookup;
    type Key = Id;
    type Value = u64;
}

/// A singleton cursor.
pub struct Cursor;
impl Table for Cursor {
    const NAME: &'static str = "cursor";
    type Key = ();
    type Value = u64;
}

/// index -> bytes, written in key order: a log.
pub struct Log;
impl Table for Log {
    const NAME: &'static str = "log";
    const ACCESS: Access = Access::Append;
    type Key = u64;
    type Value = Vec<u8>;
}

/// A table a newer schema adds.
pub struct Extra;
impl Table for Extra {
    const NAME: &'static str = "extra";
    type Key = u32;
    type Value = Vec<u8>;
}

/// Same column family as `BlockIds`, but with a value type that cannot read its bytes.
pub struct BlockIdsAsId;
impl Table for BlockIdsAsId {
    const NAME: &'static str = "block_ids";
    type Key = Id;
    type Value = Id;
}

pub fn schema() -> Schema {
    Schema::new(1)
        .with::<Blocks>()
        .with::<BlockIds>()
        .with::<Cursor>()
}

pub fn id(n: u64) -> Id {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_be_bytes());
    b[31] = 0xee;
    Id(b)
}

/// A table's entries, key and value, in key order.
pub type Rows = Vec<(Vec<u8>, Vec<u8>)>;

/// Every table's entries as stored, the journal's own bookkeeping (and RocksDB's unused
/// default column family) left out.
#[allow(clippy::unwrap_used)]
pub fn tables(store: &Store) -> Vec<(String, Rows)> {
    let mut names = store.raw_tables().unwrap();
    names.sort();
    names
        .into_iter()
        .filter(|n| n != JOURNAL_TABLE && n != "default")
        .map(|n| {
            let mut rows = Vec::new();
            store
                .for_each_raw(&n, |k, v| rows.push((k.to_vec(), v.to_vec())))
                .unwrap();
            (n, rows)
        })
        .collect()
}
