//! The C-Chain's balances and UTXOs (its atomic memory) end to end: a devnet served as a node
//! would serve it, `data-api` following it, and for every devnet address, alone and in groups,
//! the C-Chain's UTXO listings (spent included or not) and balances (now, and as of the second
//! before and the second of every export and import the address took part in) equal an
//! independent model of what the X- and P-Chain exported to the C-Chain and it to them
//! (`common::cmodel`, built beside the P-Chain replay `common::pmodel`); pages visit every UTXO
//! exactly once in every order and size; bad input is a 400 in the spec's error shape.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::cmodel::{CModel, CUtxo};
use common::pmodel::PModel;
use common::{DataApi, follow, local_addr, local_addrs, now_secs, upstream};
use serde_json::{Value, json};
use snowline_types::address::format_address;
use snowline_types::container::ContainerRecord;
use snowline_types::formatting::decode_hex_checksum;
use snowline_types::network::NetworkInfo;
use snowline_types::{Id, ShortId};

const C: &str = "/v1/networks/local/blockchains/c-chain";

/// A devnet served, followed, and modelled.
struct World {
    _up: upstream::Upstream,
    api: DataApi,
    model: CModel,
    keys: Vec<ShortId>,
    _dir: tempfile::TempDir,
}

fn world(seed: u64) -> World {
    let up = upstream::start(seed, 0);
    // The same devnet again, generated here: the models read its own bytes.
    let (mut devnet, _) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    let p = PModel::replay(&devnet, &records);
    let model = CModel::replay(&devnet, &records, &p);
    let keys = devnet.keys().addrs().to_vec();
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    // Caught up: the last export or import the C-Chain took part in shows.
    let last = model
        .utxos
        .values()
        .max_by_key(|u| (u.consumed.map_or(u.created.ts, |c| c.ts), u.id))
        .unwrap();
    let path = format!(
        "{C}/utxos?addresses={}&includeSpent=true&pageSize=100",
        local_addr("C", &last.out.owners.addrs[0])
    );
    let id = last.id.to_string();
    let consumer = last.consumed.map(|c| c.tx.to_string());
    assert!(
        api.wait_until(120, |a| {
            pages(a, &path).0.iter().any(|u| {
                u["utxoId"] == id.as_str() && u["consumingTxHash"].as_str() == consumer.as_deref()
            })
        }),
        "the C-Chain's last atomic tx never showed"
    );
    World {
        _up: up,
        api,
        model,
        keys,
        _dir: dir,
    }
}

/// Every page of `path` (which has a query), following `nextPageToken`: the UTXOs and the size
/// of each page.
fn pages(api: &DataApi, path: &str) -> (Vec<Value>, Vec<usize>) {
    let mut out = Vec::new();
    let mut sizes = Vec::new();
    for v in common::page_bodies(api, path) {
        assert_eq!(
            v["chainInfo"],
            json!({"chainName": "c-chain", "network": "local"})
        );
        let items = v["utxos"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: {v}"));
        sizes.push(items.len());
        out.extend(items.iter().cloned());
    }
    (out, sizes)
}

fn avax_amount(m: &CModel, amount: u64) -> Value {
    json!({
        "assetId": m.net.avax_asset_id.to_string(),
        "name": "Avalanche",
        "symbol": "AVAX",
        "denomination": 9,
        "type": "secp256k1",
        "amount": amount.to_string(),
    })
}

/// The `Utxo` the model expects for `u`, without its times (an X tx has two possible ones:
/// checked apart).
fn utxo_record(m: &CModel, u: &CUtxo) -> Value {
    assert_eq!(u.asset, m.net.avax_asset_id, "the devnet moves AVAX only");
    let owners = &u.out.owners;
    let mut v = json!({
        "addresses": local_addrs("C", &owners.addrs),
        "asset": avax_amount(m, u.out.amount),
        "consumedOnChainId": u.consumed_on.to_string(),
        "createdOnChainId": u.created_on.to_string(),
        "utxoId": u.id.to_string(),
        "creationTxHash": u.created.tx.to_string(),
        "locktime": owners.locktime,
        "outputIndex": u.utxo_id.output_index.to_string(),
        "threshold": owners.threshold,
        "utxoType": "transfer",
    });
    if let Some(c) = &u.consumed {
        v["consumingTxHash"] = json!(c.tx.to_string());
    }
    v
}

/// Checks a served `Utxo` against the model's `u`: every field, the bytes rebuilt from the
/// model, the times among the model's possible ones.
fn check_record(m: &CModel, u: &CUtxo, mut served: Value, context: &str) {
    let bytes = decode_hex_checksum(served["utxoBytes"].as_str().unwrap()).unwrap();
    assert_eq!(bytes, u.bytes(), "{context}: utxoBytes of {}", u.id);
    let ts = served["timestamp"].as_u64().unwrap();
    assert!(u.created.is_at(ts), "{context}: {} created at {ts}", u.id);
    match (&u.consumed, served.get("consumingTxTimestamp")) {
        (Some(c), Some(t)) => assert!(c.is_at(t.as_u64().unwrap()), "{context}: {served}"),
        (None, None) => {}
        _ => panic!("{context}: consumption of {} vs {served}", u.id),
    }
    let o = served.as_object_mut().unwrap();
    for k in ["utxoBytes", "timestamp", "consumingTxTimestamp"] {
        o.remove(k);
    }
    assert_eq!(served, utxo_record(m, u), "{context}");
}

/// The UTXO listings of `addrs`, spent included or not, equal the model's, record by record.
/// Returns how many UTXOs were compared.
fn check_utxos(w: &World, addrs: &[ShortId]) -> usize {
    let m = &w.model;
    let set: BTreeSet<ShortId> = addrs.iter().copied().collect();
    let joined = local_addrs("C", addrs).join(",");
    let mut compared = 0;
    for spent in [false, true] {
        let path =
            format!("{C}/utxos?addresses={joined}&includeSpent={spent}&pageSize=100&sortOrder=asc");
        let (items, _) = pages(&w.api, &path);
        let mut got: BTreeMap<Id, Value> = BTreeMap::new();
        for u in items {
            let id: Id = u["utxoId"].as_str().unwrap().parse().unwrap();
            assert!(got.insert(id, u).is_none(), "{path}: {id} listed twice");
        }
        let want: BTreeMap<Id, &CUtxo> = m
            .listed(&set, spent)
            .into_iter()
            .map(|u| (u.id, u))
            .collect();
        let (g, e): (BTreeSet<&Id>, BTreeSet<&Id>) = (got.keys().collect(), want.keys().collect());
        assert_eq!(
            g,
            e,
            "{path}: listed {:?}, the model has {:?}",
            g.difference(&e).collect::<Vec<_>>(),
            e.difference(&g).collect::<Vec<_>>()
        );
        for (id, u) in &want {
            check_record(m, u, got[id].clone(), &path);
        }
        compared += want.len();
    }
    compared
}

/// The balances of `addrs` now and as of each of `times` equal the model's; returns how many
/// answers held some atomic memory.
fn check_balances(w: &World, addrs: &[ShortId], times: &[u64]) -> usize {
    let m = &w.model;
    let set: BTreeSet<ShortId> = addrs.iter().copied().collect();
    let joined = local_addrs("C", addrs).join(",");
    let mut queries: Vec<(String, Option<u64>)> =
        vec![(format!("{C}/balances?addresses={joined}"), None)];
    for t in times {
        queries.push((
            format!("{C}/balances?addresses={joined}&blockTimestamp={t}"),
            Some(*t),
        ));
    }
    let mut held = 0;
    for (q, at) in queries {
        let t = at.unwrap_or_else(now_secs);
        let r = w.api.get(&q);
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        let v = r.json();
        assert_eq!(
            v["chainInfo"],
            json!({"chainName": "c-chain", "network": "local"})
        );
        let b = v["balances"].as_object().unwrap();
        let mut members: Vec<&String> = b.keys().collect();
        members.sort();
        assert_eq!(
            members,
            ["atomicMemoryLocked", "atomicMemoryUnlocked"],
            "{q}: the C-Chain's shape"
        );
        let mut got = BTreeMap::new();
        for bucket in ["atomicMemoryUnlocked", "atomicMemoryLocked"] {
            for e in b[bucket].as_array().unwrap() {
                let chain: Id = e["sharedWithChainId"].as_str().unwrap().parse().unwrap();
                let asset: Id = e["assetId"].as_str().unwrap().parse().unwrap();
                assert_eq!(asset, m.net.avax_asset_id, "{q}: {e}");
                let amount: u64 = e["amount"].as_str().unwrap().parse().unwrap();
                let mut description = e.clone();
                for k in ["utxoCount", "sharedWithChainId"] {
                    description.as_object_mut().unwrap().remove(k);
                }
                assert_eq!(description, avax_amount(m, amount), "{q}");
                let count = e["utxoCount"].as_u64().unwrap();
                assert!(
                    got.insert((bucket, chain, asset), (u128::from(amount), count))
                        .is_none(),
                    "{q}: {bucket} names {chain} twice"
                );
            }
        }
        assert_eq!(got, m.balances(&set, at, t), "{q}");
        held += usize::from(!got.is_empty());
    }
    held
}

/// The times at which the atomic memory of `addrs` changed, the second before each, and the
/// ends, leaving out those the index may answer either way (see `cmodel::Ev`).
fn balance_times(m: &CModel, addrs: &BTreeSet<ShortId>) -> Vec<u64> {
    let mut t = BTreeSet::from([0, now_secs() + 86_400 * 365 * 5]);
    for u in m.utxos.values().filter(|u| u.owned_by(addrs)) {
        for ev in std::iter::once(u.created).chain(u.consumed) {
            for s in [ev.ts, ev.alt_ts] {
                t.extend([s - 1, s, s + 1]);
            }
        }
    }
    t.into_iter().filter(|t| !m.ambiguous(addrs, *t)).collect()
}

#[test]
fn atomic_memory_equals_the_model_for_every_address() {
    let w = world(2);
    let m = &w.model;
    let (x, p, c) = (m.net.x_chain_id, m.net.p_chain_id, m.net.c_chain_id);
    // Every direction is there, and imports the model saw in every direction.
    for (from, to) in [(x, c), (p, c), (c, x), (c, p)] {
        let moved: Vec<&CUtxo> = m
            .utxos
            .values()
            .filter(|u| u.created_on == from && u.consumed_on == to)
            .collect();
        assert!(!moved.is_empty(), "nothing went from {from} to {to}");
        assert!(
            moved.iter().any(|u| u.consumed.is_some()),
            "nothing from {from} was imported on {to}"
        );
    }
    let mut utxos = 0;
    let mut held = 0;
    for a in &w.keys {
        let one = BTreeSet::from([*a]);
        utxos += check_utxos(&w, std::slice::from_ref(a));
        held += check_balances(&w, std::slice::from_ref(a), &balance_times(m, &one));
    }
    for group in w.keys.chunks(7) {
        let set: BTreeSet<ShortId> = group.iter().copied().collect();
        check_utxos(&w, group);
        check_balances(&w, group, &balance_times(m, &set));
    }
    // Before and after an import, from each side: the balance as of the second before holds
    // the UTXO, the one as of the import's second no longer does.
    for (from, to) in [(x, c), (p, c), (c, x), (c, p)] {
        let (u, import) = m
            .utxos
            .values()
            .filter(|u| u.created_on == from && u.consumed_on == to)
            .find_map(|u| {
                let import = u.consumed?.ts;
                let owner = BTreeSet::from([u.out.owners.addrs[0]]);
                let clear = u.live_at(import - 1) == Some(true)
                    && u.live_at(import) == Some(false)
                    && !m.ambiguous(&owner, import - 1)
                    && !m.ambiguous(&owner, import);
                clear.then_some((u, import))
            })
            .unwrap_or_else(|| panic!("no import from {from} to {to} to look at"));
        let owner = u.out.owners.addrs[0];
        let key = ("atomicMemoryUnlocked", u.other_chain(c), u.asset);
        let held = |t: u64| {
            m.balances(&BTreeSet::from([owner]), Some(t), t)
                .get(&key)
                .map_or(0, |e| e.1)
        };
        assert!(
            held(import - 1) > held(import),
            "{} leaves at {import}",
            u.id
        );
        check_balances(&w, &[owner], &[import - 1, import]);
    }
    eprintln!(
        "compared {utxos} C-Chain UTXO records of {} addresses ({} UTXOs in the model), {held} \
         balances holding atomic memory",
        w.keys.len(),
        m.utxos.len()
    );
    assert!(utxos > 20, "only {utxos} UTXOs compared");
}

/// Pages of `base` (a path with a query) in sizes 1, 2, 3 and 7 visit exactly the UTXOs `want`
/// (ids, in order), each once, every page full but the last; returns the first page's token.
fn check_paging(api: &DataApi, base: &str, want: &[Id]) -> Option<String> {
    for size in [1usize, 2, 3, 7] {
        let path = format!("{base}&pageSize={size}");
        let (items, sizes) = pages(api, &path);
        let ids: Vec<Id> = items
            .iter()
            .map(|u| u["utxoId"].as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(ids, want, "{path}: every UTXO once, in order");
        let (last, full) = sizes.split_last().unwrap();
        assert!(full.iter().all(|n| *n == size), "{path}: pages {sizes:?}");
        assert!(*last <= size, "{path}: {sizes:?}");
    }
    let first = api.get(&format!("{base}&pageSize=1")).json();
    first["nextPageToken"].as_str().map(str::to_owned)
}

#[test]
fn pages_visit_every_utxo_once_in_every_order_and_bad_input_is_a_400() {
    let w = world(3);
    let m = &w.model;
    let api = &w.api;
    // The addresses holding the most atomic UTXOs, together.
    let mut by_count: Vec<(usize, ShortId)> = w
        .keys
        .iter()
        .map(|a| (m.listed(&BTreeSet::from([*a]), true).len(), *a))
        .collect();
    by_count.sort_by_key(|(n, a)| std::cmp::Reverse((*n, *a)));
    let addrs: Vec<ShortId> = by_count.iter().take(6).map(|(_, a)| *a).collect();
    let set: BTreeSet<ShortId> = addrs.iter().copied().collect();
    let joined = local_addrs("C", &addrs).join(",");
    let mut token = None;
    for spent in [false, true] {
        let listed = m.listed(&set, spent);
        assert!(listed.len() >= 5, "{} UTXOs", listed.len());
        for sort_by in ["timestamp", "amount"] {
            for order in ["asc", "desc"] {
                let base = format!(
                    "{C}/utxos?addresses={joined}&includeSpent={spent}&sortBy={sort_by}&sortOrder={order}"
                );
                let want: Vec<Id> = if sort_by == "amount" {
                    let mut want: Vec<(u64, Id)> =
                        listed.iter().map(|u| (u.out.amount, u.id)).collect();
                    want.sort();
                    if order == "desc" {
                        want.reverse();
                    }
                    want.into_iter().map(|(_, id)| id).collect()
                } else {
                    // Creation times may be either of an X tx's two seconds: the order is the
                    // served times', each one of the model's.
                    let (items, _) = pages(api, &format!("{base}&pageSize=100"));
                    let mut keyed: Vec<(u64, Id)> = items
                        .iter()
                        .map(|u| {
                            let id: Id = u["utxoId"].as_str().unwrap().parse().unwrap();
                            let ts = u["timestamp"].as_u64().unwrap();
                            assert!(m.utxos[&id].created.is_at(ts), "{base}: {u}");
                            (ts, id)
                        })
                        .collect();
                    let served: Vec<Id> = keyed.iter().map(|(_, id)| *id).collect();
                    keyed.sort();
                    if order == "desc" {
                        keyed.reverse();
                    }
                    let sorted: Vec<Id> = keyed.into_iter().map(|(_, id)| id).collect();
                    assert_eq!(served, sorted, "{base}: by (timestamp, id)");
                    let mut ids = sorted.clone();
                    ids.sort();
                    let mut model: Vec<Id> = listed.iter().map(|u| u.id).collect();
                    model.sort();
                    assert_eq!(ids, model, "{base}");
                    sorted
                };
                token = check_paging(api, &base, &want).or(token);
            }
        }
        // The default order is newest first; `minUtxoAmount` keeps the UTXOs of at least that
        // much, in either order; `assetId` applies to the X-Chain only: checked, then ignored.
        let amounts: BTreeSet<u64> = listed.iter().map(|u| u.out.amount).collect();
        let median = *amounts.iter().nth(amounts.len() / 2).unwrap();
        for order in ["asc", "desc"] {
            let (items, _) = pages(
                api,
                &format!(
                    "{C}/utxos?addresses={joined}&includeSpent={spent}&sortBy=amount&sortOrder={order}&minUtxoAmount={median}&pageSize=3"
                ),
            );
            let got: BTreeSet<String> = items
                .iter()
                .map(|u| u["utxoId"].as_str().unwrap().to_owned())
                .collect();
            let want: BTreeSet<String> = listed
                .iter()
                .filter(|u| u.out.amount >= median)
                .map(|u| u.id.to_string())
                .collect();
            assert_eq!(got, want, "minUtxoAmount={median} {order}");
        }
        let plain = pages(
            api,
            &format!("{C}/utxos?addresses={joined}&includeSpent={spent}&pageSize=100"),
        )
        .0;
        let ts: Vec<u64> = plain
            .iter()
            .map(|u| u["timestamp"].as_u64().unwrap())
            .collect();
        assert!(ts.windows(2).all(|p| p[0] >= p[1]), "newest first: {ts:?}");
        for asset in [m.net.avax_asset_id, m.net.x_chain_id] {
            let filtered = pages(
                api,
                &format!(
                    "{C}/utxos?addresses={joined}&includeSpent={spent}&pageSize=100&assetId={asset}"
                ),
            )
            .0;
            assert_eq!(filtered, plain, "assetId={asset} is ignored");
        }
    }
    let token = token.expect("a listing of more than one page");

    // The C-Chain's id works as its alias does, and addresses may come without the prefix.
    let a = w.keys[1];
    let bare = format_address("", NetworkInfo::LOCAL.hrp, &a).unwrap();
    let by_id = format!("/v1/networks/local/blockchains/{}", m.net.c_chain_id);
    for path in [
        format!("{by_id}/balances?addresses={}", local_addr("C", &a)),
        format!("{C}/balances?addresses={}", bare.trim_start_matches('-')),
    ] {
        let r = api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(
            r.json(),
            api.get(&format!("{C}/balances?addresses={}", local_addr("C", &a)))
                .json(),
            "{path}"
        );
    }

    // Bad input: a 400 in the spec's shape, naming the parameter.
    let c = local_addr("C", &a);
    let x = format_address("X", NetworkInfo::LOCAL.hrp, &a).unwrap();
    let p = format_address("P", NetworkInfo::LOCAL.hrp, &a).unwrap();
    let x_token = api
        .get(&format!(
            "/v1/networks/local/blockchains/x-chain/utxos?addresses={x}&pageSize=1"
        ))
        .json()["nextPageToken"]
        .as_str()
        .unwrap()
        .to_owned();
    for (path, needle) in [
        (format!("{C}/utxos"), "addresses"),
        (format!("{C}/balances"), "addresses"),
        (format!("{C}/utxos?addresses={x}"), "addresses"),
        (format!("{C}/balances?addresses={p}"), "addresses"),
        (format!("{C}/utxos?addresses={c},{x}"), "addresses"),
        (
            format!("{C}/utxos?addresses=C-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqv3nmf5"),
            "addresses",
        ),
        (format!("{C}/utxos?addresses={c}&pageSize=0"), "pageSize"),
        (format!("{C}/utxos?addresses={c}&pageSize=101"), "pageSize"),
        (format!("{C}/utxos?addresses={c}&sortBy=size"), "sortBy"),
        (format!("{C}/utxos?addresses={c}&sortOrder=up"), "sortOrder"),
        (
            format!("{C}/utxos?addresses={c}&includeSpent=yes"),
            "includeSpent",
        ),
        (
            format!("{C}/utxos?addresses={c}&minUtxoAmount=-1"),
            "minUtxoAmount",
        ),
        (format!("{C}/utxos?addresses={c}&assetId=zzz"), "assetId"),
        (
            format!("{C}/balances?addresses={c}&blockTimestamp=-5"),
            "blockTimestamp",
        ),
        (
            format!("{C}/balances?addresses={c}&blockTimestamp=yesterday"),
            "blockTimestamp",
        ),
        (
            format!("{C}/utxos?addresses={c}&pageToken=garbage"),
            "pageToken",
        ),
        // A token of the X-Chain's listing, and one of this listing with other filters.
        (
            format!("{C}/utxos?addresses={c}&pageSize=1&pageToken={x_token}"),
            "pageToken",
        ),
        (
            format!("{C}/utxos?addresses={joined}&pageSize=1&sortBy=amount&pageToken={token}"),
            "pageToken",
        ),
        (
            format!("/v1/networks/moon/blockchains/c-chain/utxos?addresses={c}"),
            "network",
        ),
    ] {
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(needle), "{path}: {msg}");
    }
    let msg = api
        .get(&format!(
            "/v1/networks/fuji/blockchains/c-chain/balances?addresses={c}"
        ))
        .error(404, "Not Found");
    assert!(msg.contains("fuji"), "{msg}");
}
