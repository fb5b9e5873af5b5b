//! What the cost examples share: a fresh store holding the P-Chain of `DevnetConfig::large`,
//! ingested as data-api ingests it (genesis applied, blocks through `PChain` in batches of 256).

use std::sync::Arc;
use std::time::{Duration, Instant};

use snowline_chain_p::PChain;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Schema, Store};
use snowline_types::container::{ContainerLine, IndexPath};

/// The store (in `dir`) with the P-Chain of `DevnetConfig::large(txs)`, its block count, and
/// how long ingesting the blocks took.
pub fn large_devnet_p_chain(dir: &std::path::Path, txs: u64) -> (Arc<Store>, usize, Duration) {
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_p::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Arc::new(Store::open(dir, &schema).unwrap());
    let mut devnet = Devnet::generate(DevnetConfig::large(txs)).unwrap();
    let records: Vec<_> = devnet
        .by_ref()
        .map(|r| r.unwrap())
        .filter(|r| r.path == IndexPath::PBlock)
        .collect();
    let net = devnet.genesis().network.clone();
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(&store, &devnet.p_genesis()).unwrap();
    let mut writer = IndexWriter::open(&*store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    let t = Instant::now();
    ingest(&store, &mut writer, src, 256, &mut p, |_| {}).unwrap();
    (store, records.len(), t.elapsed())
}
