//! Both ICM recordings (the C-Chain 43112 and the L1 99999 of `evm-devnet record-icm`) indexed
//! through the replay server with the ICM hook: every message's status and fields equal what
//! `snowline_evm_devnet::icm_model` derives from the recorded receipts with none of this crate's
//! code; listings hold each message once, newest first, filtered as asked, in pages of any size;
//! the order the chains are indexed in changes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use common::open;
use snowline_chain_icm::tables::side;
use snowline_chain_icm::{IcmPages, IcmQuery, IcmView};
use snowline_evm_devnet::icm_model::{IcmModel, ModelMessage, Status};
use snowline_evm_devnet::icm_recording_path;
use snowline_store::Store;
use snowline_types::evm::{Address, B256, U256};

fn model() -> IcmModel {
    IcmModel::load(&[&icm_recording_path(43112), &icm_recording_path(99999)])
}

/// Indexes the recording of `chain`, `per_batch` blocks a batch, with the ICM hook given `ids`.
async fn index(store: &Store, chain: u64, per_batch: usize, ids: &BTreeMap<u64, B256>) {
    index_until(store, chain, per_batch, ids, None).await;
}

/// [`index`] up to block `until` (the tip when `None`): a process that stops there.
async fn index_until(
    store: &Store,
    chain: u64,
    per_batch: usize,
    ids: &BTreeMap<u64, B256>,
    until: Option<u64>,
) {
    let text = std::fs::read_to_string(icm_recording_path(chain)).unwrap();
    common::index_text(store, &text, per_batch, ids, until).await;
}

/// The status the index gives a message: Glacier's rule over which sides are indexed.
fn status(v: &IcmView) -> Status {
    match (&v.sent, &v.received) {
        (Some(_), None) => Status::Pending,
        (Some(_), Some(_)) => Status::Delivered,
        (None, _) => Status::DeliveredSourceNotIndexed,
    }
}

fn word(a: Address) -> [u8; 20] {
    a.0.0
}

fn check(v: &IcmView, m: &ModelMessage) {
    let id = m.message_id;
    assert_eq!(status(v), m.status, "{id}");
    assert_eq!(v.source, m.source_blockchain_id, "{id}");
    assert_eq!(v.destination, m.destination_blockchain_id, "{id}");
    let (got, want) = (&v.message, &m.message);
    assert_eq!(got.messageNonce, want.messageNonce, "{id}");
    assert_eq!(got.originSenderAddress, want.originSenderAddress, "{id}");
    assert_eq!(
        got.destinationBlockchainID, want.destinationBlockchainID,
        "{id}"
    );
    assert_eq!(got.destinationAddress, want.destinationAddress, "{id}");
    assert_eq!(got.requiredGasLimit, want.requiredGasLimit, "{id}");
    assert_eq!(
        got.allowedRelayerAddresses, want.allowedRelayerAddresses,
        "{id}"
    );
    let receipts: Vec<(U256, Address)> = got
        .receipts
        .iter()
        .map(|r| (r.receivedMessageNonce, r.relayerRewardAddress))
        .collect();
    assert_eq!(receipts, m.receipts(), "{id}");
    assert_eq!(&got.message, m.payload(), "{id}");
    match (&v.sent, &m.source_tx) {
        (Some(s), Some(t)) => {
            assert_eq!(
                (s.tx.chain, s.tx.block, s.tx.timestamp, s.tx.gas_used),
                (t.chain_id, t.block, t.timestamp, t.gas_used),
                "{id}"
            );
            assert_eq!(B256::from(s.tx.tx_hash), t.tx_hash, "{id}");
            assert_eq!(s.tx.from, word(t.from), "{id}");
            let (token, amount) = m.initial_fee.unwrap();
            assert_eq!(
                (s.fee.token, U256::from_be_bytes(s.fee.amount)),
                (word(token), amount)
            );
        }
        (None, None) => {}
        (got, want) => panic!("{id}: send {got:?}, model {want:?}"),
    }
    // The fee now: the last addition's, else the send's.
    let fee_now = v
        .fee_added
        .map(|f| f.fee)
        .or(v.sent.as_ref().map(|s| s.fee))
        .map(|f| (f.token, U256::from_be_bytes(f.amount)));
    assert_eq!(fee_now, m.fee.map(|(t, a)| (word(t), a)), "{id}");
    assert_eq!(v.fee_added.is_some(), m.fee_additions > 0, "{id}");
    match (&v.received, &m.destination_tx) {
        (Some(r), Some((t, deliverer, redeemer))) => {
            assert_eq!(
                (r.tx.chain, r.tx.block, r.tx.timestamp, r.tx.gas_used),
                (t.chain_id, t.block, t.timestamp, t.gas_used),
                "{id}"
            );
            assert_eq!(B256::from(r.tx.tx_hash), t.tx_hash, "{id}");
            assert_eq!(r.tx.from, word(*deliverer), "{id}");
            assert_eq!(r.reward_redeemer, word(*redeemer), "{id}");
        }
        (None, None) => {}
        (got, want) => panic!("{id}: delivery {got:?}, model {want:?}"),
    }
    assert_eq!(v.execution.map(|e| e.executed), m.executed, "{id}");
    match (&v.receipt, &m.receipt) {
        (Some(r), Some(w)) => {
            assert_eq!(B256::from(r.tx.tx_hash), w.tx.tx_hash, "{id}");
            assert_eq!(
                r.relayer_reward_address,
                word(w.relayer_reward_address),
                "{id}"
            );
            assert_eq!(
                (r.fee.token, U256::from_be_bytes(r.fee.amount)),
                (word(w.fee.0), w.fee.1),
                "{id}"
            );
        }
        (None, None) => {}
        (got, want) => panic!("{id}: receipt {got:?}, model {want:?}"),
    }
}

/// The time a message is listed at: its send's, else its delivery's.
fn listed_at(m: &ModelMessage) -> u64 {
    m.source_tx
        .map(|t| t.timestamp)
        .or(m.destination_tx.map(|(t, _, _)| t.timestamp))
        .unwrap()
}

/// Every page of `q`, `size` messages a page.
fn all_pages(pages: &IcmPages, q: &IcmQuery, size: u32) -> Vec<B256> {
    let mut out = Vec::new();
    let mut from: Option<Vec<u8>> = None;
    loop {
        let page = pages.list(q, size, from.as_deref()).unwrap();
        assert!(page.messages.len() <= size as usize);
        out.extend(page.messages.iter().map(|v| v.id));
        match page.next {
            Some(n) => from = Some(n),
            None => return out,
        }
    }
}

fn model_ids(model: &IcmModel, keep: impl Fn(&ModelMessage) -> bool) -> BTreeSet<B256> {
    model
        .messages
        .iter()
        .filter(|m| keep(m))
        .map(|m| m.message_id)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_equals_the_model_from_the_receipts() {
    let model = model();
    assert!(
        model.messages.len() >= 8,
        "{} messages",
        model.messages.len()
    );
    for status in [
        Status::Pending,
        Status::Delivered,
        Status::DeliveredSourceNotIndexed,
    ] {
        assert!(
            model.messages.iter().any(|m| m.status == status),
            "{status:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    // The ids are learned from the messengers' BlockchainIDInitialized, not configured.
    index(&store, 43112, 7, &BTreeMap::new()).await;
    index(&store, 99999, 3, &BTreeMap::new()).await;
    let pages = IcmPages::new(Arc::clone(&store));
    for m in &model.messages {
        let v = pages.message(m.message_id).unwrap().expect("indexed");
        check(&v, m);
    }
    assert!(pages.message(B256::repeat_byte(7)).unwrap().is_none());
    // Each chain's blockchain id, as its messenger initialized it, both ways.
    for (chain, id) in &model.chains {
        assert_eq!(pages.blockchain_of(*chain).unwrap(), Some(*id));
        assert_eq!(pages.evm_chain_of(*id).unwrap(), Some(*chain));
    }
    assert_eq!(pages.blockchain_of(1).unwrap(), None);
    assert_eq!(pages.evm_chain_of(B256::repeat_byte(7)).unwrap(), None);
    // Each transaction that sent or delivered a message names it (the first, by log index),
    // with its side.
    for m in &model.messages {
        let sides = [
            m.source_tx.map(|t| (t, side::SOURCE)),
            m.destination_tx.map(|(t, _, _)| (t, side::DESTINATION)),
        ];
        for (t, want_side) in sides.into_iter().flatten() {
            let first = model
                .messages
                .iter()
                .find(|o| {
                    o.source_tx.is_some_and(|s| s.tx_hash == t.tx_hash)
                        || o.destination_tx
                            .is_some_and(|(d, _, _)| d.tx_hash == t.tx_hash)
                })
                .unwrap();
            let (v, got_side) = pages
                .of_tx(t.chain_id, t.tx_hash)
                .unwrap()
                .expect("indexed");
            if first.message_id == m.message_id {
                assert_eq!((v.id, got_side), (m.message_id, want_side));
            }
        }
    }
    assert!(pages.of_tx(43112, B256::repeat_byte(7)).unwrap().is_none());

    // Each message listed once, newest first by its listing time, in pages of any size.
    let everything = all_pages(&pages, &IcmQuery::default(), 100);
    assert_eq!(
        everything.iter().copied().collect::<BTreeSet<_>>(),
        model_ids(&model, |_| true)
    );
    assert_eq!(
        everything.len(),
        model.messages.len(),
        "a message listed twice"
    );
    let times: Vec<u64> = everything
        .iter()
        .map(|id| listed_at(model.message(*id).unwrap()))
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    for size in [1, 2, 5] {
        assert_eq!(
            all_pages(&pages, &IcmQuery::default(), size),
            everything,
            "size {size}"
        );
    }

    // Filters, each against the model.
    let chains: Vec<B256> = model.chains.values().copied().collect();
    let ends: BTreeSet<B256> = model
        .messages
        .iter()
        .flat_map(|m| [m.source_blockchain_id, m.destination_blockchain_id])
        .collect();
    for chain in ends.iter().copied().chain(chains) {
        let by = |q: IcmQuery| {
            all_pages(&pages, &q, 2)
                .into_iter()
                .collect::<BTreeSet<_>>()
        };
        let q = IcmQuery {
            source: Some(chain),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.source_blockchain_id == chain)
        );
        let q = IcmQuery {
            destination: Some(chain),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.destination_blockchain_id == chain)
        );
        let q = IcmQuery {
            chain: Some(chain),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.source_blockchain_id == chain
                || m.destination_blockchain_id == chain)
        );
    }
    let senders: BTreeSet<Address> = model
        .messages
        .iter()
        .map(|m| m.message.originSenderAddress)
        .collect();
    let recipients: BTreeSet<Address> = model
        .messages
        .iter()
        .map(|m| m.message.destinationAddress)
        .collect();
    for a in senders.union(&recipients).copied() {
        let by = |q: IcmQuery| {
            all_pages(&pages, &q, 3)
                .into_iter()
                .collect::<BTreeSet<_>>()
        };
        let q = IcmQuery {
            from: Some(a),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.message.originSenderAddress == a)
        );
        let q = IcmQuery {
            to: Some(a),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.message.destinationAddress == a)
        );
        let q = IcmQuery {
            address: Some(a),
            ..IcmQuery::default()
        };
        assert_eq!(
            by(q),
            model_ids(&model, |m| m.message.originSenderAddress == a
                || m.message.destinationAddress == a)
        );
        // Two filters at once: the driving index and a predicate.
        for chain in &ends {
            let q = IcmQuery {
                from: Some(a),
                destination: Some(*chain),
                ..IcmQuery::default()
            };
            assert_eq!(
                by(q),
                model_ids(&model, |m| m.message.originSenderAddress == a
                    && m.destination_blockchain_id == *chain)
            );
        }
    }

    // A position of one listing is refused by another.
    let q = IcmQuery {
        chain: Some(ends.iter().copied().next().unwrap()),
        ..IcmQuery::default()
    };
    let first = pages.list(&IcmQuery::default(), 1, None).unwrap();
    assert!(pages.list(&q, 1, first.next.as_deref()).is_err());
    assert!(pages.list(&IcmQuery::default(), 1, Some(b"junk")).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_order_chains_are_indexed_in_and_configured_ids_change_nothing() {
    let model = model();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (sa, sb) = (open(a.path()), open(b.path()));
    index(&sa, 43112, 50, &BTreeMap::new()).await;
    index(&sa, 99999, 50, &BTreeMap::new()).await;
    // The other way round, one block a batch, with the ids configured as a sources file gives them.
    index(&sb, 99999, 1, &model.chains).await;
    index(&sb, 43112, 1, &model.chains).await;
    let (pa, pb) = (IcmPages::new(sa), IcmPages::new(sb));
    let q = IcmQuery::default();
    assert_eq!(all_pages(&pa, &q, 4), all_pages(&pb, &q, 4));
    for m in &model.messages {
        assert_eq!(
            pa.message(m.message_id).unwrap(),
            pb.message(m.message_id).unwrap()
        );
    }
}

/// Every row of every ICM table, in key order.
fn dump(store: &Store) -> Vec<String> {
    use snowline_chain_icm::tables::*;
    use snowline_store::{Direction, ReadView, Table};
    fn rows<T: Table>(store: &Store, out: &mut Vec<String>)
    where
        T::Key: std::fmt::Debug,
        T::Value: std::fmt::Debug,
    {
        for r in store.scan::<T, _>(.., Direction::Forward).unwrap() {
            let (k, v) = r.unwrap();
            out.push(format!("{} {k:?} {v:?}", T::NAME));
        }
    }
    let mut out = Vec::new();
    rows::<IcmSent>(store, &mut out);
    rows::<IcmFees>(store, &mut out);
    rows::<IcmReceipts>(store, &mut out);
    rows::<IcmReceived>(store, &mut out);
    rows::<IcmExecutions>(store, &mut out);
    rows::<IcmOrder>(store, &mut out);
    rows::<IcmByParty>(store, &mut out);
    rows::<IcmByTx>(store, &mut out);
    rows::<IcmChains>(store, &mut out);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_at_any_block_and_restarting_equals_a_clean_run() {
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = open(clean_dir.path());
    index(&clean, 43112, 5, &BTreeMap::new()).await;
    index(&clean, 99999, 5, &BTreeMap::new()).await;
    let want = dump(&clean);
    assert!(want.len() > 50, "{} rows", want.len());
    // Each chain stopped at every third block and picked up by a new process (a new store
    // handle and new derivers: nothing carried over but what was written), the chains
    // interleaved.
    let dir = tempfile::tempdir().unwrap();
    let mut stop = 0;
    loop {
        let store = open(dir.path());
        index_until(&store, 43112, 2, &BTreeMap::new(), Some(stop)).await;
        index_until(&store, 99999, 2, &BTreeMap::new(), Some(stop)).await;
        drop(store);
        stop += 3;
        if stop > 200 {
            break;
        }
    }
    let store = open(dir.path());
    index(&store, 43112, 2, &BTreeMap::new()).await;
    index(&store, 99999, 2, &BTreeMap::new()).await;
    assert_eq!(dump(&store), want);
}
