//! Validators, delegators, the network's staking totals and subnets end to end: a devnet served
//! as a node would serve it, `data-api` following it, and every validator and delegator with
//! its status at the tip, stake, times, reward addresses and rewards equal to what an
//! independent replay of the devnet's P-Chain computes (`common::pmodel`, which never calls
//! `snowline_chain_p`), in every filter, order and page size (1, 3, 100); bad input is a 400 in
//! the spec's error shape.
//!
//! An active validator's `uptimePerformance` and `validatorHealth.reachabilityPercent` are what
//! the upstream's `platform.getCurrentValidators` says (`uptime`, percent; `connected`), read
//! by the test from the upstream itself; an upstream that does not serve the method leaves
//! them out and the uptime filters refused.
//!
//! Rules restated for the model (avalanchego `vms/platformvm`): a staker is pending before its
//! start, active until its `RewardValidatorTx` (then completed); a delegator's fee part of its
//! potential reward is `reward.Split(potential, shares)`'s first part
//! (`reward/calculator.go`); a validator's delegation capacity is
//! `min(5 × stake, 3 M AVAX) − stake − delegated` (`txs/executor/staker_tx_verification.go`
//! `verifyAddPermissionlessDelegatorTx`, `genesis/genesis_local.go` `MaxValidatorStake`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::pmodel::{MStaker, PModel, split};
use common::{DataApi, follow, local_addrs, paged as pages, upstream};
use serde_json::{Value, json};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_types::address::format_address;
use snowline_types::container::ContainerRecord;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::network::NetworkInfo;
use snowline_types::{Id, NodeId, ShortId};

const NET: &str = "/v1/networks/local";
const AVAX: u64 = 1_000_000_000;

struct World {
    _up: upstream::Upstream,
    api: DataApi,
    model: PModel,
    keys: Vec<ShortId>,
    /// What the upstream's `platform.getCurrentValidators` says of each validation (by staker
    /// tx): its uptime and whether the node is connected; empty when it does not serve it.
    uptimes: BTreeMap<String, (String, bool)>,
    _dir: tempfile::TempDir,
}

/// The devnet of `seed` served, followed until the P-Chain's last block is indexed, and
/// replayed by the model.
fn world(seed: u64) -> World {
    let up = upstream::start(seed, 0);
    let (mut devnet, _) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    world_of(seed, up, &devnet, &records)
}

fn world_of(
    seed: u64,
    up: upstream::Upstream,
    devnet: &Devnet,
    records: &[ContainerRecord],
) -> World {
    let model = PModel::replay(devnet, records);
    let keys = devnet.keys().addrs().to_vec();
    let uptimes: BTreeMap<String, (String, bool)> = up
        .current_validators()
        .map(|r| {
            r["validators"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    let uptime = v["uptime"].as_str().unwrap().to_owned();
                    let tx = v["txID"].as_str().unwrap().to_owned();
                    (tx, (uptime, v["connected"].as_bool().unwrap()))
                })
                .collect()
        })
        .unwrap_or_default();
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    let last = model.height();
    assert!(
        api.wait_until(120, |a| {
            let l1 = a.get(&format!("{NET}/l1Validators?pageSize=1")).json();
            l1["blockHeight"] == last.to_string().as_str()
        }),
        "the P-Chain never caught up to height {last}"
    );
    if !uptimes.is_empty() {
        // The uptime filters are answered once the first poll's uptimes are stored.
        let probe = format!("{NET}/validators?minUptimePerformance=0&pageSize=1");
        assert!(
            api.wait_until(60, |a| a.get(&probe).status == 200),
            "the upstream's uptimes never arrived: {}",
            api.get(&probe).body
        );
    }
    World {
        _up: up,
        api,
        model,
        keys,
        uptimes,
        _dir: dir,
    }
}

/// `base` (with a query) in pages of 1, 3 and 100 gives exactly `want`, in order, every page
/// full but the last.
fn check_pages(api: &DataApi, base: &str, key: &str, want: &[Value]) {
    for size in [1usize, 3, 100] {
        let path = format!("{base}&pageSize={size}");
        let (items, sizes) = common::paged(api, &path, key);
        assert_eq!(items.len(), want.len(), "{path}: how many");
        for (got, want) in items.iter().zip(want) {
            assert_eq!(got, want, "{path}");
        }
        common::assert_full_pages(&path, &sizes, size);
    }
}

// ---------------------------------------------------------------------------------------------
// The model's answers.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Pending,
    Active,
    Completed,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Active => "active",
            Status::Completed => "completed",
        }
    }
}

fn status(s: &MStaker, now: u64) -> Status {
    match s.settled {
        Some(_) => Status::Completed,
        None if s.start > now => Status::Pending,
        None => Status::Active,
    }
}

fn delegators_of<'a>(m: &'a PModel, v: &MStaker) -> Vec<&'a MStaker> {
    m.stakers
        .values()
        .filter(|d| d.validator_tx == Some(v.tx_id))
        .collect()
}

/// The active stake of the primary network: active validators' and delegators' weights.
fn active_stake(m: &PModel) -> u64 {
    m.stakers
        .values()
        .filter(|s| status(s, m.chain_time) == Status::Active)
        .map(|s| s.weight)
        .sum()
}

fn fee_percent(shares: u32) -> String {
    format!("{}.{:04}", shares / 10_000, shares % 10_000)
}

/// The validator record of `v` at the model's tip (its `stakePercentage` apart).
fn validator_record(m: &PModel, v: &MStaker) -> Value {
    let now = m.chain_time;
    let st = status(v, now);
    let mut r = json!({
        "txHash": v.tx_id.to_string(),
        "nodeId": v.node.to_string(),
        "subnetId": Id::EMPTY.to_string(),
        "amountStaked": v.weight.to_string(),
        "delegationFee": fee_percent(v.shares),
        "startTimestamp": v.start,
        "endTimestamp": v.end,
        "validationStatus": st.name(),
    });
    let o = r.as_object_mut().unwrap();
    if let Some((pk, pop)) = v.signer {
        o.insert(
            "blsCredentials".into(),
            json!({"publicKey": encode_hex_plain(&pk), "proofOfPossession": encode_hex_plain(&pop)}),
        );
    }
    let ds = delegators_of(m, v);
    let fee = |d: &MStaker| split(d.potential_reward, v.shares).0;
    let addresses = local_addrs("P", &v.reward_owner.addrs);
    match st {
        Status::Pending => {}
        Status::Active => {
            let current: Vec<_> = ds.iter().filter(|d| d.settled.is_none()).collect();
            let delegated: u64 = current.iter().map(|d| d.weight).sum();
            let fees: u64 = ds
                .iter()
                .filter(|d| d.settled.is_none_or(|(_, commit)| commit))
                .map(|d| fee(d))
                .sum();
            let capacity = (5 * v.weight).min(3_000_000 * AVAX) - v.weight - delegated;
            o.insert("delegatorCount".into(), json!(current.len()));
            o.insert("amountDelegated".into(), json!(delegated.to_string()));
            o.insert("delegationCapacity".into(), json!(capacity.to_string()));
            o.insert(
                "potentialRewards".into(),
                json!({
                    "validationRewardAmount": v.potential_reward.to_string(),
                    "delegationRewardAmount": fees.to_string(),
                    "rewardAddresses": addresses,
                }),
            );
            o.insert("geolocation".into(), Value::Null);
        }
        Status::Completed => {
            let (ev, commit) = v.settled.unwrap();
            let delegated: u64 = ds.iter().map(|d| d.weight).sum();
            let fees: u64 = ds
                .iter()
                .filter(|d| d.settled.is_some_and(|(_, c)| c))
                .map(|d| fee(d))
                .sum();
            o.insert("delegatorCount".into(), json!(ds.len()));
            o.insert("amountDelegated".into(), json!(delegated.to_string()));
            o.insert(
                "rewards".into(),
                json!({
                    "validationRewardAmount": if commit { v.potential_reward } else { 0 }.to_string(),
                    "delegationRewardAmount": fees.to_string(),
                    "rewardAddresses": addresses,
                    "rewardTxHash": ev.tx.to_string(),
                }),
            );
        }
    }
    r
}

/// The delegator record of `d` at the model's tip.
fn delegator_record(m: &PModel, d: &MStaker) -> Value {
    let v = &m.stakers[&d.validator_tx.unwrap()];
    let st = status(d, m.chain_time);
    let (_, net) = split(d.potential_reward, v.shares);
    let mut r = json!({
        "txHash": d.tx_id.to_string(),
        "nodeId": d.node.to_string(),
        "rewardAddresses": local_addrs("P", &d.reward_owner.addrs),
        "amountDelegated": d.weight.to_string(),
        "delegationFee": fee_percent(v.shares),
        "startTimestamp": d.start,
        "endTimestamp": d.end,
        "delegationStatus": st.name(),
    });
    let o = r.as_object_mut().unwrap();
    match d.settled {
        None => {
            o.insert(
                "estimatedGrossReward".into(),
                json!(d.potential_reward.to_string()),
            );
            o.insert("estimatedNetReward".into(), json!(net.to_string()));
        }
        Some((_, commit)) => {
            let (g, n) = if commit {
                (d.potential_reward, net)
            } else {
                (0, 0)
            };
            o.insert("grossReward".into(), json!(g.to_string()));
            o.insert("netReward".into(), json!(n.to_string()));
        }
    }
    r
}

/// The upstream's uptime of `v`, in ten-thousandths of a percent (its `"%.4f"` digits).
fn uptime_of(w: &World, v: &MStaker) -> Option<u64> {
    w.uptimes
        .get(&v.tx_id.to_string())
        .map(|(u, _)| u.replace('.', "").parse().unwrap())
}

/// [`validator_record`] with what the upstream said of `v` when it is active: its uptime and
/// reachability (100 connected, 0 not; nothing benched).
fn validator_record_of(w: &World, v: &MStaker) -> Value {
    let mut r = validator_record(&w.model, v);
    if r["validationStatus"] == "active" {
        if let Some((uptime, connected)) = w.uptimes.get(&v.tx_id.to_string()) {
            let o = r.as_object_mut().unwrap();
            let percent: f64 = uptime.parse().unwrap();
            o.insert("uptimePerformance".into(), json!(percent));
            o.insert(
                "validatorHealth".into(),
                json!({
                    "reachabilityPercent": if *connected { 100.0 } else { 0.0 },
                    "benchedPChainRequestsPercent": 0.0,
                    "benchedXChainRequestsPercent": 0.0,
                    "benchedCChainRequestsPercent": 0.0,
                }),
            );
        }
    }
    r
}

/// `records` without `stakePercentage`, after checking it is the weight's share of the active
/// stake for active validators and absent for the others.
fn without_percentage(m: &PModel, mut records: Vec<Value>) -> Vec<Value> {
    let total = active_stake(m) as f64;
    for r in &mut records {
        let o = r.as_object_mut().unwrap();
        let p = o.remove("stakePercentage");
        if o["validationStatus"] == "active" {
            let w: f64 = o["amountStaked"].as_str().unwrap().parse().unwrap();
            let p = p.and_then(|p| p.as_f64()).expect("stakePercentage");
            assert!((p - w * 100.0 / total).abs() < 1e-9, "{p} of {w}/{total}");
        } else {
            assert!(p.is_none(), "{r:?}");
        }
    }
    records
}

/// `stakers` ordered by `key` then id, descending when `desc`.
fn ordered(mut stakers: Vec<&MStaker>, key: impl Fn(&MStaker) -> u64, desc: bool) -> Vec<&MStaker> {
    stakers.sort_by_key(|s| (key(s), s.tx_id));
    if desc {
        stakers.reverse();
    }
    stakers
}

fn capacity(m: &PModel, v: &MStaker) -> u64 {
    let delegated: u64 = delegators_of(m, v)
        .iter()
        .filter(|d| d.settled.is_none())
        .map(|d| d.weight)
        .sum();
    (5 * v.weight).min(3_000_000 * AVAX) - v.weight - delegated
}

// ---------------------------------------------------------------------------------------------

#[test]
fn validators_and_delegators_equal_the_replay_in_every_filter_and_order() {
    check_staking(&world(2));
}

/// A devnet of the small preset's genesis with eight times its P blocks over the same span, 16
/// txs each (more validators, delegators and settlements), served by an upstream.
#[test]
fn a_denser_devnet_too() {
    let small = DevnetConfig::small();
    let seed = 7;
    let cfg = DevnetConfig {
        p_blocks: small.p_blocks * 8,
        p_block_interval_s: small.p_block_interval_s / 8,
        p_txs_per_block: 16,
        ..small
    }
    .with_seed(seed);
    let mut devnet = Devnet::generate(cfg).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    // An upstream of this seed's small devnet (the P genesis data-api applies) serving these.
    let up = upstream::start_partial(seed, 0, 0);
    upstream::append(&up.store, &records);
    let w = world_of(seed, up, &devnet, &records);
    check_staking(&w);
    check_subnets(&w);
}

/// Every validator and delegator listing of `w` against its model.
fn check_staking(w: &World) {
    let (m, api) = (&w.model, &w.api);
    let now = m.chain_time;
    let validators: Vec<&MStaker> = m.stakers.values().filter(|s| s.validator).collect();
    let delegators: Vec<&MStaker> = m.stakers.values().filter(|s| !s.validator).collect();
    let by_status = |st: Status| validators.iter().filter(|v| status(v, now) == st).count();
    eprintln!(
        "{} validators ({} active, {} completed), {} delegators at chain time {now}",
        validators.len(),
        by_status(Status::Active),
        by_status(Status::Completed),
        delegators.len()
    );
    assert!(by_status(Status::Active) >= 3 && by_status(Status::Completed) >= 3);
    assert!(delegators.iter().any(|d| d.settled.is_some()));
    assert!(delegators.iter().any(|d| d.settled.is_none()));

    // Every validator by block index, both orders, every status.
    for desc in [false, true] {
        let order = if desc { "desc" } else { "asc" };
        let by_height = ordered(validators.clone(), |s| s.accepted.height, desc);
        for st in [
            None,
            Some(Status::Active),
            Some(Status::Completed),
            Some(Status::Pending),
        ] {
            let want: Vec<Value> = by_height
                .iter()
                .filter(|v| st.is_none_or(|st| status(v, now) == st))
                .map(|v| validator_record_of(w, v))
                .collect();
            let filter = st.map_or(String::new(), |s| format!("&validationStatus={}", s.name()));
            let base = format!("{NET}/validators?sortOrder={order}{filter}");
            for size in [1usize, 3, 100] {
                let path = format!("{base}&pageSize={size}");
                let (items, sizes) = pages(api, &path, "validators");
                assert_eq!(without_percentage(m, items), want, "{path}");
                let (_, full) = sizes.split_last().unwrap();
                assert!(full.iter().all(|n| *n == size), "{path}: {sizes:?}");
            }
        }
        let path = format!("{NET}/validators?sortOrder={order}&validationStatus=removed");
        assert_eq!(pages(api, &path, "validators").0, Vec::<Value>::new());
        // The primary network's subnet id selects all of them; another subnet none.
        let path = format!("{NET}/validators?sortOrder={order}&subnetId={}", Id::EMPTY);
        assert_eq!(pages(api, &path, "validators").0.len(), validators.len());
        if let Some(subnet) = m.subnets.keys().next() {
            let path = format!("{NET}/validators?sortOrder={order}&subnetId={subnet}");
            assert!(pages(api, &path, "validators").0.is_empty(), "{path}");
        }
    }
    // The default order is the newest first.
    let (items, _) = pages(api, &format!("{NET}/validators?pageSize=100"), "validators");
    let want: Vec<Value> = ordered(validators.clone(), |s| s.accepted.height, true)
        .iter()
        .map(|v| validator_record_of(w, v))
        .collect();
    assert_eq!(without_percentage(m, items), want);

    // Node id substrings: a part of one node's id, and two nodes' parts together.
    let nodes: Vec<NodeId> = validators
        .iter()
        .map(|v| v.node)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let parts: Vec<String> = nodes
        .iter()
        .map(|n| n.to_string()[10..18].to_owned())
        .collect();
    for q in [
        vec![parts[0].clone()],
        vec![parts[1].clone(), parts[2].clone()],
    ] {
        let want: Vec<Value> = ordered(validators.clone(), |s| s.accepted.height, false)
            .iter()
            .filter(|v| q.iter().any(|p| v.node.to_string().contains(p.as_str())))
            .map(|v| validator_record_of(w, v))
            .collect();
        assert!(!want.is_empty());
        let base = format!("{NET}/validators?sortOrder=asc&nodeIds={}", q.join(","));
        let (items, _) = pages(api, &format!("{base}&pageSize=3"), "validators");
        assert_eq!(without_percentage(m, items), want, "{base}");
    }

    // Sorted by a figure, active validators, both orders, with paging.
    let active: Vec<&MStaker> = validators
        .iter()
        .filter(|v| status(v, now) == Status::Active)
        .copied()
        .collect();
    type Key<'a> = Box<dyn Fn(&MStaker) -> u64 + 'a>;
    let mut sorts: Vec<(&str, Key<'_>)> = vec![
        ("delegationCapacity", Box::new(|v| capacity(m, v))),
        ("timeRemaining", Box::new(|v| v.end)),
        ("delegationFee", Box::new(|v| u64::from(v.shares))),
    ];
    if !w.uptimes.is_empty() {
        // Every active validator has the uptime the upstream gave it.
        assert!(active.iter().all(|v| uptime_of(w, v).is_some()));
        sorts.push((
            "uptimePerformance",
            Box::new(|v| uptime_of(w, v).unwrap_or(0)),
        ));
    }
    for (name, key) in &sorts {
        for desc in [false, true] {
            let want: Vec<Value> = ordered(active.clone(), key, desc)
                .iter()
                .map(|v| validator_record_of(w, v))
                .collect();
            let order = if desc { "desc" } else { "asc" };
            let base =
                format!("{NET}/validators?validationStatus=active&sortBy={name}&sortOrder={order}");
            for size in [1usize, 3, 100] {
                let path = format!("{base}&pageSize={size}");
                let (items, _) = pages(api, &path, "validators");
                assert_eq!(without_percentage(m, items), want, "{path}");
            }
        }
    }

    // Range filters, each on a value the active set splits at.
    let caps: Vec<u64> = active.iter().map(|v| capacity(m, v)).collect();
    let mid_cap = {
        let mut c = caps.clone();
        c.sort_unstable();
        c[c.len() / 2]
    };
    let ends: Vec<u64> = active.iter().map(|v| v.end).collect();
    let mid_end = {
        let mut e = ends.clone();
        e.sort_unstable();
        e[e.len() / 2]
    };
    let remaining = mid_end - now;
    let fees: BTreeSet<u32> = validators.iter().map(|v| v.shares).collect();
    let mid_fee = *fees.iter().nth(fees.len() / 2).unwrap();
    type Keep<'a> = Box<dyn Fn(&MStaker) -> bool + 'a>;
    let mut filters: Vec<(String, Keep<'_>)> = vec![
        (
            format!("validationStatus=active&minDelegationCapacity={mid_cap}"),
            Box::new(move |v: &MStaker| {
                status(v, now) == Status::Active && capacity(m, v) >= mid_cap
            }),
        ),
        (
            format!("validationStatus=active&maxDelegationCapacity={mid_cap}"),
            Box::new(move |v: &MStaker| {
                status(v, now) == Status::Active && capacity(m, v) <= mid_cap
            }),
        ),
        (
            format!("minTimeRemaining={remaining}"),
            Box::new(move |v: &MStaker| v.end.saturating_sub(now) >= remaining),
        ),
        (
            format!("maxTimeRemaining={remaining}"),
            Box::new(move |v: &MStaker| v.end.saturating_sub(now) <= remaining),
        ),
        (
            format!("minFeePercentage={}", f64::from(mid_fee) / 10_000.0),
            Box::new(move |v: &MStaker| v.shares >= mid_fee),
        ),
        (
            format!("maxFeePercentage={}", f64::from(mid_fee) / 10_000.0),
            Box::new(move |v: &MStaker| v.shares <= mid_fee),
        ),
    ];
    if w.uptimes.is_empty() {
        for q in [
            "minUptimePerformance=90",
            "maxUptimePerformance=100",
            "sortBy=uptimePerformance",
        ] {
            let msg = api
                .get(&format!("{NET}/validators?{q}"))
                .error(400, "Bad Request");
            assert!(msg.contains("uptime"), "{q}: {msg}");
        }
    } else {
        // An uptime the active set splits at, as the percent it is.
        let mut ups: Vec<u64> = active.iter().filter_map(|v| uptime_of(w, v)).collect();
        ups.sort_unstable();
        let mid = ups[ups.len() / 2];
        let pct = format!("{}.{:04}", mid / 10_000, mid % 10_000);
        let at_least = move |v: &MStaker| {
            status(v, now) == Status::Active && uptime_of(w, v).is_some_and(|u| u >= mid)
        };
        let at_most = move |v: &MStaker| {
            status(v, now) == Status::Active && uptime_of(w, v).is_some_and(|u| u <= mid)
        };
        filters.push((format!("minUptimePerformance={pct}"), Box::new(at_least)));
        filters.push((format!("maxUptimePerformance={pct}"), Box::new(at_most)));
        // Disconnected validators are unreachable, connected ones fully reachable.
        assert!(w.uptimes.values().any(|(_, c)| *c));
    }
    for (query, keep) in &filters {
        let want: Vec<Value> = ordered(validators.clone(), |s| s.accepted.height, false)
            .iter()
            .filter(|v| keep(v))
            .map(|v| validator_record_of(w, v))
            .collect();
        assert!(!want.is_empty(), "{query} keeps some");
        let base = format!("{NET}/validators?sortOrder=asc&{query}");
        let (items, _) = pages(api, &format!("{base}&pageSize=3"), "validators");
        assert_eq!(without_percentage(m, items), want, "{base}");
    }

    // A node's validations, by start, both orders, each status.
    for node in &nodes {
        for desc in [false, true] {
            let order = if desc { "desc" } else { "asc" };
            let mine: Vec<&MStaker> = validators
                .iter()
                .filter(|v| v.node == *node)
                .copied()
                .collect();
            let want: Vec<Value> = ordered(mine, |s| s.start, desc)
                .iter()
                .map(|v| validator_record_of(w, v))
                .collect();
            let base = format!("{NET}/validators/{node}?sortOrder={order}");
            let (items, _) = pages(api, &format!("{base}&pageSize=1"), "validators");
            assert_eq!(without_percentage(m, items), want, "{base}");
        }
    }
    let st = format!("{NET}/validators/{}?validationStatus=completed", nodes[0]);
    let (items, _) = pages(api, &format!("{st}&pageSize=100"), "validators");
    assert!(items.iter().all(|v| v["validationStatus"] == "completed"));

    // Delegators: all, by status, by node, by reward address, both together.
    for desc in [false, true] {
        let order = if desc { "desc" } else { "asc" };
        let all = ordered(delegators.clone(), |s| s.start, desc);
        let want: Vec<Value> = all.iter().map(|d| delegator_record(m, d)).collect();
        check_pages(
            api,
            &format!("{NET}/delegators?sortOrder={order}"),
            "delegators",
            &want,
        );
        for st in [Status::Active, Status::Completed, Status::Pending] {
            let want: Vec<Value> = all
                .iter()
                .filter(|d| status(d, now) == st)
                .map(|d| delegator_record(m, d))
                .collect();
            let base = format!(
                "{NET}/delegators?sortOrder={order}&delegationStatus={}",
                st.name()
            );
            check_pages(api, &base, "delegators", &want);
        }
        let two = [nodes[0], nodes[nodes.len() - 1]];
        let want: Vec<Value> = all
            .iter()
            .filter(|d| two.contains(&d.node))
            .map(|d| delegator_record(m, d))
            .collect();
        let base = format!(
            "{NET}/delegators?sortOrder={order}&nodeIds={},{}",
            two[0], two[1]
        );
        check_pages(api, &base, "delegators", &want);
        let owners: Vec<ShortId> = delegators
            .iter()
            .flat_map(|d| d.reward_owner.addrs.iter().copied())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .take(3)
            .collect();
        let want: Vec<Value> = all
            .iter()
            .filter(|d| d.reward_owner.addrs.iter().any(|a| owners.contains(a)))
            .map(|d| delegator_record(m, d))
            .collect();
        assert!(!want.is_empty());
        let list = local_addrs("P", &owners).join(",");
        let base = format!("{NET}/delegators?sortOrder={order}&rewardAddresses={list}");
        check_pages(api, &base, "delegators", &want);
        let node = delegators
            .iter()
            .find(|d| d.reward_owner.addrs.iter().any(|a| owners.contains(a)))
            .unwrap()
            .node;
        let want: Vec<Value> = all
            .iter()
            .filter(|d| d.node == node && d.reward_owner.addrs.iter().any(|a| owners.contains(a)))
            .map(|d| delegator_record(m, d))
            .collect();
        let base = format!("{base}&nodeIds={node}");
        check_pages(api, &base, "delegators", &want);
    }
    let quiet = w
        .keys
        .iter()
        .find(|k| delegators.iter().all(|d| !d.reward_owner.addrs.contains(k)))
        .unwrap();
    let path = format!(
        "{NET}/delegators?rewardAddresses={}",
        local_addrs("P", &[*quiet])[0]
    );
    assert_eq!(pages(api, &path, "delegators").0, Vec::<Value>::new());
}

#[test]
fn network_details_are_the_replays_totals() {
    let w = world(3);
    let (m, api) = (&w.model, &w.api);
    let now = m.chain_time;
    let active: Vec<&MStaker> = m
        .stakers
        .values()
        .filter(|s| status(s, now) == Status::Active)
        .collect();
    let (vals, dels): (Vec<&MStaker>, Vec<&MStaker>) = active.iter().partition(|s| s.validator);
    let sum = |v: &[&MStaker]| v.iter().map(|s| u128::from(s.weight)).sum::<u128>();
    let rewards: u128 = active.iter().map(|s| u128::from(s.potential_reward)).sum();
    let staked = sum(&vals) + sum(&dels);
    let scaled = staked * 1_000_000_000 / u128::from(m.supply);
    let ratio = format!("{}.{:09}", scaled / 1_000_000_000, scaled % 1_000_000_000);
    let r = api.get(NET);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({
            "validatorDetails": {
                "validatorCount": vals.len(),
                "totalAmountStaked": sum(&vals).to_string(),
                "estimatedAnnualStakingReward": rewards.to_string(),
                "stakingDistributionByVersion": [],
                "stakingRatio": ratio,
            },
            "delegatorDetails": {
                "delegatorCount": dels.len(),
                "totalAmountStaked": sum(&dels).to_string(),
            },
        })
    );
    assert!(!vals.is_empty() && !dels.is_empty());
}

#[test]
fn bad_staking_input_is_a_400_in_the_spec_shape() {
    let w = world(4);
    let api = &w.api;
    let node = w.model.stakers.values().next().unwrap().node;
    let x = format_address("X", NetworkInfo::LOCAL.hrp, &w.keys[1]).unwrap();
    let bad = [
        (
            format!("{NET}/validators?minUptimePerformance=100.5"),
            "minUptimePerformance",
        ),
        (
            format!("{NET}/validators?maxUptimePerformance=-1"),
            "maxUptimePerformance",
        ),
        (
            format!("{NET}/validators?maxUptimePerformance=high"),
            "maxUptimePerformance",
        ),
        (format!("{NET}/validators?sortBy=stake"), "sortBy"),
        (
            format!("{NET}/validators?validationStatus=done"),
            "validationStatus",
        ),
        (format!("{NET}/validators?sortOrder=up"), "sortOrder"),
        (
            format!("{NET}/validators?minFeePercentage=1"),
            "minFeePercentage",
        ),
        (
            format!("{NET}/validators?maxFeePercentage=101"),
            "maxFeePercentage",
        ),
        (
            format!("{NET}/validators?minDelegationCapacity=-1"),
            "minDelegationCapacity",
        ),
        (
            format!("{NET}/validators?maxDelegationCapacity=720000000000000001"),
            "maxDelegationCapacity",
        ),
        (
            format!("{NET}/validators?minTimeRemaining=abc"),
            "minTimeRemaining",
        ),
        (
            format!("{NET}/validators?maxTimeRemaining=2147483648"),
            "maxTimeRemaining",
        ),
        (format!("{NET}/validators?subnetId=zz"), "subnetId"),
        (format!("{NET}/validators?nodeIds=a,,b"), "nodeIds"),
        (format!("{NET}/validators?pageSize=101"), "pageSize"),
        (format!("{NET}/validators?pageSize=0"), "pageSize"),
        (format!("{NET}/validators?pageToken=nonsense"), "pageToken"),
        (format!("{NET}/validators/NodeXYZ"), "nodeId"),
        (
            format!("{NET}/validators/{node}?validationStatus=gone"),
            "validationStatus",
        ),
        (
            format!("{NET}/delegators?delegationStatus=removed"),
            "delegationStatus",
        ),
        (
            format!("{NET}/delegators?rewardAddresses={x}"),
            "rewardAddresses",
        ),
        (format!("{NET}/delegators?nodeIds=node1"), "nodeIds"),
        (format!("{NET}/delegators?pageToken=abc"), "pageToken"),
        ("/v1/networks/moon/validators".to_owned(), "network"),
        ("/v1/networks/moon/delegators".to_owned(), "network"),
        ("/v1/networks/moon".to_owned(), "network"),
    ];
    for (path, param) in &bad {
        let msg = api.get(path).error(400, "Bad Request");
        assert!(
            msg.to_lowercase().contains(&param.to_lowercase()),
            "{path}: {msg}"
        );
    }
    // A token of one listing is refused by another.
    let first = api.get(&format!("{NET}/validators?pageSize=1")).json();
    let token = first["nextPageToken"].as_str().unwrap();
    for other in [
        format!("{NET}/validators?pageSize=1&sortOrder=asc&pageToken={token}"),
        format!("{NET}/validators?pageSize=1&validationStatus=active&pageToken={token}"),
        format!("{NET}/delegators?pageSize=1&pageToken={token}"),
        format!("{NET}/validators/{node}?pageSize=1&pageToken={token}"),
    ] {
        api.get(&other).error(400, "Bad Request");
    }
}

/// The `Subnet` record of `id` from the model; its chains as `GET /blockchains/{id}` serves
/// them (checked against the model in `tests/pchain.rs`), each checked here for its id, name,
/// subnet and creation.
fn subnet_record(w: &World, id: &Id) -> Value {
    let m = &w.model;
    let s = &m.subnets[id];
    let hrp = NetworkInfo::LOCAL.hrp;
    let addresses: Vec<String> = s
        .owner
        .addrs
        .iter()
        .map(|a| snowline_types::address::format_bech32(hrp, a).unwrap())
        .collect();
    let mut chains: Vec<(&Id, &common::pmodel::MChain)> =
        m.chains.iter().filter(|(_, c)| c.subnet == *id).collect();
    chains.sort_by_key(|(cid, c)| (c.created.height, **cid));
    let blockchains: Vec<Value> = chains
        .iter()
        .map(|(cid, c)| {
            let b = w.api.get(&format!("{NET}/blockchains/{cid}")).json();
            assert_eq!(b["blockchainName"], c.name.as_str());
            assert_eq!(b["subnetId"], id.to_string().as_str());
            assert_eq!(
                b["createBlockNumber"],
                c.created.height.to_string().as_str()
            );
            b
        })
        .collect();
    let mut r = json!({
        "createBlockTimestamp": s.created.ts,
        "createBlockIndex": s.created.height.to_string(),
        "subnetId": id.to_string(),
        "ownerAddresses": addresses,
        "threshold": s.owner.threshold,
        "locktime": s.owner.locktime,
        "subnetOwnershipInfo": {
            "locktime": s.owner.locktime,
            "threshold": s.owner.threshold,
            "addresses": addresses,
        },
        "isL1": s.conversion.is_some(),
        "blockchains": blockchains,
    });
    if let Some((ev, chain, address)) = &s.conversion {
        r["l1ConversionTransactionHash"] = json!(ev.tx.to_string());
        r["l1ValidatorManagerDetails"] = json!({
            "blockchainId": chain.to_string(),
            "contractAddress": encode_hex_plain(address),
        });
    }
    r
}

#[test]
fn subnets_equal_the_replay() {
    check_subnets(&world(5));
}

/// Every subnet of `w`, listed and by id, against its model; an unknown or malformed id.
fn check_subnets(w: &World) {
    let m = &w.model;
    eprintln!(
        "{} subnets, {} converted, {} chains",
        m.subnets.len(),
        m.subnets
            .values()
            .filter(|s| s.conversion.is_some())
            .count(),
        m.chains.len()
    );
    assert!(!m.subnets.is_empty(), "the devnet creates subnets");
    assert!(m.subnets.values().any(|s| s.conversion.is_some()));
    assert!(m.chains.values().any(|c| c.subnet != Id::EMPTY));
    let mut ids: Vec<&Id> = m.subnets.keys().collect();
    ids.sort_by_key(|id| (m.subnets[*id].created.height, **id));
    let want: Vec<Value> = ids.iter().map(|id| subnet_record(w, id)).collect();
    for (order, want) in [
        ("asc", want.clone()),
        ("desc", want.into_iter().rev().collect()),
    ] {
        check_pages(
            &w.api,
            &format!("{NET}/subnets?sortOrder={order}"),
            "subnets",
            &want,
        );
    }
    for id in &ids {
        let r = w.api.get(&format!("{NET}/subnets/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json(), subnet_record(w, id));
    }
    // A well-formed id no CreateSubnetTx created, and the primary network's, are not subnets
    // of the index; a malformed one is a 400.
    for id in [m.blocks[1].id, Id::EMPTY] {
        let msg = w
            .api
            .get(&format!("{NET}/subnets/{id}"))
            .error(404, "Not Found");
        assert!(msg.contains("not known"), "{msg}");
    }
    w.api
        .get(&format!("{NET}/subnets/zz"))
        .error(400, "Bad Request");
    w.api
        .get(&format!("{NET}/subnets?pageSize=10001"))
        .error(400, "Bad Request");
    w.api
        .get(&format!("{NET}/subnets?sortOrder=new"))
        .error(400, "Bad Request");
}

#[test]
fn blockchains_list_every_chain_the_p_chain_created() {
    let w = world(6);
    let m = &w.model;
    let mut ids: Vec<&Id> = m.chains.keys().collect();
    ids.sort_by_key(|id| (m.chains[*id].created.height, **id));
    assert!(ids.len() >= 3, "the genesis chains and a CreateChainTx");
    // Each as `GET /blockchains/{id}` serves it (checked against the model in tests/pchain.rs).
    let want: Vec<Value> = ids
        .iter()
        .map(|id| {
            let r = w.api.get(&format!("{NET}/blockchains/{id}"));
            assert_eq!(r.status, 200, "{}", r.body);
            r.json()
        })
        .collect();
    for (order, want) in [
        ("asc", want.clone()),
        ("desc", want.into_iter().rev().collect()),
    ] {
        check_pages(
            &w.api,
            &format!("{NET}/blockchains?sortOrder={order}"),
            "blockchains",
            &want,
        );
    }
    w.api
        .get(&format!("{NET}/blockchains?pageSize=10001"))
        .error(400, "Bad Request");
    w.api
        .get("/v1/networks/moon/blockchains")
        .error(400, "Bad Request");
}
