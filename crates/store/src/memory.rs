//! What RocksDB holds in memory for a store: memtables, table readers and cached blocks, read
//! from RocksDB's own accounting so an operator can see where a process's memory goes.

use crate::error::{Result, rocks};
use crate::store::Store;

/// Bytes RocksDB holds in memory for one store, as RocksDB accounts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryUsage {
    /// Memtables, active and being flushed (the arena memory they allocated).
    pub memtables: u64,
    /// The part of `memtables` not yet flushed.
    pub unflushed_memtables: u64,
    /// Table readers outside the block cache (indexes and filters not charged to it).
    pub table_readers: u64,
    /// Blocks in the shared block cache, pinned ones included.
    pub block_cache: u64,
}

impl Store {
    /// RocksDB's memory for this store now.
    pub fn memory_usage(&self) -> Result<MemoryUsage> {
        let stats = rocksdb::perf::get_memory_usage_stats(Some(&[&self.db]), Some(&[&self.cache]))
            .map_err(rocks)?;
        Ok(MemoryUsage {
            memtables: stats.mem_table_total,
            unflushed_memtables: stats.mem_table_unflushed,
            table_readers: stats.mem_table_readers_total,
            block_cache: stats.cache_total,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Schema, Store, StoreOptions, WriteBatch};

    crate::table! {
        /// Rows of the test.
        Rows: "rows", u32 => Vec<u8>;
    }

    fn write_rows(store: &Store, n: u32) {
        let mut batch = WriteBatch::new();
        for i in 0..n {
            batch.put::<Rows>(&i, &vec![7u8; 100]);
        }
        store.write(&batch).unwrap();
    }

    /// Memtables take their room from the block cache by default, not in a bulk import.
    #[test]
    fn memtables_are_charged_to_the_block_cache_unless_importing() {
        for (opts, charged) in [
            (StoreOptions::default(), true),
            (StoreOptions::bulk_ingest(), false),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let schema = Schema::new(1).with::<Rows>();
            let store = Store::open_with(dir.path(), &schema, &opts).unwrap();
            let before = store.memory_usage().unwrap();
            write_rows(&store, 20_000);
            let after = store.memory_usage().unwrap();
            assert!(after.memtables >= before.memtables + 2_000_000, "{after:?}");
            // The charge is made in units of the cache's dummy entries (256 KiB or 1 MiB).
            let grew = after.block_cache.saturating_sub(before.block_cache);
            assert_eq!(grew >= 1_000_000, charged, "{before:?} -> {after:?}");
        }
    }

    #[test]
    fn memtables_grow_with_writes_and_empty_on_flush() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Schema::new(1).with::<Rows>()).unwrap();
        let before = store.memory_usage().unwrap();
        write_rows(&store, 20_000);
        let written = store.memory_usage().unwrap();
        assert!(
            written.unflushed_memtables >= before.unflushed_memtables + 2_000_000,
            "{before:?} -> {written:?}"
        );
        store.flush().unwrap();
        let flushed = store.memory_usage().unwrap();
        assert!(
            flushed.unflushed_memtables < written.unflushed_memtables / 4,
            "{written:?} -> {flushed:?}"
        );
    }
}
