//! A data-api index holding a devnet's P-Chain, built as data-api builds it (the genesis
//! applied, the P-Chain blocks ingested through `PChain`), and the binary started over it.

use std::path::Path;
use std::sync::Arc;

use snowline_chain_p::PChain;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Schema, Store};
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};

use super::MetricsApi;

/// The data-api store with the small devnet's P-Chain in `dir/data-api/index`.
pub fn index_devnet(dir: &Path) -> Arc<Store> {
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_p::tables())
        .chain(snowline_chain_metrics::tables())
        .fold(
            Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
            Schema::with_spec,
        );
    let path = dir.join("data-api/index");
    std::fs::create_dir_all(&path).unwrap();
    let store = Arc::new(Store::open(path, &schema).unwrap());
    let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let net = devnet.genesis().network.clone();
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(&store, &devnet.p_genesis()).unwrap();
    let mut writer = IndexWriter::open(&*store).unwrap();
    let src = records
        .iter()
        .filter(|r| r.path == IndexPath::PBlock)
        .map(|r| {
            Ok(ContainerLine {
                record: r.clone(),
                index: None,
            })
        });
    ingest(&store, &mut writer, src, 16, &mut p, |_| {}).unwrap();
    store
}

/// The binary over `dir`'s index, serving the local network, catching up every 50 ms.
pub fn start(dir: &Path) -> MetricsApi {
    super::start(
        dir,
        &[
            "--network",
            "local",
            "--catch-up-ms",
            "50",
            "--no-rate-limits",
        ],
    )
}
