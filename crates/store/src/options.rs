//! Tuning: [`StoreOptions`] and its translation into RocksDB options. Every choice is explained in
//! `docs/store.md`; the defaults suit write-once chain data read by point lookups and short scans.

use rocksdb::{
    BlockBasedIndexType, BlockBasedOptions, Cache, DBCompressionType, DataBlockIndexType, Options,
    WriteBufferManager,
};

use crate::table::Access;

/// Store tuning. `Default` is for serving (modest memory); [`StoreOptions::bulk_ingest`] for an
/// initial import.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreOptions {
    /// Block cache shared by every table, in bytes (uncompressed blocks, index and filter blocks).
    /// With [`StoreOptions::charge_memtables_to_cache`] it bounds memtables and cached blocks
    /// together.
    pub block_cache_bytes: usize,
    /// Charge memtable memory to the block cache: while writes fill memtables, cached blocks are
    /// evicted to make room, and a store that only serves gets the whole cache for its blocks.
    pub charge_memtables_to_cache: bool,
    /// Memtable size per table before it is flushed, in bytes.
    pub write_buffer_bytes: usize,
    /// Memtables a table may hold (one active, the rest flushing).
    pub max_write_buffers: i32,
    /// Cap on all memtables of all tables together, in bytes (0 = no cap): reaching it flushes.
    pub total_write_buffer_bytes: usize,
    /// Bloom filter bits per key (whole-key filters); 0 disables filters.
    pub bloom_bits_per_key: f64,
    /// Uncompressed data block size, in bytes.
    pub block_size: usize,
    /// Background flush and compaction threads.
    pub max_background_jobs: i32,
    /// Level-0 file count that triggers a compaction.
    pub level0_compaction_trigger: i32,
    /// fsync the WAL on every batch. Off by default: see `docs/store.md` ("Durability").
    pub sync_writes: bool,
}

/// Largest arena block of a memtable (see [`StoreOptions::table_options`]).
const ARENA_BLOCK_BYTES: usize = 1 << 20;

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            // Serving and following stay under 512 MiB of RSS with these (docs/benchmarks.md,
            // "Memory while following"): memtables are most of a follower's memory.
            // One budget of 128 MiB for memtables and blocks: a follower's memtables take it as
            // they fill (blocks get the rest); a server that only reads has all of it for blocks.
            block_cache_bytes: 128 << 20,
            charge_memtables_to_cache: true,
            write_buffer_bytes: 32 << 20,
            max_write_buffers: 3,
            total_write_buffer_bytes: 128 << 20,
            bloom_bits_per_key: 10.0,
            block_size: 16 << 10,
            max_background_jobs: 4,
            level0_compaction_trigger: 4,
            sync_writes: false,
        }
    }
}

impl StoreOptions {
    /// Settings for a first import of history: large memtables and a later level-0 compaction
    /// trigger, so writes are flushed in big sorted runs and compacted less often.
    pub fn bulk_ingest() -> Self {
        Self {
            write_buffer_bytes: 256 << 20,
            max_write_buffers: 4,
            total_write_buffer_bytes: 2 << 30,
            // Gigabytes of memtables would evict every cached block an import's derivers read.
            charge_memtables_to_cache: false,
            level0_compaction_trigger: 8,
            ..Self::default()
        }
    }

    /// Options for the database as a whole; `cache` is the shared block cache.
    pub(crate) fn db_options(&self, cache: &Cache) -> Options {
        let mut o = Options::default();
        o.create_if_missing(true);
        o.create_missing_column_families(true);
        // Keep every table file open: required by secondary instances, and avoids the table
        // cache's open/close churn on lookups.
        o.set_max_open_files(-1);
        o.set_max_background_jobs(self.max_background_jobs);
        let cap = self.total_write_buffer_bytes;
        if cap > 0 && self.charge_memtables_to_cache {
            // Memtables take their room from the cache, so a follower's memtables and cached
            // blocks stay within one budget. Writers are not stalled at the cap: stalling was
            // measured to slow following without lowering the peak (docs/benchmarks.md).
            o.set_write_buffer_manager(&WriteBufferManager::new_write_buffer_manager_with_cache(
                cap,
                false,
                cache.clone(),
            ));
        } else if cap > 0 {
            o.set_db_write_buffer_size(cap);
        }
        o.set_bytes_per_sync(1 << 20);
        // Flush all tables at one point, so the files on disk always hold whole batches even
        // for writes that skipped the WAL (`Store::set_unlogged_writes`, bulk imports). With the
        // WAL on it changes nothing for correctness; small tables then flush with the big ones.
        o.set_atomic_flush(true);
        o.set_keep_log_file_num(10);
        o
    }

    /// Options for one table's column family; `cache` is the shared block cache.
    pub(crate) fn table_options(&self, cache: &Cache, access: Access) -> Options {
        let mut bb = BlockBasedOptions::default();
        bb.set_block_cache(cache);
        bb.set_block_size(self.block_size);
        bb.set_format_version(5);
        // Partitioned index and filters: a large file's index (megabytes when keys are long)
        // is cut into 4 KiB partitions under a small pinned top level, so the cache holds the
        // parts a seek needs; a whole index larger than a cache shard (1 MiB of the 64) was
        // evicted on insertion and read and decompressed again at every seek.
        bb.set_index_type(BlockBasedIndexType::TwoLevelIndexSearch);
        bb.set_partition_filters(true);
        bb.set_metadata_block_size(4 << 10);
        bb.set_pin_top_level_index_and_filter(true);
        if self.bloom_bits_per_key > 0.0 {
            bb.set_bloom_filter(self.bloom_bits_per_key, false);
            bb.set_whole_key_filtering(true);
        }
        // Index and filter blocks live in (and are bounded by) the shared cache; level-0 ones are
        // pinned because every lookup consults them.
        bb.set_cache_index_and_filter_blocks(true);
        bb.set_cache_index_and_filter_blocks_with_high_priority(true);
        bb.set_pin_l0_filter_and_index_blocks_in_cache(true);

        let mut o = Options::default();
        if access == Access::PointLookup {
            // What RocksDB's OptimizeForPointLookup does, minus its private block cache.
            bb.set_data_block_index_type(DataBlockIndexType::BinaryAndHash);
            bb.set_data_block_hash_ratio(0.75);
            o.set_memtable_whole_key_filtering(true);
            o.set_memtable_prefix_bloom_ratio(0.02);
        }
        o.set_block_based_table_factory(&bb);
        o.set_write_buffer_size(self.write_buffer_bytes);
        // A memtable's memory comes in arena blocks, by default an eighth of the write buffer
        // each; every table written to holds at least one, so with tens of tables the default
        // (4-32 MiB) outweighed the memtables' data (docs/benchmarks.md, "Memory while following").
        o.set_arena_block_size(
            ARENA_BLOCK_BYTES
                .min(self.write_buffer_bytes / 8)
                .max(4 << 10),
        );
        o.set_max_write_buffer_number(self.max_write_buffers);
        o.set_level_zero_file_num_compaction_trigger(self.level0_compaction_trigger);
        o.set_level_compaction_dynamic_level_bytes(true);
        o.set_compression_type(DBCompressionType::Lz4);
        if access != Access::Append {
            o.set_bottommost_compression_type(DBCompressionType::Zstd);
            // ZSTD level 1 (window bits -14 and no dictionary are RocksDB's defaults): level 3
            // (doubleFast) made bottom-level compactions 18% of a bulk import's CPU; level 1
            // costs about 2% more disk for about 7% less import CPU (docs/store.md).
            o.set_bottommost_compression_options(-14, 1, 0, 0, true);
        }
        o.set_target_file_size_base(64 << 20);
        o
    }

    /// Options for the small metadata column family.
    pub(crate) fn meta_options(&self) -> Options {
        let mut o = Options::default();
        o.set_write_buffer_size(1 << 20);
        o
    }
}
