//! The store's memory as Prometheus gauges (memtables, table readers, block cache), read from
//! RocksDB at each scrape so an operator sees where a process's memory goes.

use std::sync::Arc;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;
use snowline_store::Store;

/// A collector over one store's RocksDB memory accounting.
#[derive(Debug, Clone)]
pub struct StoreMetrics {
    store: Arc<Store>,
}

impl StoreMetrics {
    /// Registers the memory gauges of `store` in `registry`.
    pub fn register(registry: &mut Registry, store: Arc<Store>) {
        registry.register_collector(Box::new(Self { store }));
    }
}

impl Collector for StoreMetrics {
    fn encode(&self, mut e: DescriptorEncoder) -> std::fmt::Result {
        // A failed read leaves the gauges out of this scrape rather than failing it.
        let Ok(m) = self.store.memory_usage() else {
            return Ok(());
        };
        for (name, help, bytes) in [
            (
                "snowline_store_memtable_bytes",
                "Memory of the store's memtables, active and being flushed",
                m.memtables,
            ),
            (
                "snowline_store_memtable_unflushed_bytes",
                "Memory of the store's memtables not yet flushed",
                m.unflushed_memtables,
            ),
            (
                "snowline_store_table_reader_bytes",
                "Memory of the store's table readers outside the block cache",
                m.table_readers,
            ),
            (
                "snowline_store_block_cache_bytes",
                "Blocks held in the store's block cache",
                m.block_cache,
            ),
        ] {
            let g = ConstGauge::new(i64::try_from(bytes).unwrap_or(i64::MAX));
            g.encode(e.encode_descriptor(name, help, None, g.metric_type())?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_store::{Schema, WriteBatch};

    snowline_store::table! {
        /// Rows of the test.
        Rows: "rows", u32 => Vec<u8>;
    }

    fn scrape(registry: &Registry) -> String {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, registry).unwrap();
        out
    }

    fn gauge(text: &str, name: &str) -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing in\n{text}"))
    }

    #[test]
    fn gauges_follow_the_memtables() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path(), &Schema::new(1).with::<Rows>()).unwrap());
        let mut registry = Registry::default();
        StoreMetrics::register(&mut registry, Arc::clone(&store));
        let empty = gauge(
            &scrape(&registry),
            "snowline_store_memtable_unflushed_bytes",
        );
        let mut batch = WriteBatch::new();
        for i in 0u32..20_000 {
            batch.put::<Rows>(&i, &vec![1u8; 100]);
        }
        store.write(&batch).unwrap();
        let text = scrape(&registry);
        assert!(gauge(&text, "snowline_store_memtable_unflushed_bytes") >= empty + 2_000_000);
        assert!(gauge(&text, "snowline_store_memtable_bytes") >= 2_000_000);
        for name in [
            "snowline_store_table_reader_bytes",
            "snowline_store_block_cache_bytes",
        ] {
            gauge(&text, name);
        }
    }
}
