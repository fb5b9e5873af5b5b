//! A devnet's P-Chain (the small one unless a test asks for another) ingested for tests: generated, a fresh store with the index's and
//! the P-Chain's tables, the genesis applied through a `PChain` deriver with the fee
//! configuration a test asks for, and its `P/block` containers ingested in the batches it asks
//! for. One file for the unit tests (`#[cfg(test)]` in `lib.rs`) and the integration tests
//! (`#[path]`), so it names this crate `snowline_chain_p` as they do.

// Each includer uses part of it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use snowline_chain_p::{FeeConfig, PChain, tables};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Schema, Store};
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::PGenesisState;

/// A devnet's containers (`DevnetConfig::small()`'s unless told) and a fresh store to ingest its
/// P-Chain into.
pub struct PDevnet {
    /// Every container the devnet generated, in its order.
    pub records: Vec<ContainerRecord>,
    /// The P-Chain's genesis state.
    pub p_genesis: PGenesisState,
    /// The devnet's network.
    pub net: NetworkInfo,
    /// The store: nothing written until [`PDevnet::deriver`] applies the genesis.
    pub store: Arc<Store>,
    /// Where the store lives, removed when the devnet is dropped.
    _dir: tempfile::TempDir,
}

impl PDevnet {
    /// Generates the devnet and opens an empty store for it, so a test can first check what a
    /// store with nothing indexed answers.
    pub fn generate() -> Self {
        Self::generate_from(DevnetConfig::small())
    }

    /// [`PDevnet::generate`] of another config.
    pub fn generate_from(config: DevnetConfig) -> Self {
        let mut devnet = Devnet::generate(config).unwrap();
        let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
        let dir = tempfile::tempdir().unwrap();
        let schema = snowline_node_index::tables()
            .into_iter()
            .chain(tables())
            .fold(Schema::new(1), Schema::with_spec);
        let store = Arc::new(Store::open(dir.path(), &schema).unwrap());
        Self {
            records,
            p_genesis: devnet.p_genesis(),
            net: devnet.genesis().network.clone(),
            store,
            _dir: dir,
        }
    }

    /// The P-Chain's blocks (`P/block` containers), in the devnet's order.
    pub fn p_blocks(&self) -> Vec<&ContainerRecord> {
        self.records
            .iter()
            .filter(|r| r.path == IndexPath::PBlock)
            .collect()
    }

    /// Applies the genesis through a `PChain` deriver with `fee` (the network's when `None`)
    /// and returns it with an index writer, ready for the blocks.
    pub fn deriver(&self, fee: Option<FeeConfig>) -> PIngest {
        let net = &self.net;
        let mut p = PChain::new(
            net.network_id,
            net.p_chain_id,
            net.x_chain_id,
            net.avax_asset_id,
        );
        if let Some(fee) = fee {
            p = p.with_fee_config(fee);
        }
        p.apply_genesis(&self.store, &self.p_genesis).unwrap();
        let writer = IndexWriter::open(&*self.store).unwrap();
        PIngest {
            store: Arc::clone(&self.store),
            p,
            writer,
        }
    }
}

/// A `PChain` deriver and the index writer of one store, fed P-Chain blocks in order.
pub struct PIngest {
    store: Arc<Store>,
    p: PChain,
    writer: IndexWriter,
}

impl PIngest {
    /// Ingests `blocks` (the next ones after what was ingested), `batch` blocks a write batch.
    pub fn ingest(&mut self, blocks: &[&ContainerRecord], batch: usize) {
        let src = blocks.iter().map(|r| {
            Ok(ContainerLine {
                record: (*r).clone(),
                index: None,
            })
        });
        ingest(
            &self.store,
            &mut self.writer,
            src,
            batch,
            &mut self.p,
            |_| {},
        )
        .unwrap();
    }
}
