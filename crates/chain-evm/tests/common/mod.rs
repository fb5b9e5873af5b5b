//! What the EVM deriver's tests share: a store with the EVM tables, a replay server for a
//! recording, a sync to a given block, every table dumped entry by entry, and the rows a test
//! derives independently from recorded JSON (through `snowline_evm_devnet::model`, which reads
//! it with nothing of the indexer's code).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check;
mod tokens;
#[allow(unused_imports)]
pub use check::check_against_recording;
#[allow(unused_imports)]
pub use tokens::check_tokens;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::tables::*;
use snowline_chain_evm::{EvmError, SyncConfig, sync};
use snowline_evm_devnet::model;
pub use snowline_evm_devnet::model::{RecBlock, addr, blocks, bytes, hash, q, recorded, u};
use snowline_evm_devnet::{Recording, serve};
use snowline_store::{Direction, ReadView, Schema, Store, Table};
use snowline_types::evm::{Address, B256, U256};

pub fn open(dir: &Path) -> Store {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .fold(Schema::new(1), Schema::with_spec);
    Store::open(dir, &schema).unwrap()
}

/// Serves `recording` on a free port; the node's URL.
pub async fn replay(recording: Recording) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, Arc::new(recording)));
    format!("http://{addr}/")
}

pub fn source(url: &str, blocks_per_batch: usize) -> Arc<EvmSource> {
    let config = SourceConfig {
        blocks_per_batch,
        in_flight: 2,
        retry_initial: Duration::from_millis(1),
        retry_max: Duration::from_millis(2),
        max_attempts: 2,
        call_timeout: Duration::from_secs(30),
    };
    Arc::new(EvmSource::new(url, config).unwrap())
}

/// Derives blocks up to `to` (included) from the node at `url`.
pub async fn sync_to(
    store: &Store,
    url: &str,
    blocks_per_batch: usize,
    to: u64,
) -> Result<u64, EvmError> {
    let config = SyncConfig {
        poll: Duration::from_millis(5),
        stop_after: Some(to),
        ..SyncConfig::default()
    };
    sync(store, &source(url, blocks_per_batch), &config).await
}

fn dump_table<T: Table>(store: &Store, out: &mut Vec<String>)
where
    T::Key: std::fmt::Debug,
    T::Value: std::fmt::Debug,
{
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        out.push(format!("{} {:?}", T::NAME, e.unwrap()));
    }
}

/// Every EVM table, entry by entry.
pub fn dump(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    dump_table::<EvBlocks>(store, &mut out);
    dump_table::<EvBlockHashes>(store, &mut out);
    dump_table::<EvTxs>(store, &mut out);
    dump_table::<EvTxHashes>(store, &mut out);
    dump_table::<EvTxsByAddress>(store, &mut out);
    dump_table::<EvTransfersByToken>(store, &mut out);
    dump_table::<EvTxParts>(store, &mut out);
    dump_table::<EvTransfersByAddress>(store, &mut out);
    dump_table::<EvInternalByAddress>(store, &mut out);
    dump_table::<EvContracts>(store, &mut out);
    dump_table::<EvContractsByDeployer>(store, &mut out);
    dump_table::<EvTokens>(store, &mut out);
    dump_table::<EvErc721Owner>(store, &mut out);
    dump_table::<EvErc721ByOwner>(store, &mut out);
    dump_table::<EvNftUris>(store, &mut out);
    dump_table::<EvNative>(store, &mut out);
    dump_table::<EvGenesis>(store, &mut out);
    dump_table::<EvHoldings>(store, &mut out);
    dump_table::<EvHoldingHistory>(store, &mut out);
    dump_table::<EvHoldingLog>(store, &mut out);
    dump_table::<EvHoldingSnapshots>(store, &mut out);
    dump_table::<EvHoldingTally>(store, &mut out);
    dump_table::<EvNftTokens>(store, &mut out);
    dump_table::<EvCursor>(store, &mut out);
    out
}

/// The recorded lines, as JSON.
pub fn lines(path: &Path) -> Vec<Value> {
    model::read_lines(path)
}

/// A transfer as the test reads it from a log: (kind 20/721/1155, from, to, value, id, operator).
pub type Expected = (u16, Address, Address, U256, U256, Option<Address>);

/// The transfers a log records, decoded by the devnet's independent reading of recordings.
pub fn log_transfers(log: &Value) -> Vec<Expected> {
    model::log_transfers(log, 0)
        .into_iter()
        .map(|t| (t.standard, t.from, t.to, t.value, t.id, t.operator))
        .collect()
}

/// A listed frame as the test reads it: (depth, type, from, to, value, reverted).
pub type Frame = (u32, String, Address, Option<Address>, U256, bool);

/// The listed frames of a call tree (value-carrying CALL / CALLCODE, every CREATE / CREATE2),
/// depth first.
pub fn walk(root: &Value) -> Vec<Frame> {
    model::listed_frames(root, (0, 0, B256::ZERO))
        .into_iter()
        .map(|f| (f.depth, f.kind, f.from, f.to, f.value, f.reverted))
        .collect()
}

/// Every address key of a table's chain part, for set comparisons.
pub fn set<T: Ord>(it: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    it.into_iter().collect()
}

pub fn map<K: Ord, V>(it: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    it.into_iter().collect()
}
