//! The P-Chain endpoints end to end: a devnet served as a node would serve it, `data-api`
//! following it, and for every devnet address and every node id the UTXOs, balances (now and
//! at past times), rewards paid and pending, blocks by proposer, L1 validators and created
//! blockchains equal what an independent replay of the devnet's P-Chain computes
//! (`common::pmodel`, which restates avalanchego's rules and never calls `snowline_chain_p`);
//! reward amounts equal the reward calculator's for each stake; every listing visits every item
//! exactly once in every order and page size; bad input is a 400 in the spec's error shape.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use common::pmodel::{Kind, MBlock, MStaker, MUtxo, PModel, split};
use common::{DataApi, follow, local_addr, local_addrs, now_secs, upstream};
use serde_json::{Value, json};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_types::address::format_address;
use snowline_types::container::ContainerRecord;
use snowline_types::formatting::{decode_hex_checksum, encode_hex_plain};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::Utxo;
use snowline_types::platformvm::reward::Config as RewardConfig;
use snowline_types::{Id, NodeId, ShortId};

const NET: &str = "/v1/networks/local";
const P: &str = "/v1/networks/local/blockchains/p-chain";

/// A devnet served, followed, and replayed by the model.
struct World {
    _up: upstream::Upstream,
    api: DataApi,
    model: PModel,
    keys: Vec<ShortId>,
    _dir: tempfile::TempDir,
}

fn world(seed: u64, txs: u64) -> World {
    let up = upstream::start(seed, txs);
    // The same devnet again, generated here: the model reads its own bytes.
    let (mut devnet, _) = upstream::devnet(seed, txs);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    world_of(seed, up, &devnet, &records)
}

/// A devnet of `seed` with the small preset's genesis (the one `data-api --genesis devnet`
/// applies: its stakeable locks depend on the P-Chain's span only) and `density` times its P
/// blocks over the same span, of `p_txs` txs each, served by an upstream.
fn denser_world(seed: u64, density: u32, p_txs: u32) -> World {
    let small = DevnetConfig::small();
    let cfg = DevnetConfig {
        p_blocks: small.p_blocks * density,
        p_block_interval_s: small.p_block_interval_s / i64::from(density),
        p_txs_per_block: p_txs,
        ..small
    }
    .with_seed(seed);
    let mut devnet = Devnet::generate(cfg).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let small = Devnet::generate(DevnetConfig::small().with_seed(seed)).unwrap();
    assert_eq!(
        devnet.p_genesis_bytes(),
        small.p_genesis_bytes(),
        "the P genesis data-api applies"
    );
    assert_eq!(
        devnet.x_genesis().atomic_utxos,
        small.x_genesis().atomic_utxos
    );
    // An upstream of this seed's small devnet serving none of its containers, given these.
    let up = upstream::start_partial(seed, 0, 0);
    upstream::append(&up.store, &records);
    world_of(seed, up, &devnet, &records)
}

fn world_of(
    seed: u64,
    up: upstream::Upstream,
    devnet: &Devnet,
    records: &[ContainerRecord],
) -> World {
    let t = Instant::now();
    let txs = records.len();
    let model = PModel::replay(devnet, records);
    assert_eq!(
        model.supply,
        devnet.p_current_supply(),
        "the generator's supply"
    );
    let keys = devnet.keys().addrs().to_vec();
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    // Caught up: the P-Chain's last block is indexed.
    let last = model.blocks.last().unwrap();
    let node = last
        .proposer
        .and_then(|p| p.node_id)
        .or_else(|| model.blocks.iter().rev().find_map(|b| b.proposer?.node_id))
        .unwrap();
    assert!(
        api.wait_until(120, |a| {
            let v = a.get(&format!("{P}/nodes/{node}/blocks?pageSize=1")).json();
            let l1 = a.get(&format!("{NET}/l1Validators?pageSize=1")).json();
            v["blocks"].as_array().is_some_and(|b| !b.is_empty())
                && l1["blockHeight"] == last.height.to_string().as_str()
        }),
        "the P-Chain never caught up to height {}",
        last.height
    );
    eprintln!(
        "devnet seed {seed}, {txs} containers: {} P blocks, {} P UTXOs, {} stakers, {} L1 validators, \
         {} keys; kinds {:?}; ready in {:?}",
        model.blocks.len(),
        model.utxos.len(),
        model.stakers.len(),
        model.l1.len(),
        keys.len(),
        model.counts,
        t.elapsed()
    );
    World {
        _up: up,
        api,
        model,
        keys,
        _dir: dir,
    }
}

/// Every page of `path`: the items under `key` and the size of each page.
fn pages(api: &DataApi, path: &str, key: &str) -> (Vec<Value>, Vec<usize>) {
    common::paged(api, path, key)
}

fn avax_amount(m: &PModel, amount: u64) -> Value {
    json!({
        "assetId": m.net().avax_asset_id.to_string(),
        "name": "Avalanche",
        "symbol": "AVAX",
        "denomination": 9,
        "type": "secp256k1",
        "amount": amount.to_string(),
    })
}

// ---------------------------------------------------------------------------------------------
// What the model expects each record to be.

/// The `PChainUtxo` of `u` (without `utxoBytes`, checked apart), `now` deciding `staked`.
fn utxo_record(m: &PModel, u: &MUtxo, now: u64) -> Value {
    let owners = u.owners();
    let mut v = json!({
        "addresses": local_addrs("P", &owners.addrs),
        "asset": avax_amount(m, u.amount()),
        "consumedOnChainId": u.consumed_on.to_string(),
        "createdOnChainId": m.net().p_chain_id.to_string(),
        "utxoId": u.id.to_string(),
        "amount": u.amount().to_string(),
        "assetId": u.asset.to_string(),
        "blockNumber": u.created.height.to_string(),
        "blockTimestamp": u.created.ts,
        "platformLocktime": owners.locktime,
        "outputIndex": u.utxo_id.output_index,
        "staked": u.staked_at(now),
        "threshold": owners.threshold,
        // The UTXO's own tx id: for stakes and rewards, the staker tx.
        "txHash": u.utxo_id.tx_id.to_string(),
        "utxoType": if u.kind == Kind::Stake { "STAKE" } else { "TRANSFER" },
    });
    assert_eq!(u.asset, m.net().avax_asset_id);
    let o = v.as_object_mut().unwrap();
    if let Some(c) = u.consumed {
        o.insert("consumingTxHash".into(), json!(c.tx.to_string()));
        o.insert("consumingBlockNumber".into(), json!(c.height.to_string()));
        o.insert("consumingBlockTimestamp".into(), json!(c.ts));
    }
    if let Kind::Reward(k) = u.kind {
        o.insert("rewardType".into(), json!(k.name()));
    }
    let stakeable = u.out.stakeable_locktime();
    if stakeable > 0 {
        o.insert("stakeableLocktime".into(), json!(stakeable));
    }
    if let Some(s) = u.staker {
        let s = &m.stakers[&s];
        o.insert("utxoStartTimestamp".into(), json!(s.start));
        o.insert("utxoEndTimestamp".into(), json!(s.end));
    }
    v
}

/// The `HistoricalReward` of the reward UTXO `u`.
fn historical_record(m: &PModel, u: &MUtxo) -> Value {
    let Kind::Reward(kind) = u.kind else {
        panic!("not a reward")
    };
    let s = &m.stakers[&u.staker.unwrap()];
    json!({
        "addresses": local_addrs("P", &u.owners().addrs),
        "txHash": s.tx_id.to_string(),
        "amountStaked": s.weight.to_string(),
        "nodeId": s.node.to_string(),
        "startTimestamp": s.start,
        "endTimestamp": s.end,
        "rewardType": kind.name(),
        "utxoId": u.id.to_string(),
        "outputIndex": u.utxo_id.output_index,
        "reward": avax_amount(m, u.amount()),
        "rewardTxHash": u.created.tx.to_string(),
    })
}

/// The `PendingReward` of `s` (without `progress`, compared apart).
fn pending_record(m: &PModel, s: &MStaker) -> Value {
    json!({
        "addresses": local_addrs("P", &s.reward_owner.addrs),
        "txHash": s.tx_id.to_string(),
        "amountStaked": s.weight.to_string(),
        "nodeId": s.node.to_string(),
        "startTimestamp": s.start,
        "endTimestamp": s.end,
        "rewardType": if s.validator { "VALIDATOR" } else { "DELEGATOR" },
        "estimatedReward": avax_amount(m, s.potential_reward),
    })
}

/// Percent of the staking period elapsed at `now`.
fn progress(s: &MStaker, now: u64) -> f64 {
    let done = now.clamp(s.start, s.end) - s.start;
    done as f64 * 100.0 / (s.end - s.start) as f64
}

fn block_record(b: &MBlock) -> Value {
    let p = b.proposer.unwrap();
    let mut details = json!({
        "proposerId": p.id.to_string(),
        "proposerParentId": p.parent_id.to_string(),
    });
    let d = details.as_object_mut().unwrap();
    if let Some(n) = p.node_id {
        d.insert("proposerNodeId".into(), json!(n.to_string()));
    }
    if let Some(h) = p.p_chain_height {
        d.insert("proposerPChainHeight".into(), json!(h));
    }
    if let Some(t) = p.timestamp {
        d.insert("proposerTimestamp".into(), json!(t));
    }
    json!({
        "blockNumber": b.height.to_string(),
        "blockHash": b.id.to_string(),
        "parentHash": b.parent.to_string(),
        "blockTimestamp": b.ts,
        "blockType": b.type_name,
        "txCount": b.tx_ids.len(),
        "transactions": b.tx_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "blockSizeBytes": b.size,
        "l1ValidatorsAccruedFees": b.accrued,
        "activeL1Validators": b.active,
        "currentSupply": b.supply.to_string(),
        "proposerDetails": details,
    })
}

fn node_string(bytes: &[u8]) -> String {
    NodeId(ShortId(
        <[u8; 20]>::try_from(bytes).expect("20-byte node id"),
    ))
    .to_string()
}

fn l1_record(m: &PModel, vid: &Id) -> Value {
    let v = &m.l1[vid];
    let owner = |o: &snowline_types::warp::PChainOwner| json!({"addresses": local_addrs("P", &o.addresses), "threshold": o.threshold});
    json!({
        "validationId": vid.to_string(),
        "validationIdHex": encode_hex_plain(&vid.0),
        "nodeId": node_string(&v.node),
        "subnetId": v.subnet.to_string(),
        "weight": v.weight,
        "remainingBalance": v.remaining(m.accrued),
        "creationTimestamp": v.created.ts,
        "blsCredentials": {
            "publicKey": encode_hex_plain(&v.public_key),
            "proofOfPossession": encode_hex_plain(&v.pop),
        },
        "remainingBalanceOwner": owner(&v.remaining_balance_owner),
        "deactivationOwner": owner(&v.deactivation_owner),
    })
}

// ---------------------------------------------------------------------------------------------
// Comparisons.

/// The UTXO listings of `addrs`, spent included or not, equal the model's, record by record.
/// Returns how many UTXOs were compared.
fn check_utxos(w: &World, addrs: &[ShortId]) -> usize {
    let m = &w.model;
    let set: BTreeSet<ShortId> = addrs.iter().copied().collect();
    let joined = local_addrs("P", addrs).join(",");
    let p_id = m.net().p_chain_id.to_string();
    let mut compared = 0;
    for spent in [false, true] {
        let path =
            format!("{P}/utxos?addresses={joined}&includeSpent={spent}&pageSize=100&sortOrder=asc");
        let now = now_secs();
        let (items, _) = pages(&w.api, &path, "utxos");
        let mut got: BTreeMap<String, Value> = BTreeMap::new();
        let mut got_x = BTreeSet::new();
        for mut u in items {
            let id = u["utxoId"].as_str().unwrap().to_owned();
            if u["createdOnChainId"] != p_id.as_str() {
                // Exported to P by the X-Chain: one the model saw X export to P, of the same
                // amount and owners, consumed as P's imports show.
                let x = m
                    .x_to_p
                    .get(&id.parse::<Id>().unwrap())
                    .unwrap_or_else(|| panic!("{path}: {id} is no UTXO of P nor X's export: {u}"));
                assert_eq!(u["amount"], x.amount().to_string().as_str(), "{u}");
                assert_eq!(
                    u["addresses"],
                    json!(local_addrs("P", &x.owners().addrs)),
                    "{u}"
                );
                assert_eq!(
                    u["consumingTxHash"].as_str(),
                    x.consumed.map(|c| c.tx.to_string()).as_deref(),
                    "{u}"
                );
                assert!(spent || x.consumed.is_none(), "{u}");
                assert!(got_x.insert(x.id), "{path}: {id} listed twice");
                continue;
            }
            // The bytes are the UTXO the record describes.
            let bytes = decode_hex_checksum(u["utxoBytes"].as_str().unwrap()).unwrap();
            let parsed = Utxo::parse(&bytes).unwrap();
            let mu = m
                .utxos
                .get(&parsed.utxo_id.id())
                .unwrap_or_else(|| panic!("{path}: {id} is no UTXO of the model: {u}"));
            assert_eq!(parsed.utxo_id, mu.utxo_id);
            assert_eq!(parsed.asset_id, mu.asset);
            assert_eq!(
                parsed.output, mu.out,
                "{id}: bytes; model {mu:?}; served {u}"
            );
            u.as_object_mut().unwrap().remove("utxoBytes");
            assert!(got.insert(id, u).is_none(), "{path}: a UTXO listed twice");
        }
        let want: BTreeMap<String, Value> = m
            .listed(&set, spent)
            .into_iter()
            .map(|u| (u.id.to_string(), utxo_record(m, u, now)))
            .collect();
        let (g, e): (BTreeSet<_>, BTreeSet<_>) = (got.keys().collect(), want.keys().collect());
        assert_eq!(
            g,
            e,
            "{path}: listed {:?}, model has {:?}",
            g.difference(&e).collect::<Vec<_>>(),
            e.difference(&g).collect::<Vec<_>>()
        );
        for (id, v) in &want {
            assert_eq!(&got[id], v, "{path}: UTXO {id}");
        }
        let want_x: BTreeSet<Id> = m
            .x_to_p
            .values()
            .filter(|u| u.owned_by(&set) && (spent || u.consumed.is_none()))
            .map(|u| u.id)
            .collect();
        assert_eq!(got_x, want_x, "{path}: X's exports to P");
        compared += want.len() + want_x.len();
    }
    compared
}

/// `(amount, utxoCount)` of each plain bucket of a `PChainBalance`.
fn plain_buckets(m: &PModel, b: &Value) -> BTreeMap<&'static str, (u128, u64)> {
    let mut out = BTreeMap::new();
    for bucket in [
        "unlockedUnstaked",
        "unlockedStaked",
        "lockedPlatform",
        "lockedStakeable",
        "lockedStaked",
        "pendingStaked",
    ] {
        let entries = b[bucket].as_array().unwrap();
        assert!(entries.len() <= 1, "{bucket}: AVAX only: {b}");
        for e in entries {
            assert_eq!(e["assetId"], m.net().avax_asset_id.to_string().as_str());
            let amount: u128 = e["amount"].as_str().unwrap().parse().unwrap();
            let count = e["utxoCount"].as_u64().unwrap();
            assert!(amount > 0 && count > 0, "{bucket}: empty entry: {b}");
            out.insert(bucket, (amount, count));
        }
    }
    out
}

/// The balances of `addrs` now and at each of `times` equal the model's.
fn check_balances(w: &World, addrs: &[ShortId], times: &[u64]) {
    let m = &w.model;
    let set: BTreeSet<ShortId> = addrs.iter().copied().collect();
    let joined = local_addrs("P", addrs).join(",");
    let x = m.net().x_chain_id.to_string();
    let mut queries: Vec<(String, Option<u64>)> =
        vec![(format!("{P}/balances?addresses={joined}"), None)];
    for t in times {
        queries.push((
            format!("{P}/balances?addresses={joined}&blockTimestamp={t}"),
            Some(*t),
        ));
    }
    for (q, at) in queries {
        let t = at.unwrap_or_else(now_secs);
        let r = w.api.get(&q);
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        let v = r.json();
        assert_eq!(
            v["chainInfo"],
            json!({"chainName": "p-chain", "network": "local"})
        );
        let b = &v["balances"];
        let want = m.balances(&set, at, t);
        assert_eq!(plain_buckets(m, b), want.plain, "{q}");
        // Atomic memory shared with X and C: P's exports until X or C imports them, their
        // exports to P until P imports them, each at the time its import was accepted on the
        // other chain.
        let mut atomic = BTreeMap::new();
        for bucket in ["atomicMemoryUnlocked", "atomicMemoryLocked"] {
            for e in b[bucket].as_array().unwrap() {
                let chain: Id = e["sharedWithChainId"].as_str().unwrap().parse().unwrap();
                assert!(
                    chain.to_string() == x || chain == m.net().c_chain_id,
                    "{q}: {e}"
                );
                assert_eq!(e["assetId"], m.net().avax_asset_id.to_string().as_str());
                let amount: u128 = e["amount"].as_str().unwrap().parse().unwrap();
                let count = e["utxoCount"].as_u64().unwrap();
                let status = match e["status"].as_str().unwrap() {
                    "exported" => "exported",
                    "importable" => "importable",
                    other => panic!("{q}: status {other}"),
                };
                assert!(amount > 0 && count > 0, "{q}: empty entry {e}");
                assert!(
                    atomic
                        .insert((bucket, status, chain), (amount, count))
                        .is_none()
                );
            }
        }
        assert_eq!(atomic, want.atomic, "{q}");
    }
}

/// The historical rewards of `query` equal `want` (newest first), record by record.
fn check_historical(w: &World, query: &str, want: &[&MUtxo]) {
    let m = &w.model;
    let mut want: Vec<&MUtxo> = want.to_vec();
    want.sort_by_key(|u| std::cmp::Reverse((u.created.ts, u.id)));
    let path = format!("{NET}/rewards?{query}&pageSize=100");
    let (got, _) = pages(&w.api, &path, "historicalRewards");
    let want: Vec<Value> = want.iter().map(|u| historical_record(m, u)).collect();
    assert_eq!(got, want, "{path}");
}

/// The pending rewards of `query` equal `want` (latest start first), record by record.
fn check_pending(w: &World, query: &str, want: &[&MStaker]) {
    let m = &w.model;
    let mut want: Vec<&MStaker> = want.to_vec();
    want.sort_by_key(|s| std::cmp::Reverse((s.start, s.tx_id)));
    let path = format!("{NET}/rewards:listPending?{query}&pageSize=100");
    let (got, _) = pages(&w.api, &path, "pendingRewards");
    assert_eq!(got.len(), want.len(), "{path}: {got:?}");
    for (g, s) in got.iter().zip(&want) {
        let mut g = g.clone();
        let p = g.as_object_mut().unwrap().remove("progress").unwrap();
        let p = p.as_f64().unwrap();
        assert!((0.0..=100.0).contains(&p), "{path}: progress {p}");
        // At the chain's time: the last block's.
        let expect = progress(s, m.chain_time);
        assert!(
            (p - expect).abs() < 1e-6,
            "{path}: progress {p}, model {expect}"
        );
        assert_eq!(g, pending_record(m, s), "{path}");
    }
}

/// Rewards paid and pending, by every address, every node, and both, equal the model's.
/// Returns (reward UTXOs compared, pending stakers compared).
fn check_rewards(w: &World, addrs: &[ShortId]) -> (usize, usize) {
    let m = &w.model;
    let rewards: Vec<&MUtxo> = m.rewards().map(|(u, _)| u).collect();
    let pending: Vec<&MStaker> = m.pending().collect();
    let mut seen_rewards = BTreeSet::new();
    let mut seen_pending = BTreeSet::new();
    let node_of = |u: &MUtxo| m.stakers[&u.staker.unwrap()].node;
    for a in addrs {
        let q = format!("addresses={}", local_addr("P", a));
        let r: Vec<&MUtxo> = rewards
            .iter()
            .copied()
            .filter(|u| u.owners().addrs.contains(a))
            .collect();
        seen_rewards.extend(r.iter().map(|u| u.id));
        check_historical(w, &q, &r);
        let p: Vec<&MStaker> = pending
            .iter()
            .copied()
            .filter(|s| s.reward_owner.addrs.contains(a))
            .collect();
        seen_pending.extend(p.iter().map(|s| s.tx_id));
        check_pending(w, &q, &p);
    }
    let nodes = m.nodes();
    for n in &nodes {
        let q = format!("nodeIds={n}");
        let r: Vec<&MUtxo> = rewards
            .iter()
            .copied()
            .filter(|u| node_of(u) == *n)
            .collect();
        seen_rewards.extend(r.iter().map(|u| u.id));
        check_historical(w, &q, &r);
        let p: Vec<&MStaker> = pending.iter().copied().filter(|s| s.node == *n).collect();
        seen_pending.extend(p.iter().map(|s| s.tx_id));
        check_pending(w, &q, &p);
        // Both filters: a reward must match both. One address it pays, and one it does not.
        for a in r
            .iter()
            .flat_map(|u| u.owners().addrs.first())
            .take(1)
            .chain(addrs.first())
        {
            let q = format!("addresses={}&nodeIds={n}", local_addr("P", a));
            let both: Vec<&MUtxo> = r
                .iter()
                .copied()
                .filter(|u| u.owners().addrs.contains(a))
                .collect();
            check_historical(w, &q, &both);
            let both: Vec<&MStaker> = p
                .iter()
                .copied()
                .filter(|s| s.reward_owner.addrs.contains(a))
                .collect();
            check_pending(w, &q, &both);
        }
    }
    // Several nodes and several addresses at once.
    let some_nodes: Vec<String> = nodes.iter().take(4).map(ToString::to_string).collect();
    let node_set: BTreeSet<NodeId> = nodes.iter().take(4).copied().collect();
    let q = format!("nodeIds={}", some_nodes.join(","));
    let r: Vec<&MUtxo> = rewards
        .iter()
        .copied()
        .filter(|u| node_set.contains(&node_of(u)))
        .collect();
    check_historical(w, &q, &r);
    let some_addrs: BTreeSet<ShortId> = addrs.iter().take(6).copied().collect();
    let q = format!(
        "addresses={}",
        local_addrs("P", &some_addrs.iter().copied().collect::<Vec<_>>()).join(",")
    );
    let r: Vec<&MUtxo> = rewards
        .iter()
        .copied()
        .filter(|u| u.owned_by(&some_addrs))
        .collect();
    check_historical(w, &q, &r);
    (seen_rewards.len(), seen_pending.len())
}

/// Reward amounts are the calculator's: each staker's potential reward is the calculator's at
/// the supply when it was added; a validator is paid it, a delegator its share after the
/// validator's fee, and a validator its delegators' fees. Returns how many were checked.
fn check_reward_amounts(m: &PModel) -> usize {
    let cfg = RewardConfig::for_network(m.net().network_id);
    let mut checked = 0;
    let mut fees: BTreeMap<Id, u64> = BTreeMap::new();
    for s in m.stakers.values() {
        let want = cfg.calculate((s.end - s.start) * 1_000_000_000, s.weight, s.supply_at_add);
        assert_eq!(s.potential_reward, want, "{}", s.tx_id);
        assert!(want > 0);
        if let (false, Some((_, true))) = (s.validator, s.settled) {
            let v = &m.stakers[&s.validator_tx.unwrap()];
            let (fee, _) = split(want, v.shares);
            *fees.entry(v.tx_id).or_default() += fee;
        }
    }
    for (u, kind) in m.rewards() {
        let s = &m.stakers[&u.staker.unwrap()];
        let want = match kind {
            common::pmodel::RewardKind::Validator => s.potential_reward,
            common::pmodel::RewardKind::Delegator => {
                split(
                    s.potential_reward,
                    m.stakers[&s.validator_tx.unwrap()].shares,
                )
                .1
            }
            common::pmodel::RewardKind::ValidatorFee => fees[&s.tx_id],
        };
        assert_eq!(u.amount(), want, "reward {}", u.id);
        checked += 1;
    }
    checked
}

/// Blocks by proposer equal the model's blocks signed by each node, newest first. Returns how
/// many blocks were compared. `accrued_fees`: `l1ValidatorsAccruedFees` compared too (see
/// [`blocks_accrue_l1_fees_while_no_l1_validator_is_active`]).
fn check_blocks(w: &World, accrued_fees: bool) -> usize {
    let m = &w.model;
    let mut by_node: BTreeMap<NodeId, Vec<&MBlock>> = BTreeMap::new();
    for b in &m.blocks {
        if let Some(n) = b.proposer.and_then(|p| p.node_id) {
            by_node.entry(n).or_default().push(b);
        }
    }
    assert!(by_node.len() >= 3, "several proposers: {}", by_node.len());
    let mut compared = 0;
    let nodes: BTreeSet<NodeId> = m
        .nodes()
        .into_iter()
        .chain(by_node.keys().copied())
        .collect();
    for n in &nodes {
        let mut want: Vec<&MBlock> = by_node.get(n).cloned().unwrap_or_default();
        want.sort_by_key(|b| std::cmp::Reverse((b.ts, b.height)));
        let path = format!("{P}/nodes/{n}/blocks?pageSize=100");
        let (mut got, _) = pages(&w.api, &path, "blocks");
        let mut want: Vec<Value> = want.into_iter().map(block_record).collect();
        if !accrued_fees {
            for b in got.iter_mut().chain(want.iter_mut()) {
                b.as_object_mut().unwrap().remove("l1ValidatorsAccruedFees");
            }
        }
        assert_eq!(got, want, "{path}");
        compared += got.len();
        // A time range keeps the blocks in it (start inclusive, end exclusive).
        if let Some(mid) = by_node.get(n).and_then(|b| b.get(b.len() / 2)) {
            let (s, e) = (mid.ts, mid.ts + 7_200);
            let path =
                format!("{P}/nodes/{n}/blocks?pageSize=100&startTimestamp={s}&endTimestamp={e}");
            let (mut got, _) = pages(&w.api, &path, "blocks");
            if !accrued_fees {
                for b in &mut got {
                    b.as_object_mut().unwrap().remove("l1ValidatorsAccruedFees");
                }
            }
            let expect: Vec<&Value> = want
                .iter()
                .filter(|b| (s..e).contains(&b["blockTimestamp"].as_u64().unwrap()))
                .collect();
            assert!(!expect.is_empty());
            assert_eq!(got.iter().collect::<Vec<_>>(), expect, "{path}");
        }
    }
    // Every signed block is some node's.
    let signed = m
        .blocks
        .iter()
        .filter(|b| b.proposer.is_some_and(|p| p.node_id.is_some()))
        .count();
    let listed: usize = by_node.values().map(Vec::len).sum();
    assert_eq!(listed, signed);
    compared
}

/// L1 validators, every filter, equal the model's at the last height. Returns how many
/// validators were compared.
fn check_l1(w: &World) -> usize {
    let m = &w.model;
    assert!(!m.l1.is_empty(), "the devnet has L1 validators");
    assert!(
        m.l1.values().any(|v| v.active()) && m.l1.values().any(|v| !v.active()),
        "active and inactive L1 validators"
    );
    let height = m.height().to_string();
    let check = |query: &str, filter: &dyn Fn(&Id) -> bool| {
        let path = format!("{NET}/l1Validators?pageSize=100{query}");
        let r = w.api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.json()["blockHeight"], height.as_str(), "{path}");
        let (got, _) = pages(&w.api, &path, "validators");
        let want: Vec<Value> =
            m.l1.keys()
                .filter(|id| filter(id))
                .map(|id| l1_record(m, id))
                .collect();
        assert_eq!(got, want, "{path}");
        got.len()
    };
    let all = check("&includeInactiveL1Validators=true", &|_| true);
    assert_eq!(all, m.l1.len());
    check("", &|id| m.l1[id].active());
    check("&includeInactiveL1Validators=false", &|id| {
        m.l1[id].active()
    });
    let subnets: BTreeSet<Id> = m.l1.values().map(|v| v.subnet).collect();
    for s in &subnets {
        check(
            &format!("&subnetId={s}&includeInactiveL1Validators=true"),
            &|id| m.l1[id].subnet == *s,
        );
        check(&format!("&subnetId={s}"), &|id| {
            m.l1[id].subnet == *s && m.l1[id].active()
        });
    }
    // A subnet with no L1 validators.
    check(&format!("&subnetId={}", Id([7; 32])), &|_| false);
    for (vid, v) in &m.l1 {
        check(
            &format!("&l1ValidationId={vid}&includeInactiveL1Validators=true"),
            &|id| id == vid,
        );
        check(&format!("&l1ValidationId={vid}"), &|id| {
            id == vid && v.active()
        });
        let node = node_string(&v.node);
        check(
            &format!("&nodeId={node}&includeInactiveL1Validators=true"),
            &|id| m.l1[id].node == v.node,
        );
        check(&format!("&nodeId={node}&subnetId={}", v.subnet), &|id| {
            m.l1[id].node == v.node && m.l1[id].active()
        });
    }
    all
}

/// Every blockchain the P-Chain created is served with its creation and genesis.
fn check_blockchains(w: &World) -> usize {
    let m = &w.model;
    assert!(m.chains.len() >= 3, "genesis chains and CreateChainTxs");
    for (id, c) in &m.chains {
        let path = format!("{NET}/blockchains/{id}");
        let r = w.api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let mut got = r.json();
        let genesis = got.as_object_mut().unwrap().remove("genesisData");
        let json_genesis = serde_json::from_slice::<Value>(&c.genesis)
            .ok()
            .filter(Value::is_object);
        let mut want = json!({
            "createBlockTimestamp": c.created.ts,
            "createBlockNumber": c.created.height.to_string(),
            "blockchainId": id.to_string(),
            "vmId": c.vm.to_string(),
            "subnetId": c.subnet.to_string(),
            "blockchainName": c.name,
        });
        match &json_genesis {
            // An EVM genesis: the object, and the EVM chain id of its config.
            Some(g) => {
                assert_eq!(genesis.as_ref(), Some(g), "{path}");
                if let Some(chain_id) = g.pointer("/config/chainId") {
                    want["evmChainId"] = chain_id.clone();
                }
            }
            // Any other: the bytes, encoded (the API hex encoding).
            None => {
                let s = genesis
                    .as_ref()
                    .and_then(Value::as_str)
                    .expect("genesis string");
                assert_eq!(decode_hex_checksum(s).unwrap(), c.genesis, "{path}");
            }
        }
        assert_eq!(got, want, "{path}");
    }
    m.chains.len()
}

/// Balance times: before genesis, genesis, block times through the history (and just after
/// them), the end.
fn balance_times(m: &PModel, n: usize) -> Vec<u64> {
    let mut t = vec![m.genesis_ts - 1, m.genesis_ts];
    let step = (m.blocks.len() / n).max(1);
    for b in m.blocks.iter().step_by(step) {
        t.push(b.ts);
        t.push(b.ts + 1);
    }
    t.push(m.chain_time);
    t.push(m.chain_time + 86_400 * 365);
    t
}

/// Everything compared, for the addresses `addrs` (each alone, and in groups).
fn compare_everything(w: &World, addrs: &[ShortId]) {
    let t = Instant::now();
    let m = &w.model;
    assert!(m.rewards().count() >= 3, "the model found rewards");
    assert!(
        m.rewards()
            .any(|(_, k)| k == common::pmodel::RewardKind::Delegator),
        "delegator rewards"
    );
    assert!(m.pending().count() >= 2, "the model found pending stakers");
    assert!(m.stakers.values().any(|s| !s.validator));
    assert!(
        m.stakers
            .values()
            .any(|s| matches!(s.settled, Some((_, false)))),
        "an aborted reward"
    );
    // Every bucket the devnet can fill is filled at some time for some address.
    let times = balance_times(m, 6);
    let mut filled = BTreeSet::new();
    for t in &times {
        let all: BTreeSet<ShortId> = addrs.iter().copied().collect();
        let b = m.balances(&all, Some(*t), *t);
        filled.extend(b.plain.keys().copied());
        filled.extend(b.atomic.keys().map(|(bucket, _, _)| *bucket));
    }
    for bucket in [
        "unlockedUnstaked",
        "unlockedStaked",
        "lockedStakeable",
        "lockedStaked",
        "atomicMemoryUnlocked",
    ] {
        assert!(
            filled.contains(bucket),
            "no {bucket} in the model: {filled:?}"
        );
    }
    // X imported some of P's exports, so "exported" differs from "every P export".
    assert!(
        m.utxos
            .values()
            .any(|u| u.kind == Kind::Exported && m.x_imported.contains_key(&u.id)),
        "X imports P exports"
    );
    // Blocks first: each one's supply is what every reward derives from.
    let blocks = check_blocks(w, false);
    let mut utxos = 0;
    for a in addrs {
        utxos += check_utxos(w, std::slice::from_ref(a));
        check_balances(w, std::slice::from_ref(a), &times);
    }
    for group in addrs.chunks(7) {
        check_utxos(w, group);
        check_balances(w, group, &times);
    }
    let amounts = check_reward_amounts(m);
    let (rewards, pending) = check_rewards(w, addrs);
    assert_eq!(rewards, m.rewards().count(), "every reward compared");
    assert_eq!(
        pending,
        m.pending().count(),
        "every pending staker compared"
    );
    let l1 = check_l1(w);
    let chains = check_blockchains(w);
    let stakes = m.utxos.values().filter(|u| u.kind == Kind::Stake).count();
    eprintln!(
        "compared: {} addresses, {utxos} UTXO records ({stakes} stakes in the model), {rewards} \
         rewards ({amounts} amounts against the calculator; {} reward UTXOs and {} returned \
         stakes later spent by the devnet as the model predicted), {pending} pending stakers, \
         {blocks} blocks of {} nodes, {l1} L1 validators, {chains} blockchains, in {:?}",
        addrs.len(),
        m.rewards_spent_in_blocks,
        m.stakes_spent_in_blocks,
        m.nodes().len(),
        t.elapsed()
    );
    assert!(utxos > 100, "only {utxos} UTXOs compared");
}

#[test]
fn small_devnet_serves_what_the_replay_computes() {
    let w = world(2, 0);
    let keys = w.keys.clone();
    assert!(keys.len() >= 20);
    compare_everything(&w, &keys);
}

/// avalanchego's `advanceValidatorFeeState` adds `CostOf(seconds)` to the accrued fees whenever
/// the chain time advances, whether or not an L1 validator is active (the price is the minimum,
/// 1 nAVAX/s here, at any count under the target), so `GetAccruedFees` at a block is the
/// seconds since the genesis time, also before the first L1 validator (a regression: the index
/// skipped the accrual while none was active, which balances, being differences of two accrued
/// values, did not show).
#[test]
fn blocks_accrue_l1_fees_while_no_l1_validator_is_active() {
    let w = world(2, 0);
    assert!(
        w.model
            .blocks
            .iter()
            .any(|b| b.active == 0 && b.accrued > 0),
        "the devnet has blocks before any L1 validator"
    );
    check_blocks(&w, true);
}

// ---------------------------------------------------------------------------------------------
// Paging.

/// Pages of `base` (a path with a query) in sizes 1, 2, 3 and 7 visit exactly the items `want`
/// (ids, in order), each once, every page full but the last. Returns the token of the first
/// page of size 1, when there is one.
fn check_paging(
    api: &DataApi,
    base: &str,
    key: &str,
    want: &[String],
    id_of: &dyn Fn(&Value) -> Option<String>,
) -> Option<String> {
    for size in [1usize, 2, 3, 7] {
        let path = format!("{base}&pageSize={size}");
        let (items, sizes) = pages(api, &path, key);
        let ids: Vec<String> = items.iter().filter_map(id_of).collect();
        assert_eq!(ids, want, "{path}: every item once, in order");
        let (last, full) = sizes.split_last().unwrap();
        assert!(full.iter().all(|n| *n == size), "{path}: pages {sizes:?}");
        assert!(
            *last <= size && (*last > 0 || items.is_empty()),
            "{path}: {sizes:?}"
        );
        assert_eq!(sizes.len(), items.len().div_ceil(size).max(1), "{path}");
    }
    let first = api.get(&format!("{base}&pageSize=1")).json();
    first["nextPageToken"].as_str().map(str::to_owned)
}

/// A token used with other filters is a 400.
fn foreign_token(api: &DataApi, paths: &[String], token: &str) {
    for p in paths {
        let sep = if p.contains('?') { '&' } else { '?' };
        let path = format!("{p}{sep}pageSize=1&pageToken={token}");
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(!msg.is_empty(), "{path}");
    }
}

#[test]
fn pages_visit_every_item_once_in_every_order() {
    let w = world(3, 0);
    let m = &w.model;
    let api = &w.api;
    let p_id = m.net().p_chain_id.to_string();
    // UTXOs of six addresses, both sorts, both orders, spent included or not.
    let addrs: BTreeSet<ShortId> = w.keys.iter().take(6).copied().collect();
    let joined = local_addrs("P", &addrs.iter().copied().collect::<Vec<_>>()).join(",");
    let utxo_id = |v: &Value| {
        (v["createdOnChainId"] == p_id.as_str()).then(|| v["utxoId"].as_str().unwrap().to_owned())
    };
    let mut token = None;
    for spent in [false, true] {
        let listed = m.listed(&addrs, spent);
        assert!(listed.len() >= 20, "{} UTXOs", listed.len());
        for sort_by in ["timestamp", "amount"] {
            for order in ["asc", "desc"] {
                let mut want = listed.clone();
                want.sort_by_key(|u| {
                    let k = if sort_by == "timestamp" {
                        u.created.ts
                    } else {
                        u.amount()
                    };
                    (k, u.id)
                });
                if order == "desc" {
                    want.reverse();
                }
                let want: Vec<String> = want.iter().map(|u| u.id.to_string()).collect();
                let base = format!(
                    "{P}/utxos?addresses={joined}&includeSpent={spent}&sortBy={sort_by}&sortOrder={order}"
                );
                token = check_paging(api, &base, "utxos", &want, &utxo_id);
            }
        }
    }
    // The last token (spent included, by amount, descending) with other filters.
    let token = token.unwrap();
    let a0 = local_addr("P", &w.keys[0]);
    foreign_token(
        api,
        &[
            format!("{P}/utxos?addresses={joined}&includeSpent=true&sortBy=amount&sortOrder=asc"),
            format!("{P}/utxos?addresses={joined}&includeSpent=false&sortBy=amount&sortOrder=desc"),
            format!(
                "{P}/utxos?addresses={joined}&includeSpent=true&sortBy=timestamp&sortOrder=desc"
            ),
            format!("{P}/utxos?addresses={a0}&includeSpent=true&sortBy=amount&sortOrder=desc"),
            format!(
                "{P}/utxos?addresses={joined}&includeSpent=true&sortBy=amount&sortOrder=desc&minUtxoAmount=5"
            ),
            format!("{NET}/rewards?addresses={joined}"),
            format!("{NET}/l1Validators"),
        ],
        &token,
    );

    // Rewards paid and pending, by every address and by every node, both orders.
    let all_keys = local_addrs("P", &w.keys).join(",");
    let nodes: Vec<String> = m.nodes().iter().map(ToString::to_string).collect();
    let all_nodes = nodes.join(",");
    let rewards: Vec<&MUtxo> = m.rewards().map(|(u, _)| u).collect();
    assert!(rewards.len() >= 3);
    let pending: Vec<&MStaker> = m.pending().collect();
    assert!(pending.len() >= 8);
    let by_id = |key: &'static str| move |v: &Value| Some(v[key].as_str().unwrap().to_owned());
    for order in ["asc", "desc"] {
        let mut r = rewards.clone();
        r.sort_by_key(|u| (u.created.ts, u.id));
        let mut p = pending.clone();
        p.sort_by_key(|s| (s.start, s.tx_id));
        if order == "desc" {
            r.reverse();
            p.reverse();
        }
        let r: Vec<String> = r.iter().map(|u| u.id.to_string()).collect();
        let p: Vec<String> = p.iter().map(|s| s.tx_id.to_string()).collect();
        for filter in [
            format!("addresses={all_keys}"),
            format!("nodeIds={all_nodes}"),
        ] {
            let base = format!("{NET}/rewards?{filter}&sortOrder={order}");
            let t = check_paging(api, &base, "historicalRewards", &r, &by_id("utxoId")).unwrap();
            foreign_token(
                api,
                &[
                    format!(
                        "{NET}/rewards?{filter}&sortOrder={}",
                        if order == "asc" { "desc" } else { "asc" }
                    ),
                    format!("{NET}/rewards?addresses={a0}&sortOrder={order}"),
                    format!("{NET}/rewards:listPending?{filter}&sortOrder={order}"),
                ],
                &t,
            );
            let base = format!("{NET}/rewards:listPending?{filter}&sortOrder={order}");
            let t = check_paging(api, &base, "pendingRewards", &p, &by_id("txHash")).unwrap();
            foreign_token(
                api,
                &[
                    format!(
                        "{NET}/rewards:listPending?nodeIds={}&sortOrder={order}",
                        nodes[0]
                    ),
                    format!("{NET}/rewards?{filter}&sortOrder={order}"),
                ],
                &t,
            );
        }
    }
    // The default order is newest first.
    let mut r = rewards.clone();
    r.sort_by_key(|u| std::cmp::Reverse((u.created.ts, u.id)));
    let r: Vec<String> = r.iter().map(|u| u.id.to_string()).collect();
    let base = format!("{NET}/rewards?nodeIds={all_nodes}");
    check_paging(api, &base, "historicalRewards", &r, &by_id("utxoId"));

    // Blocks of the node that proposed the most, newest first.
    let mut by_node: BTreeMap<NodeId, Vec<&MBlock>> = BTreeMap::new();
    for b in &m.blocks {
        if let Some(n) = b.proposer.and_then(|p| p.node_id) {
            by_node.entry(n).or_default().push(b);
        }
    }
    let (node, blocks) = by_node.iter().max_by_key(|(_, b)| b.len()).unwrap();
    assert!(blocks.len() >= 5);
    let mut want = blocks.clone();
    want.sort_by_key(|b| std::cmp::Reverse((b.ts, b.height)));
    let want: Vec<String> = want.iter().map(|b| b.height.to_string()).collect();
    let base = format!("{P}/nodes/{node}/blocks?");
    let t = check_paging(api, &base, "blocks", &want, &by_id("blockNumber")).unwrap();
    let other = by_node.keys().find(|n| *n != node).unwrap();
    foreign_token(
        api,
        &[
            format!("{P}/nodes/{other}/blocks"),
            format!("{P}/nodes/{node}/blocks?startTimestamp=1"),
            format!("{P}/nodes/{node}/blocks?endTimestamp=4000000000"),
        ],
        &t,
    );

    // L1 validators, inactive included, by validation id.
    let want: Vec<String> = m.l1.keys().map(ToString::to_string).collect();
    assert!(want.len() >= 3);
    let base = format!("{NET}/l1Validators?includeInactiveL1Validators=true");
    let t = check_paging(api, &base, "validators", &want, &by_id("validationId")).unwrap();
    let subnet = m.l1.values().next().unwrap().subnet;
    foreign_token(
        api,
        &[
            format!("{NET}/l1Validators"),
            format!("{NET}/l1Validators?includeInactiveL1Validators=true&subnetId={subnet}"),
            format!("{P}/utxos?addresses={joined}"),
        ],
        &t,
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_input_is_a_400_in_the_spec_shape() {
    let w = world(4, 0);
    let api = &w.api;
    let a = local_addr("P", &w.keys[1]);
    let x = format_address("X", NetworkInfo::LOCAL.hrp, &w.keys[1]).unwrap();
    let node = w.model.nodes().into_iter().next().unwrap().to_string();
    let bad = [
        // Node ids not `NodeID-…`.
        format!("{P}/nodes/NodeXYZ/blocks"),
        format!("{P}/nodes/{}/blocks", node.trim_start_matches("NodeID-")),
        format!("{P}/nodes/NodeID-notbase58!/blocks"),
        format!("{NET}/rewards?nodeIds=node1"),
        format!("{NET}/rewards:listPending?nodeIds={node},bad"),
        format!("{NET}/l1Validators?nodeId=NodeID-"),
        // Neither addresses nor node ids.
        format!("{NET}/rewards"),
        format!("{NET}/rewards:listPending"),
        format!("{NET}/rewards?sortOrder=asc"),
        format!("{P}/utxos"),
        format!("{P}/balances"),
        // Ids not cb58.
        format!("{NET}/l1Validators?l1ValidationId=0xabc"),
        format!("{NET}/l1Validators?l1ValidationId=notanid"),
        format!("{NET}/l1Validators?subnetId=11111111111111111111111111111111LpoYX"),
        format!("{NET}/l1Validators?subnetId=zz"),
        // X- addresses on P endpoints.
        format!("{P}/utxos?addresses={x}"),
        format!("{P}/balances?addresses={x}"),
        format!("{P}/utxos?addresses={a},{x}"),
        format!("{NET}/rewards?addresses={x}"),
        format!("{NET}/rewards:listPending?addresses={x}"),
        // Bad sort orders.
        format!("{P}/utxos?addresses={a}&sortOrder=sideways"),
        format!("{P}/utxos?addresses={a}&sortBy=size"),
        format!("{NET}/rewards?addresses={a}&sortOrder=up"),
        format!("{NET}/rewards:listPending?addresses={a}&sortOrder=DESCENDING"),
        // Page sizes out of 1..=100.
        format!("{P}/utxos?addresses={a}&pageSize=0"),
        format!("{P}/utxos?addresses={a}&pageSize=101"),
        format!("{NET}/rewards?addresses={a}&pageSize=0"),
        format!("{NET}/rewards?addresses={a}&pageSize=101"),
        format!("{NET}/rewards:listPending?addresses={a}&pageSize=0"),
        format!("{NET}/rewards:listPending?addresses={a}&pageSize=101"),
        format!("{P}/nodes/{node}/blocks?pageSize=0"),
        format!("{P}/nodes/{node}/blocks?pageSize=101"),
        format!("{NET}/l1Validators?pageSize=0"),
        format!("{NET}/l1Validators?pageSize=101"),
        // Other malformed values.
        format!("{P}/balances?addresses={a}&blockTimestamp=yesterday"),
        format!("{P}/utxos?addresses={a}&includeSpent=maybe"),
        format!("{NET}/l1Validators?includeInactiveL1Validators=2"),
        format!("{P}/utxos?addresses={a}&pageToken=garbage"),
        format!("{NET}/rewards?addresses={a}&pageToken=garbage"),
    ];
    for path in &bad {
        let r = api.get(path);
        let msg = r.error(400, "Bad Request");
        assert!(!msg.is_empty(), "{path}");
    }
    // The same requests made well are answered.
    for path in [
        format!("{P}/nodes/{node}/blocks?pageSize=100"),
        format!("{NET}/rewards?nodeIds={node}&pageSize=1"),
        format!("{NET}/rewards:listPending?addresses={a}&sortOrder=asc&pageSize=100"),
        format!("{P}/utxos?addresses={a}&sortBy=amount&sortOrder=desc&pageSize=100"),
        format!("{P}/balances?addresses={a}&blockTimestamp=0"),
        format!("{NET}/l1Validators?includeInactiveL1Validators=true&pageSize=1"),
    ] {
        assert_eq!(api.get(&path).status, 200, "{path}");
    }
}

// ---------------------------------------------------------------------------------------------
// A larger devnet.

/// Eight times the small preset's P blocks (about 640, with some 4,700 P txs and 150 rewards
/// paid). Not a `DevnetConfig::large` preset: `data-api --genesis devnet` applies the small
/// preset's genesis of the seed, and a large preset's P genesis differs (more keys, another
/// supply, other locks), so following one indexes its blocks on the wrong genesis. The denser
/// small devnet keeps the small genesis (checked in `denser_world`).
#[test]
fn larger_devnet_serves_what_the_replay_computes() {
    let t = Instant::now();
    let w = denser_world(6, DENSITY, 16);
    let m = &w.model;
    assert!(
        m.counts.values().sum::<usize>() > 200,
        "the larger devnet has more P activity: {:?}",
        m.counts
    );
    // Every key the P-Chain paid, staked for or rewarded, and some it never did.
    let mut active: BTreeSet<ShortId> = BTreeSet::new();
    for u in m.utxos.values() {
        active.extend(u.owners().addrs.iter().copied());
    }
    for s in m.stakers.values() {
        active.extend(s.reward_owner.addrs.iter().copied());
    }
    let mut addrs: Vec<ShortId> = w
        .keys
        .iter()
        .filter(|a| active.contains(a))
        .copied()
        .collect();
    let quiet: Vec<ShortId> = w
        .keys
        .iter()
        .filter(|a| !active.contains(a))
        .take(5)
        .copied()
        .collect();
    eprintln!(
        "{} of {} keys active on P, {} quiet ones checked",
        addrs.len(),
        w.keys.len(),
        quiet.len()
    );
    addrs.extend(quiet);
    compare_everything(&w, &addrs);
    eprintln!("larger devnet in {:?}", t.elapsed());
}

/// The larger devnet has this many times the small preset's P blocks.
const DENSITY: u32 = 8;
