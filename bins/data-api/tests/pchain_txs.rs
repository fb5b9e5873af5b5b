//! The P-Chain's txs end to end: a devnet served as a node would serve it, `data-api`
//! following it, and every tx by hash, every address's history and the chain's latest txs
//! equal what an independent reading of the devnet computes: its `P/block` containers parsed
//! here with `snowline_types` (each tx's block, type, named owners) and `common::pmodel`'s
//! replay of the UTXOs (which never calls `snowline_chain_p`). An address takes part in a tx
//! when it owns a UTXO the tx consumes, emits or returns from staking, or the tx names it as a
//! reward owner or a subnet owner; a tx sits at the height of the block holding it (a
//! `RewardValidatorTx` at its proposal block, its effects in the option block after it).
//! Histories list each tx once, by height then tx id, in every page size, order, time window
//! and type filter.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::pmodel::{Kind, PModel};
use common::{DataApi, follow, has_null, local_addr, local_addrs, upstream};
use serde_json::Value;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::platformvm::{UnsignedTx, parse_block};
use snowline_types::{Id, ShortId};

const P: &str = "/v1/networks/local/blockchains/p-chain";

/// A P-Chain tx as the devnet's bytes give it.
#[derive(Debug, Clone)]
struct MTx {
    id: Id,
    height: u64,
    ts: u64,
    position: usize,
    block: Id,
    type_name: &'static str,
    tx: UnsignedTx,
}

struct World {
    _up: upstream::Upstream,
    api: DataApi,
    model: PModel,
    txs: BTreeMap<Id, MTx>,
    /// The txs each address takes part in.
    history: BTreeMap<ShortId, BTreeSet<Id>>,
    _dir: tempfile::TempDir,
}

/// The owners a tx names: a staker's reward owners, a subnet's owners.
fn named_owners(tx: &UnsignedTx) -> Vec<ShortId> {
    match tx {
        UnsignedTx::AddValidatorTx(t) => t.rewards_owner.owners().addrs.clone(),
        UnsignedTx::AddDelegatorTx(t) => t.rewards_owner.owners().addrs.clone(),
        UnsignedTx::AddPermissionlessDelegatorTx(t) => t.rewards_owner.owners().addrs.clone(),
        UnsignedTx::AddPermissionlessValidatorTx(t) => {
            let mut v = t.validator_rewards_owner.owners().addrs.clone();
            v.extend_from_slice(&t.delegator_rewards_owner.owners().addrs);
            v
        }
        UnsignedTx::CreateSubnetTx(t) => t.owner.owners().addrs.clone(),
        UnsignedTx::TransferSubnetOwnershipTx(t) => t.owner.owners().addrs.clone(),
        _ => Vec::new(),
    }
}

fn world(seed: u64) -> World {
    let up = upstream::start(seed, 0);
    let (mut devnet, _) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    let model = PModel::replay(&devnet, &records);
    let mut txs = BTreeMap::new();
    for r in records.iter().filter(|r| r.path == IndexPath::PBlock) {
        let parsed = parse_block(&r.bytes).unwrap();
        let height = parsed.block.block.height();
        let b = model.blocks.iter().find(|b| b.height == height).unwrap();
        let inner = parsed.block.block.txs();
        for (i, (t, id)) in inner.iter().zip(&parsed.block.tx_ids).enumerate() {
            let tx = MTx {
                id: *id,
                height,
                ts: b.ts,
                position: i,
                block: b.id,
                type_name: t.unsigned.data_api_type(),
                tx: t.unsigned.clone(),
            };
            assert!(txs.insert(*id, tx).is_none(), "tx {id} in two blocks");
        }
    }
    // Who takes part in what, from the replayed UTXOs and the txs' named owners.
    let mut history: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    let mut touch = |owners: &[ShortId], tx: Id| {
        if txs.contains_key(&tx) {
            for a in owners {
                history.entry(*a).or_default().insert(tx);
            }
        }
    };
    for u in model.utxos.values() {
        let owners = &u.owners().addrs;
        if u.created.height > 0 {
            touch(owners, u.created.tx);
        }
        if let (Some(c), false) = (u.consumed, u.kind == Kind::Exported) {
            touch(owners, c.tx);
        }
        if let Some(r) = u.returned {
            touch(owners, r.tx);
        }
    }
    for u in model.x_to_p.values() {
        if let Some(c) = u.consumed {
            touch(&u.owners().addrs, c.tx);
        }
    }
    for t in txs.values() {
        touch(&named_owners(&t.tx), t.id);
    }
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    let last = model.blocks.last().unwrap();
    let last_tx = txs
        .values()
        .max_by_key(|t| (t.height, t.position))
        .unwrap()
        .id;
    assert!(
        api.wait_until(120, |a| a
            .get(&format!("{P}/transactions/{last_tx}"))
            .status
            == 200),
        "the P-Chain never caught up to height {}",
        last.height
    );
    eprintln!(
        "devnet seed {seed}: {} P txs, {} addresses with a history",
        txs.len(),
        history.len()
    );
    World {
        _up: up,
        api,
        model,
        txs,
        history,
        _dir: dir,
    }
}

/// Every page of `path` (which has a query), following `nextPageToken`: the tx ids and the
/// size of each page.
fn pages(api: &DataApi, path: &str) -> (Vec<String>, Vec<usize>) {
    let mut ids = Vec::new();
    let mut sizes = Vec::new();
    for v in common::page_bodies(api, path) {
        assert_eq!(v["chainInfo"]["chainName"], "p-chain");
        let items = v["transactions"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no transactions: {v}"));
        sizes.push(items.len());
        ids.extend(
            items
                .iter()
                .map(|t| t["txHash"].as_str().unwrap().to_owned()),
        );
    }
    (ids, sizes)
}

/// Pages of `base` in `sizes` list exactly `want`, each once, every page full but the last.
fn check_listing(api: &DataApi, base: &str, want: &[String], sizes: &[usize]) {
    for size in sizes {
        let path = format!("{base}&pageSize={size}");
        let (ids, got_sizes) = pages(api, &path);
        assert_eq!(ids, want, "{path}: every tx once, in order");
        common::assert_full_pages(&path, &got_sizes, *size);
    }
}

/// The ids of `txs` in an address history's order.
fn ordered(w: &World, txs: impl IntoIterator<Item = Id>, desc: bool) -> Vec<String> {
    let mut v: Vec<(u64, Id)> = txs.into_iter().map(|id| (w.txs[&id].height, id)).collect();
    v.sort();
    if desc {
        v.reverse();
    }
    v.into_iter().map(|(_, id)| id.to_string()).collect()
}

#[test]
fn every_tx_by_hash_is_its_block_type_and_utxos() {
    let w = world(2);
    let m = &w.model;
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for t in w.txs.values() {
        let v = w.api.get(&format!("{P}/transactions/{}", t.id)).json();
        *kinds.entry(t.type_name).or_default() += 1;
        assert_eq!(v["txHash"], t.id.to_string().as_str());
        assert_eq!(v["txType"], t.type_name, "{}", t.id);
        assert_eq!(v["blockNumber"], t.height.to_string().as_str());
        assert_eq!(v["blockTimestamp"], t.ts);
        assert_eq!(v["blockHash"], t.block.to_string().as_str());
        // Emitted: every P UTXO the tx created, by output index.
        let mut emitted: Vec<_> = m.utxos.values().filter(|u| u.created.tx == t.id).collect();
        emitted.sort_by_key(|u| u.utxo_id.output_index);
        let ids = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no {key}: {v}", t.id))
                .iter()
                .map(|u| u["utxoId"].as_str().unwrap().to_owned())
                .collect()
        };
        let want: Vec<String> = emitted.iter().map(|u| u.id.to_string()).collect();
        assert_eq!(
            ids("emittedUtxos"),
            want,
            "{} ({}) emitted",
            t.id,
            t.type_name
        );
        // Consumed: its inputs whose UTXO is known, in input order.
        let mut inputs: Vec<Id> =
            t.tx.base()
                .map(|b| b.inputs.iter().map(|i| i.utxo_id.id()).collect())
                .unwrap_or_default();
        if let UnsignedTx::ImportTx(i) = &t.tx {
            inputs.extend(i.imported_inputs.iter().map(|i| i.utxo_id.id()));
        }
        let known = |id: &Id| {
            m.utxos
                .get(id)
                .or_else(|| m.x_to_p.get(id))
                .is_some_and(|u| u.consumed.is_some_and(|c| c.tx == t.id))
        };
        let want: Vec<String> = inputs
            .iter()
            .filter(|i| known(i))
            .map(Id::to_string)
            .collect();
        assert_eq!(
            ids("consumedUtxos"),
            want,
            "{} ({}) consumed",
            t.id,
            t.type_name
        );
        // Value: what it emitted.
        let value: u128 = emitted.iter().map(|u| u128::from(u.amount())).sum();
        let got: u128 = v["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["amount"].as_str().unwrap().parse::<u128>().unwrap())
            .sum();
        assert_eq!(got, value, "{} value", t.id);
        // Staking: the staker's terms and settlement.
        if let Some(s) = m.stakers.get(&t.id) {
            assert_eq!(v["startTimestamp"], s.start);
            assert_eq!(v["endTimestamp"], s.end);
            assert_eq!(v["nodeId"], s.node.to_string().as_str());
            assert_eq!(
                v["estimatedReward"],
                s.potential_reward.to_string().as_str()
            );
            let staked: u64 = s.stake.iter().map(|o| o.output.amount()).sum();
            assert_eq!(v["amountStaked"][0]["amount"], staked.to_string().as_str());
            match s.settled {
                Some((ev, _)) => assert_eq!(v["rewardTxHash"], ev.tx.to_string().as_str()),
                None => assert!(v.get("rewardTxHash").is_none()),
            }
            let mut owners = local_addrs("P", &s.reward_owner.addrs);
            owners.sort();
            let mut got: Vec<String> = v["rewardAddresses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            got.sort();
            assert_eq!(got, owners);
        }
        if let UnsignedTx::RewardValidatorTx(r) = &t.tx {
            assert_eq!(v["stakingTxHash"], r.tx_id.to_string().as_str());
        }
        assert!(!has_null(&v), "{}: no null: {v}", t.id);
    }
    eprintln!("txs by hash: {kinds:?}");
    assert!(
        kinds.len() >= 8,
        "the devnet covers many tx types: {kinds:?}"
    );
    // An id no tx has, and ids that are not ids.
    let r = w.api.get(&format!("{P}/transactions/{}", Id([7; 32])));
    assert_eq!(r.status, 404, "{}", r.body);
    for bad in ["nope", "0x1234", "11111111111111111111111111111111LpoYZ"] {
        w.api
            .get(&format!("{P}/transactions/{bad}"))
            .error(400, "Bad Request");
    }
}

#[test]
fn address_histories_list_each_tx_once_newest_first() {
    let w = world(3);
    let api = &w.api;
    // The addresses with the longest histories, one alone and several together.
    let mut by_len: Vec<(&ShortId, &BTreeSet<Id>)> = w.history.iter().collect();
    by_len.sort_by_key(|(a, h)| (std::cmp::Reverse(h.len()), **a));
    let top: Vec<ShortId> = by_len.iter().take(4).map(|(a, _)| **a).collect();
    assert!(w.history[&top[0]].len() >= 10, "a long history");
    let mut compared = 0;
    for (i, addr) in top.iter().enumerate() {
        let want = ordered(&w, w.history[addr].iter().copied(), true);
        let base = format!("{P}/transactions?addresses={}", local_addr("P", addr));
        let sizes: &[usize] = if i == 0 { &[1, 3, 100] } else { &[100] };
        check_listing(api, &base, &want, sizes);
        compared += want.len();
        // Ascending.
        let want_asc = ordered(&w, w.history[addr].iter().copied(), false);
        check_listing(api, &format!("{base}&sortOrder=asc"), &want_asc, &[3, 100]);
    }
    // Several addresses: a tx of two of them once.
    let union: BTreeSet<Id> = top
        .iter()
        .flat_map(|a| w.history[a].iter().copied())
        .collect();
    let joined = local_addrs("P", &top).join(",");
    let base = format!("{P}/transactions?addresses={joined}");
    check_listing(
        api,
        &base,
        &ordered(&w, union.iter().copied(), true),
        &[1, 3, 100],
    );
    // Every address with a history, each in one page of 100 (or more).
    for (addr, h) in &w.history {
        let base = format!("{P}/transactions?addresses={}", local_addr("P", addr));
        check_listing(api, &base, &ordered(&w, h.iter().copied(), true), &[100]);
        compared += h.len();
    }
    // Time windows: [start, end) over block times.
    let times: Vec<u64> = w
        .txs
        .values()
        .map(|t| t.ts)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let (t1, t2) = (times[times.len() / 4], times[times.len() * 3 / 4]);
    for (start, end) in [(Some(t1), None), (None, Some(t2)), (Some(t1), Some(t2))] {
        let inside = |id: &Id| {
            let ts = w.txs[id].ts;
            start.is_none_or(|s| ts >= s) && end.is_none_or(|e| ts < e)
        };
        let mut q = String::new();
        if let Some(s) = start {
            q.push_str(&format!("&startTimestamp={s}"));
        }
        if let Some(e) = end {
            q.push_str(&format!("&endTimestamp={e}"));
        }
        let want = ordered(&w, union.iter().copied().filter(inside), true);
        assert!(!want.is_empty(), "window {start:?}..{end:?}");
        check_listing(api, &format!("{base}{q}"), &want, &[3, 100]);
        let want = ordered(&w, union.iter().copied().filter(inside), false);
        check_listing(api, &format!("{base}{q}&sortOrder=asc"), &want, &[3]);
    }
    // Type filters, alone and in pairs, with a window.
    let types: BTreeSet<&str> = union.iter().map(|id| w.txs[id].type_name).collect();
    let types: Vec<&str> = types.into_iter().collect();
    assert!(types.len() >= 3, "{types:?}");
    for pick in [vec![types[0]], vec![types[1], types[2]]] {
        let want = ordered(
            &w,
            union
                .iter()
                .copied()
                .filter(|id| pick.contains(&w.txs[id].type_name)),
            true,
        );
        let q: String = pick.iter().map(|t| format!("&txTypes={t}")).collect();
        check_listing(api, &format!("{base}{q}"), &want, &[1, 100]);
        // The same as one comma-separated value.
        check_listing(
            api,
            &format!("{base}&txTypes={}", pick.join(",")),
            &want,
            &[100],
        );
        let want = ordered(
            &w,
            union
                .iter()
                .copied()
                .filter(|id| pick.contains(&w.txs[id].type_name) && w.txs[id].ts >= t1),
            true,
        );
        check_listing(api, &format!("{base}{q}&startTimestamp={t1}"), &want, &[3]);
    }
    eprintln!("{compared} history entries compared");
}

#[test]
fn the_chains_latest_txs_are_every_tx_in_block_order() {
    let w = world(2);
    let mut all: Vec<&MTx> = w.txs.values().collect();
    all.sort_by_key(|t| (t.height, t.position));
    let asc: Vec<String> = all.iter().map(|t| t.id.to_string()).collect();
    let desc: Vec<String> = asc.iter().rev().cloned().collect();
    check_listing(
        &w.api,
        &format!("{P}/transactions?sortOrder=desc"),
        &desc,
        &[7, 100],
    );
    check_listing(
        &w.api,
        &format!("{P}/transactions?sortOrder=asc"),
        &asc,
        &[100],
    );
    // Default: newest first, ten per page.
    let first = w.api.get(&format!("{P}/transactions")).json();
    let got: Vec<&str> = first["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["txHash"].as_str().unwrap())
        .collect();
    assert_eq!(
        got,
        desc[..10].iter().map(String::as_str).collect::<Vec<_>>()
    );
    // A type and a window.
    let mid = all[all.len() / 2].ts;
    let want: Vec<String> = all
        .iter()
        .rev()
        .filter(|t| t.type_name == "BaseTx" && t.ts < mid)
        .map(|t| t.id.to_string())
        .collect();
    assert!(!want.is_empty());
    check_listing(
        &w.api,
        &format!("{P}/transactions?txTypes=BaseTx&endTimestamp={mid}"),
        &want,
        &[3, 100],
    );
}

/// `listActivePrimaryNetworkStakingTransactions`: the staker txs (in blocks) whose staker is
/// not settled yet at the tip, among those the addresses take part in (every one without
/// addresses), by height then tx id, each as `getTxByHash` shows it.
#[test]
fn active_staking_txs_are_the_addresses_unsettled_staker_txs() {
    let w = world(3);
    let api = &w.api;
    let current: BTreeSet<Id> = w
        .model
        .stakers
        .values()
        .filter(|s| s.settled.is_none() && w.txs.contains_key(&s.tx_id))
        .map(|s| s.tx_id)
        .collect();
    let settled = w
        .model
        .stakers
        .values()
        .filter(|s| s.settled.is_some() && w.txs.contains_key(&s.tx_id))
        .count();
    assert!(
        current.len() >= 5 && settled >= 5,
        "{} current, {settled} settled",
        current.len()
    );
    let base = format!("{P}/transactions:listStaking");
    // Without addresses: every current staker tx.
    check_listing(
        api,
        &format!("{base}?sortOrder=desc"),
        &ordered(&w, current.iter().copied(), true),
        &[1, 3, 100],
    );
    check_listing(
        api,
        &format!("{base}?sortOrder=asc"),
        &ordered(&w, current.iter().copied(), false),
        &[3, 100],
    );
    // Each address with a current staker tx, alone, then several together.
    let stakers_of =
        |a: &ShortId| -> BTreeSet<Id> { w.history[a].intersection(&current).copied().collect() };
    let with: Vec<ShortId> = w
        .history
        .keys()
        .filter(|a| !stakers_of(a).is_empty())
        .copied()
        .collect();
    assert!(with.len() >= 3, "{} addresses stake", with.len());
    for a in &with {
        let q = format!("{base}?addresses={}", local_addr("P", a));
        check_listing(api, &q, &ordered(&w, stakers_of(a), true), &[2, 100]);
    }
    let some: Vec<ShortId> = with.iter().take(3).copied().collect();
    let union: BTreeSet<Id> = some.iter().flat_map(stakers_of).collect();
    let q = format!("{base}?addresses={}", local_addrs("P", &some).join(","));
    check_listing(
        api,
        &q,
        &ordered(&w, union.iter().copied(), true),
        &[1, 100],
    );
    check_listing(
        api,
        &format!("{q}&sortOrder=asc"),
        &ordered(&w, union.iter().copied(), false),
        &[2],
    );
    // An address without a current staker tx has none.
    if let Some(quiet) = w.history.keys().find(|a| stakers_of(a).is_empty()) {
        check_listing(
            api,
            &format!("{base}?addresses={}", local_addr("P", quiet)),
            &[],
            &[10],
        );
    }
    // Addresses that staked before and stake again (settled staker txs besides current ones)
    // list only the current ones, in both orders; those whose staker txs were all settled and
    // those never in a staker tx list none.
    let staker_txs: BTreeSet<Id> = w
        .model
        .stakers
        .values()
        .filter(|s| w.txs.contains_key(&s.tx_id))
        .map(|s| s.tx_id)
        .collect();
    let settled_of = |a: &ShortId| {
        w.history[a]
            .intersection(&staker_txs)
            .filter(|id| !current.contains(id))
            .count()
    };
    let again: Vec<ShortId> = with.iter().filter(|a| settled_of(a) > 0).copied().collect();
    assert!(
        !again.is_empty(),
        "no address stakes again after a settled staker"
    );
    for a in &again {
        let q = format!("{base}?addresses={}", local_addr("P", a));
        check_listing(api, &q, &ordered(&w, stakers_of(a), true), &[1, 100]);
        let q = format!("{q}&sortOrder=asc");
        check_listing(api, &q, &ordered(&w, stakers_of(a), false), &[2]);
    }
    let done = w
        .history
        .keys()
        .filter(|a| stakers_of(a).is_empty() && settled_of(a) > 0);
    let never: Vec<&ShortId> = w
        .history
        .keys()
        .filter(|a| w.history[a].is_disjoint(&staker_txs))
        .collect();
    assert!(!never.is_empty(), "every address takes part in a staker tx");
    for a in done.take(5).chain(never.into_iter().take(5)) {
        let q = format!("{base}?addresses={}", local_addr("P", a));
        check_listing(api, &q, &[], &[3]);
        check_listing(api, &format!("{q}&sortOrder=asc"), &[], &[3]);
    }
    // Types and a window.
    let delegations: BTreeSet<Id> = current
        .iter()
        .copied()
        .filter(|id| w.txs[id].type_name == "AddPermissionlessDelegatorTx")
        .collect();
    assert!(!delegations.is_empty());
    check_listing(
        api,
        &format!("{base}?txTypes=AddPermissionlessDelegatorTx"),
        &ordered(&w, delegations.iter().copied(), true),
        &[3],
    );
    let times: Vec<u64> = current
        .iter()
        .map(|id| w.txs[id].ts)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mid = times[times.len() / 2];
    check_listing(
        api,
        &format!("{base}?startTimestamp={mid}"),
        &ordered(
            &w,
            current.iter().copied().filter(|id| w.txs[id].ts >= mid),
            true,
        ),
        &[3],
    );
    // Each record is the tx's record by hash.
    let first = api.get(&format!("{base}?pageSize=100")).json();
    for t in first["transactions"].as_array().unwrap() {
        let by_hash = api
            .get(&format!(
                "{P}/transactions/{}",
                t["txHash"].as_str().unwrap()
            ))
            .json();
        assert_eq!(*t, by_hash);
    }
    // Bad input.
    for (path, param) in [
        (
            "/v1/networks/local/blockchains/x-chain/transactions:listStaking?pageSize=1".to_owned(),
            "blockchainId",
        ),
        (format!("{base}?txTypes=CreateAssetTx"), "txTypes"),
        (format!("{base}?pageSize=101"), "pageSize"),
        (
            format!("{base}?addresses=P-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"),
            "addresses",
        ),
        (format!("{base}?pageToken=abc"), "pageToken"),
    ] {
        let m = api.get(&path).error(400, "Bad Request");
        assert!(m.contains(param), "{path}: {m}");
    }
    // A token of the chain's listing is refused here.
    let latest = api.get(&format!("{P}/transactions?pageSize=1")).json();
    let token = latest["nextPageToken"].as_str().unwrap();
    api.get(&format!("{base}?pageSize=1&pageToken={token}"))
        .error(400, "Bad Request");
}

/// `l1ValidatorDetails` of each L1 tx: the validators it registers or changes (a conversion's
/// by `sha256(subnet ‖ u32 index)`, a registration's by the hash of its `RegisterL1Validator`
/// message, the others by the validation id they name; avalanchego `vms/platformvm/txs`), each
/// with its node, L1, weight and balance left after the tx's block as the replay has them, and
/// the balance the tx gave (negative: the balance a removal or disable returned).
#[test]
fn l1_txs_carry_their_validators_after_the_block() {
    use snowline_types::warp::l1::{
        L1Message, conversion_validation_id, registration_validation_id,
    };
    use snowline_types::warp::message::Message as WarpMessage;
    use snowline_types::warp::payload::Payload;
    let w = world(2);
    let m = &w.model;
    let payload = |signed: &[u8]| -> Vec<u8> {
        let msg = WarpMessage::parse(signed).unwrap();
        match Payload::parse(&msg.unsigned.payload).unwrap() {
            Payload::AddressedCall(c) => c.payload,
            Payload::Hash(_) => panic!("an L1 tx carries an AddressedCall"),
        }
    };
    let mut seen = BTreeMap::<&str, usize>::new();
    for t in w.txs.values() {
        let returned = || -> i128 {
            -m.utxos
                .values()
                .filter(|u| {
                    u.created.tx == t.id && u.utxo_id.output_index as usize >= t.tx.outputs().len()
                })
                .map(|u| i128::from(u.amount()))
                .sum::<i128>()
        };
        let changes: Vec<(Id, Option<i128>)> = match &t.tx {
            UnsignedTx::ConvertSubnetToL1Tx(c) => c
                .validators
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    (
                        conversion_validation_id(&c.subnet_id, i as u32),
                        Some(i128::from(v.balance)),
                    )
                })
                .collect(),
            UnsignedTx::RegisterL1ValidatorTx(r) => {
                vec![(
                    registration_validation_id(&payload(&r.message)),
                    Some(i128::from(r.balance)),
                )]
            }
            UnsignedTx::SetL1ValidatorWeightTx(s) => {
                let L1Message::L1ValidatorWeight(wt) =
                    L1Message::parse(&payload(&s.message)).unwrap()
                else {
                    panic!("a weight message")
                };
                let r = returned();
                vec![(wt.validation_id, (r != 0).then_some(r))]
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(i) => {
                vec![(i.validation_id, Some(i128::from(i.balance)))]
            }
            UnsignedTx::DisableL1ValidatorTx(d) => vec![(d.validation_id, Some(returned()))],
            _ => {
                let v = w.api.get(&format!("{P}/transactions/{}", t.id)).json();
                assert!(v.get("l1ValidatorDetails").is_none(), "{}: {v}", t.id);
                continue;
            }
        };
        *seen.entry(t.type_name).or_default() += 1;
        let block = m.blocks.iter().find(|b| b.height == t.height).unwrap();
        let after = &m.l1_after[&t.height];
        let want: Vec<Value> = changes
            .iter()
            .map(|(vid, change)| {
                let v = &after[vid];
                let mut r = serde_json::json!({
                    "validationId": vid.to_string(),
                    "validationIdHex": format!("0x{}", vid.0.iter().map(|b| format!("{b:02x}")).collect::<String>()),
                    "nodeId": snowline_types::NodeId(ShortId(v.node.clone().try_into().unwrap())).to_string(),
                    "subnetId": v.subnet.to_string(),
                    "weight": v.weight,
                    "remainingBalance": v.remaining(block.accrued),
                });
                if let Some(c) = change {
                    r["balanceChange"] = serde_json::json!(c);
                }
                r
            })
            .collect();
        let got = w.api.get(&format!("{P}/transactions/{}", t.id)).json();
        assert_eq!(
            got["l1ValidatorDetails"],
            Value::Array(want),
            "{} ({})",
            t.id,
            t.type_name
        );
    }
    eprintln!("L1 txs: {seen:?}");
    assert!(seen.len() >= 4, "the devnet covers the L1 txs: {seen:?}");
}

/// The L1 validations a tx names, read off its bytes as avalanchego defines them
/// (`vms/platformvm/txs`): a conversion's validators by `sha256(subnet ‖ u32 index)`, a
/// registration's by the hash of its `RegisterL1Validator` message's payload, the validation
/// id of a weight change's `L1ValidatorWeight` message, of a top-up and of a disable.
fn named_validations(tx: &UnsignedTx) -> Vec<Id> {
    use snowline_types::warp::l1::{
        L1Message, conversion_validation_id, registration_validation_id,
    };
    use snowline_types::warp::message::Message as WarpMessage;
    use snowline_types::warp::payload::Payload;
    let payload = |signed: &[u8]| -> Vec<u8> {
        let msg = WarpMessage::parse(signed).unwrap();
        match Payload::parse(&msg.unsigned.payload).unwrap() {
            Payload::AddressedCall(c) => c.payload,
            Payload::Hash(_) => panic!("an L1 tx carries an AddressedCall"),
        }
    };
    match tx {
        UnsignedTx::ConvertSubnetToL1Tx(c) => (0..c.validators.len())
            .map(|i| conversion_validation_id(&c.subnet_id, i as u32))
            .collect(),
        UnsignedTx::RegisterL1ValidatorTx(r) => {
            vec![registration_validation_id(&payload(&r.message))]
        }
        UnsignedTx::SetL1ValidatorWeightTx(s) => match L1Message::parse(&payload(&s.message)) {
            Ok(L1Message::L1ValidatorWeight(wt)) => vec![wt.validation_id],
            other => panic!("a weight message: {other:?}"),
        },
        UnsignedTx::IncreaseL1ValidatorBalanceTx(i) => vec![i.validation_id],
        UnsignedTx::DisableL1ValidatorTx(d) => vec![d.validation_id],
        _ => Vec::new(),
    }
}

/// `l1ValidationId`: the txs that name the validation (its creation, weight changes, top-ups,
/// disable), by height then tx id in both orders, each once across pages; with a type filter,
/// a window, and addresses (the txs of the validation those addresses take part in).
#[test]
fn an_l1_validations_txs_are_the_txs_naming_it() {
    let w = world(2);
    let api = &w.api;
    let mut by_validation: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
    for t in w.txs.values() {
        for vid in named_validations(&t.tx) {
            by_validation.entry(vid).or_default().insert(t.id);
        }
    }
    let busiest = by_validation.values().map(BTreeSet::len).max().unwrap_or(0);
    eprintln!(
        "{} L1 validations, the busiest with {busiest} txs",
        by_validation.len()
    );
    assert!(
        by_validation.len() >= 2 && busiest >= 2,
        "{by_validation:?}"
    );
    for (vid, txs) in &by_validation {
        let base = format!("{P}/transactions?l1ValidationId={vid}");
        let sizes: &[usize] = if txs.len() == busiest {
            &[1, 2, 100]
        } else {
            &[100]
        };
        check_listing(api, &base, &ordered(&w, txs.iter().copied(), true), sizes);
        check_listing(
            api,
            &format!("{base}&sortOrder=asc"),
            &ordered(&w, txs.iter().copied(), false),
            sizes,
        );
        // Each type the validation's txs have, alone.
        let types: BTreeSet<&str> = txs.iter().map(|id| w.txs[id].type_name).collect();
        for ty in types {
            let want = txs.iter().copied().filter(|id| w.txs[id].type_name == ty);
            check_listing(
                api,
                &format!("{base}&txTypes={ty}"),
                &ordered(&w, want, true),
                &[1, 100],
            );
        }
        // From its second tx's time on.
        let times: BTreeSet<u64> = txs.iter().map(|id| w.txs[id].ts).collect();
        if let Some(t) = times.iter().nth(1) {
            let want = txs.iter().copied().filter(|id| w.txs[id].ts >= *t);
            check_listing(
                api,
                &format!("{base}&startTimestamp={t}"),
                &ordered(&w, want, true),
                &[1, 100],
            );
        }
        // With an address taking part in one of its txs, and with one taking part in none.
        let first = txs.iter().next().unwrap();
        let (addr, history) = w
            .history
            .iter()
            .find(|(_, h)| h.contains(first))
            .expect("some address takes part in each L1 tx (its fee inputs)");
        let want = txs.iter().copied().filter(|id| history.contains(id));
        check_listing(
            api,
            &format!("{base}&addresses={}", local_addr("P", addr)),
            &ordered(&w, want, true),
            &[1, 100],
        );
        if let Some((other, _)) = w.history.iter().find(|(_, h)| h.is_disjoint(txs)) {
            check_listing(
                api,
                &format!("{base}&addresses={}", local_addr("P", other)),
                &[],
                &[100],
            );
        }
    }
    // A validation no tx names lists nothing; the X-Chain has none.
    check_listing(
        api,
        &format!("{P}/transactions?l1ValidationId={}", Id([7; 32])),
        &[],
        &[10],
    );
    let m = api
        .get(&format!(
            "/v1/networks/local/blockchains/x-chain/transactions?l1ValidationId={}",
            by_validation.keys().next().unwrap()
        ))
        .error(400, "Bad Request");
    assert!(m.contains("l1ValidationId"), "{m}");
}

/// nAVAX of `avax` in `amounts`.
fn avax_sum<'a>(avax: &Id, amounts: impl IntoIterator<Item = (&'a Id, u64)>) -> u128 {
    amounts
        .into_iter()
        .filter(|(a, _)| *a == avax)
        .map(|(_, n)| u128::from(n))
        .sum()
}

/// `n` nAVAX as the AVAX decimal the supply shows.
fn avax_text(n: u128) -> String {
    let s = format!("{}.{:09}", n / 1_000_000_000, n % 1_000_000_000);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// `getAvaxSupply` against the devnet's containers read here: each tx's burn is what its
/// inputs spend less what it outputs, stakes, exports and deposits as L1 balances (avalanchego
/// `vms/platformvm/utxo/verifier.go`, `vms/avm` and coreth's atomic txs: the flow check leaves
/// the difference burned), the L1 fees paid are the balances deposited less those refunded and
/// those left, the rewards minted are the committed stakers' potential rewards, the stake is
/// the unsettled stakers', and the locked AVAX the unspent stakeable-locked outputs.
#[test]
fn avax_supply_is_the_replays_figures() {
    use snowline_types::coreth;
    let w = world(2);
    let m = &w.model;
    let net = snowline_types::network::NetworkInfo::LOCAL;
    let avax = net.avax_asset_id;
    // P-Chain txs.
    let mut p_burned = 0u128;
    let mut deposits = 0u128;
    for t in w.txs.values() {
        let Some(base) = t.tx.base() else { continue };
        let mut spent = avax_sum(
            &avax,
            base.inputs.iter().map(|i| (&i.asset_id, i.input.amount())),
        );
        let mut kept = avax_sum(
            &avax,
            base.outputs
                .iter()
                .map(|o| (&o.asset_id, o.output.amount())),
        ) + avax_sum(
            &avax,
            t.tx.stake()
                .iter()
                .map(|o| (&o.asset_id, o.output.amount())),
        );
        let deposit: u128 = match &t.tx {
            UnsignedTx::ImportTx(i) => {
                spent += avax_sum(
                    &avax,
                    i.imported_inputs
                        .iter()
                        .map(|i| (&i.asset_id, i.input.amount())),
                );
                0
            }
            UnsignedTx::ExportTx(e) => {
                kept += avax_sum(
                    &avax,
                    e.exported_outputs
                        .iter()
                        .map(|o| (&o.asset_id, o.output.amount())),
                );
                0
            }
            UnsignedTx::ConvertSubnetToL1Tx(c) => {
                c.validators.iter().map(|v| u128::from(v.balance)).sum()
            }
            UnsignedTx::RegisterL1ValidatorTx(r) => u128::from(r.balance),
            UnsignedTx::IncreaseL1ValidatorBalanceTx(r) => u128::from(r.balance),
            _ => 0,
        };
        deposits += deposit;
        p_burned += spent - kept - deposit;
    }
    // L1 balances refunded: outputs past a tx's own, of the txs that remove a validator.
    let refunded: u128 = m
        .utxos
        .values()
        .filter(|u| u.kind == Kind::Output && u.asset == avax)
        .filter(|u| {
            w.txs.get(&u.created.tx).is_some_and(|t| {
                matches!(
                    t.type_name,
                    "DisableL1ValidatorTx" | "SetL1ValidatorWeightTx"
                ) && u.utxo_id.output_index as usize >= t.tx.outputs().len()
            })
        })
        .map(|u| u128::from(u.amount()))
        .sum();
    let left: u128 =
        m.l1.values()
            .map(|v| u128::from(v.remaining(m.accrued)))
            .sum();
    let l1_fees = deposits - refunded - left;
    assert!(l1_fees > 0, "the devnet's L1 validators pay fees");
    // X-Chain txs, each once (a vertex's or block's).
    let mut seen = BTreeSet::new();
    let mut x_burned = 0u128;
    for r in w
        ._up
        .records
        .iter()
        .filter(|r| matches!(r.path, IndexPath::XVtx | IndexPath::XBlock))
    {
        for t in common::pmodel::x_container_txs(r).unwrap_or_default() {
            if !seen.insert(t.id) {
                continue;
            }
            use snowline_types::avm::UnsignedTx as X;
            let base = t.tx.unsigned.base();
            let mut spent = avax_sum(
                &avax,
                base.inputs.iter().map(|i| (&i.asset_id, i.input.amount())),
            );
            let mut kept = avax_sum(
                &avax,
                base.outputs
                    .iter()
                    .map(|o| (&o.asset_id, o.output.amount())),
            );
            match &t.tx.unsigned {
                X::Import(i) => {
                    spent += avax_sum(
                        &avax,
                        i.imported_inputs
                            .iter()
                            .map(|i| (&i.asset_id, i.input.amount())),
                    )
                }
                X::Export(e) => {
                    kept += avax_sum(
                        &avax,
                        e.exported_outputs
                            .iter()
                            .map(|o| (&o.asset_id, o.output.amount())),
                    )
                }
                _ => {}
            }
            x_burned += spent - kept;
        }
    }
    assert!(
        seen.len() > 10 && x_burned > 0,
        "{} X txs, {x_burned} burned",
        seen.len()
    );
    // C-Chain atomic txs.
    let mut c_burned = 0u128;
    let mut c_txs = 0;
    for r in w._up.records.iter().filter(|r| r.path == IndexPath::CBlock) {
        for t in coreth::AtomicBlock::from_container_any_network(&r.bytes)
            .unwrap()
            .txs
        {
            c_txs += 1;
            c_burned += match &t.tx.unsigned {
                coreth::UnsignedTx::Import(i) => {
                    let spent: u128 = i
                        .imported_inputs
                        .iter()
                        .filter(|x| x.asset_id == avax)
                        .map(|x| {
                            let coreth::TransferableIn::Secp256k1(s) = &x.input;
                            u128::from(s.amount)
                        })
                        .sum();
                    spent
                        - i.outs
                            .iter()
                            .filter(|o| o.asset_id == avax)
                            .map(|o| u128::from(o.amount))
                            .sum::<u128>()
                }
                coreth::UnsignedTx::Export(e) => {
                    let kept: u128 = e
                        .exported_outputs
                        .iter()
                        .filter(|x| x.asset_id == avax)
                        .map(|x| {
                            let coreth::TransferableOut::Secp256k1(s) = &x.output;
                            u128::from(s.amount)
                        })
                        .sum();
                    e.ins
                        .iter()
                        .filter(|i| i.asset_id == avax)
                        .map(|i| u128::from(i.amount))
                        .sum::<u128>()
                        - kept
                }
            };
        }
    }
    assert!(
        c_txs > 0 && c_burned > 0,
        "{c_txs} C atomic txs, {c_burned} burned"
    );
    // Stakers and locks.
    let rewards: u128 = m
        .stakers
        .values()
        .filter(|s| s.settled.is_some_and(|(_, commit)| commit))
        .map(|s| u128::from(s.potential_reward))
        .sum();
    let staked: u128 = m
        .stakers
        .values()
        .filter(|s| s.settled.is_none())
        .map(|s| u128::from(s.weight))
        .sum();
    let locked: u128 = m
        .utxos
        .values()
        .filter(|u| {
            u.consumed.is_none()
                && u.kind != Kind::Stake
                && u.kind != Kind::Exported
                && u.asset == avax
        })
        .filter(|u| u.out.stakeable_locktime() > m.chain_time)
        .map(|u| u128::from(u.amount()))
        .sum();
    assert!(
        rewards > 0 && staked > 0 && locked > 0,
        "{rewards} {staked} {locked}"
    );
    let burned = p_burned + l1_fees + x_burned + c_burned;
    let total = u128::from(m.initial_supply) + rewards - burned;
    let days = m.chain_time / 86_400;
    let (y, mo, d) = snowline_types::time::civil_from_days(days as i64);
    let t = m.chain_time % 86_400;
    let r = w.api.get("/v1/avax/supply");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json(),
        serde_json::json!({
            "circulatingSupply": avax_text(total - locked),
            "totalSupply": avax_text(total),
            "totalPBurned": avax_text(p_burned + l1_fees),
            "totalCBurned": avax_text(c_burned),
            "totalXBurned": avax_text(x_burned),
            "totalStaked": avax_text(staked),
            "totalLocked": avax_text(locked),
            "totalRewards": avax_text(rewards),
            "lastUpdated": format!("{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.000Z", t / 3600, t % 3600 / 60, t % 60),
            "genesisUnlock": avax_text(u128::from(m.initial_supply)),
            "l1ValidatorFees": avax_text(l1_fees),
        })
    );
    eprintln!("supply: {}", r.body);
}

#[test]
fn bad_tx_listing_input_is_a_400() {
    let w = world(2);
    let api = &w.api;
    let addr = local_addr("P", w.history.keys().next().unwrap());
    for (query, param) in [
        ("txTypes=CreateAssetTx".to_owned(), "txTypes"),
        ("txTypes=Nonsense".to_owned(), "txTypes"),
        ("pageSize=101".to_owned(), "pageSize"),
        ("pageSize=0".to_owned(), "pageSize"),
        ("sortOrder=up".to_owned(), "sortOrder"),
        ("l1ValidationId=zz".to_owned(), "l1ValidationId"),
        ("startTimestamp=9&endTimestamp=3".to_owned(), "Timestamp"),
        (
            "addresses=P-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq".to_owned(),
            "addresses",
        ),
        (format!("addresses={addr}&pageToken=abc"), "pageToken"),
    ] {
        let path = format!("{P}/transactions?{query}");
        let m = api.get(&path).error(400, "Bad Request");
        assert!(m.contains(param), "{path}: {m}");
    }
    // A token of one address's history is refused for another's.
    let other = local_addr("P", w.history.keys().nth(1).unwrap());
    let first = api
        .get(&format!("{P}/transactions?addresses={addr}&pageSize=1"))
        .json();
    let token = first["nextPageToken"].as_str().unwrap();
    api.get(&format!(
        "{P}/transactions?addresses={other}&pageSize=1&pageToken={token}"
    ))
    .error(400, "Bad Request");
}

#[test]
fn blocks_by_id_and_latest_equal_the_replay() {
    let w = world(2);
    let api = &w.api;
    for b in &w.model.blocks {
        let v = api.get(&format!("{P}/blocks/{}", b.id)).json();
        assert_eq!(v["blockNumber"], b.height.to_string().as_str());
        assert_eq!(v["blockHash"], b.id.to_string().as_str());
        assert_eq!(v["parentHash"], b.parent.to_string().as_str());
        assert_eq!(v["blockTimestamp"], b.ts);
        assert_eq!(v["blockType"], b.type_name);
        assert_eq!(v["blockSizeBytes"], b.size);
        assert_eq!(v["currentSupply"], b.supply.to_string().as_str());
        let txs: Vec<String> = b.tx_ids.iter().map(Id::to_string).collect();
        assert_eq!(v["transactions"], serde_json::json!(txs));
        assert_eq!(v["txCount"], txs.len());
        assert!(!has_null(&v));
    }
    api.get(&format!("{P}/blocks/{}", Id([3; 32])))
        .error(404, "Not Found");
    api.get(&format!("{P}/blocks/notanid"))
        .error(400, "Bad Request");
    // Latest: newest first, in a window or not, every page size.
    let block_pages = |path: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let p = match &token {
                Some(t) => format!("{path}&pageToken={t}"),
                None => path.to_owned(),
            };
            let v = api.get(&p).json();
            out.extend(
                v["blocks"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{p}: {v}"))
                    .iter()
                    .map(|b| b["blockHash"].as_str().unwrap().to_owned()),
            );
            match v.get("nextPageToken").and_then(Value::as_str) {
                Some(t) => token = Some(t.to_owned()),
                None => return out,
            }
        }
    };
    let blocks = &w.model.blocks;
    let (t1, t2) = (blocks[blocks.len() / 4].ts, blocks[blocks.len() * 3 / 4].ts);
    for (start, end) in [
        (None, None),
        (Some(t1), None),
        (None, Some(t2)),
        (Some(t1), Some(t2)),
    ] {
        let want: Vec<String> = blocks
            .iter()
            .rev()
            .filter(|b| start.is_none_or(|s| b.ts >= s) && end.is_none_or(|e| b.ts < e))
            .map(|b| b.id.to_string())
            .collect();
        let mut q = String::new();
        if let Some(s) = start {
            q.push_str(&format!("&startTimestamp={s}"));
        }
        if let Some(e) = end {
            q.push_str(&format!("&endTimestamp={e}"));
        }
        for size in [1, 7, 100] {
            let got = block_pages(&format!("{P}/blocks?pageSize={size}{q}"));
            assert_eq!(got, want, "window {start:?}..{end:?}, pages of {size}");
        }
    }
}

#[test]
fn last_activity_is_the_newest_tx_moving_a_utxo_of_the_addresses() {
    let w = world(3);
    let m = &w.model;
    // The UTXOs each tx consumed and emitted, as the replay has them.
    let mut moved: BTreeMap<Id, (BTreeSet<Id>, BTreeSet<Id>)> = BTreeMap::new();
    for u in m.utxos.values() {
        if w.txs.contains_key(&u.created.tx) {
            moved.entry(u.created.tx).or_default().1.insert(u.id);
        }
        if let (Some(c), false) = (u.consumed, u.kind == Kind::Exported) {
            moved.entry(c.tx).or_default().0.insert(u.id);
        }
    }
    for u in m.x_to_p.values() {
        if let Some(c) = u.consumed {
            moved.entry(c.tx).or_default().0.insert(u.id);
        }
    }
    let owner_of = |id: &Id| -> Vec<ShortId> {
        m.utxos
            .get(id)
            .or_else(|| m.x_to_p.get(id))
            .map(|u| u.owners().addrs.clone())
            .unwrap_or_default()
    };
    let sets: Vec<Vec<ShortId>> = w
        .history
        .keys()
        .map(|a| vec![*a])
        .chain(std::iter::once(w.history.keys().take(3).copied().collect()))
        .collect();
    let mut checked = 0;
    for set in sets {
        let mine = |id: &Id| owner_of(id).iter().any(|a| set.contains(a));
        let mut txs: Vec<(u64, Id)> = w.txs.values().map(|t| (t.height, t.id)).collect();
        txs.sort();
        let want = txs.iter().rev().find_map(|(_, id)| {
            let (consumed, emitted) = moved.get(id)?;
            let c = consumed.iter().find(|u| mine(u));
            let e = emitted.iter().find(|u| mine(u));
            c.map(|u| (*id, *u, true)).or(e.map(|u| (*id, *u, false)))
        });
        let joined = local_addrs("P", &set).join(",");
        for (method, path) in [
            (
                "GET",
                format!("{P}/lastActivityTimestampByAddresses?addresses={joined}"),
            ),
            ("POST", format!("{P}/lastActivityTimestampByAddresses")),
        ] {
            let r = if method == "GET" {
                w.api.get(&path)
            } else {
                let body = serde_json::json!({ "addresses": joined }).to_string();
                common::request(&w.api.addr, "POST", &path, &[], &body)
            };
            match want {
                None => assert_eq!(r.status, 404, "{path}: {}", r.body),
                Some((tx, utxo, consumed)) => {
                    assert_eq!(r.status, 200, "{path}: {}", r.body);
                    let v = r.json();
                    let t = &w.txs[&tx];
                    assert_eq!(v["txHash"], tx.to_string().as_str(), "{method} {joined}");
                    assert_eq!(v["blockNumber"], t.height.to_string().as_str());
                    assert_eq!(v["timestamp"], t.ts);
                    assert_eq!(v["utxoId"], utxo.to_string().as_str());
                    assert_eq!(v["isConsumed"], consumed);
                    assert_eq!(v["chainName"], "p-chain");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 20, "{checked} answers checked");
    w.api
        .get(&format!("{P}/lastActivityTimestampByAddresses"))
        .error(400, "Bad Request");
    let r = common::request(
        &w.api.addr,
        "POST",
        &format!("{P}/lastActivityTimestampByAddresses"),
        &[],
        "{\"addrs\":1}",
    );
    assert_eq!(r.status, 400, "{}", r.body);
}
