//! Crash safety of the P-Chain derivation: an ingest of the devnet's P-Chain cut between
//! batches (the source fails, the pending batch is dropped, the store is closed), then reopened
//! and continued with a fresh deriver, ends with every P-Chain table equal, entry by entry, to a
//! clean run's, whatever the cut point and batch sizes (a cut may fall between a proposal block
//! and its option).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use snowline_chain_p::tables::*;
use snowline_chain_p::{P_PATHS, PChain};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexError, IndexWriter, ingest};
use snowline_store::{Direction, ReadView, Schema, Store, Table};
use snowline_types::container::{ContainerLine, ContainerRecord};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::PGenesisState;

fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_p::tables())
        .fold(Schema::new(1), Schema::with_spec)
}

fn open(dir: &std::path::Path) -> Store {
    Store::open(dir, &schema()).unwrap()
}

/// Applies the genesis (once) and ingests `records` in batches of `batch`; the source fails at
/// record `fail_after` when given.
fn run(
    store: &Store,
    genesis: &PGenesisState,
    records: &[ContainerRecord],
    batch: usize,
    fail_after: Option<usize>,
) -> Result<(), IndexError> {
    let net = &NetworkInfo::LOCAL;
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(store, genesis).unwrap();
    let mut writer = IndexWriter::open(store).unwrap();
    let src = records.iter().enumerate().map(|(i, r)| {
        if fail_after.is_some_and(|n| i >= n) {
            return Err(IndexError::Source("source cut".into()));
        }
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(store, &mut writer, src, batch, &mut p, |_| {}).map(|_| ())
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

/// Every P-Chain table, entry by entry.
fn dump(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    dump_table::<PhUtxos>(store, &mut out);
    dump_table::<PhUnspentByTime>(store, &mut out);
    dump_table::<PhUnspentByAmount>(store, &mut out);
    dump_table::<PhAllByTime>(store, &mut out);
    dump_table::<PhAllByAmount>(store, &mut out);
    dump_table::<PhTxs>(store, &mut out);
    dump_table::<PhBlocks>(store, &mut out);
    dump_table::<PhBlocksByProposer>(store, &mut out);
    dump_table::<PhStakers>(store, &mut out);
    dump_table::<PhStakersByNode>(store, &mut out);
    dump_table::<PhStakersByOwner>(store, &mut out);
    dump_table::<PhCurrentStakers>(store, &mut out);
    dump_table::<PhCurrentValidators>(store, &mut out);
    dump_table::<PhRewardsByOwner>(store, &mut out);
    dump_table::<PhRewardsByNode>(store, &mut out);
    dump_table::<PhSubnets>(store, &mut out);
    dump_table::<PhChains>(store, &mut out);
    dump_table::<PhL1Validators>(store, &mut out);
    dump_table::<PhL1BySubnet>(store, &mut out);
    dump_table::<PhL1ByNode>(store, &mut out);
    dump_table::<PhL1Active>(store, &mut out);
    dump_table::<PhMeta>(store, &mut out);
    dump_table::<PhPendingProposal>(store, &mut out);
    out
}

#[test]
fn interrupted_runs_end_with_the_tables_of_a_clean_run() {
    let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let records: Vec<ContainerRecord> = devnet
        .by_ref()
        .map(|r| r.unwrap())
        .filter(|r| P_PATHS.contains(&r.path))
        .collect();
    let genesis = devnet.p_genesis();
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = open(clean_dir.path());
    run(&clean, &genesis, &records, 64, None).unwrap();
    let want = dump(&clean);
    let rewards = want
        .iter()
        .filter(|l| l.starts_with("ph_rewards_by_node"))
        .count();
    assert!(
        records.len() > 40 && rewards > 0,
        "{} blocks, {rewards} rewards",
        records.len()
    );

    let n = records.len();
    for (cut, first_batch, second_batch) in [
        (1, 1, 64),
        (n / 7, 2, 3),
        (n / 3, 3, 1000),
        (n / 2 + 1, 1, 7),
        (n - 1, 5, 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            let cut_run = run(&store, &genesis, &records, first_batch, Some(cut));
            assert!(cut_run.is_err(), "the source was cut at {cut}");
            // Dropping the store here is the crash: only whole batches were written.
        }
        let store = open(dir.path());
        assert_ne!(dump(&store), want, "cut at {cut} left nothing to redo");
        run(&store, &genesis, &records, second_batch, None).unwrap();
        assert_eq!(dump(&store), want, "cut at {cut}");
        // Rerunning over a complete store changes nothing.
        run(&store, &genesis, &records, 5, None).unwrap();
        assert_eq!(dump(&store), want, "rerun after cut at {cut}");
    }
}

#[test]
fn every_cut_point_with_single_block_batches_ends_the_same() {
    let mut devnet = Devnet::generate(DevnetConfig::small().with_seed(3)).unwrap();
    let records: Vec<ContainerRecord> = devnet
        .by_ref()
        .map(|r| r.unwrap())
        .filter(|r| P_PATHS.contains(&r.path))
        .collect();
    let genesis = devnet.p_genesis();
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = open(clean_dir.path());
    run(&clean, &genesis, &records, 1000, None).unwrap();
    let want = dump(&clean);
    // Every block boundary, so every proposal is cut from its option once.
    for cut in 1..records.len() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            assert!(run(&store, &genesis, &records, 1, Some(cut)).is_err());
        }
        let store = open(dir.path());
        run(&store, &genesis, &records, 1000, None).unwrap();
        assert_eq!(dump(&store), want, "cut at {cut}");
    }
}
