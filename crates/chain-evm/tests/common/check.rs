//! Every EVM table of a chain checked against a recording's JSON, derived by hand.

use std::collections::BTreeMap;

use serde_json::Value;
use snowline_chain_evm::rows::{TransferKind, TxKey};
use snowline_chain_evm::tables::*;
use snowline_store::{Direction, ReadView, Store};
use snowline_types::evm::{Address, B256, U256};
use snowline_types::rest::evm::ErcType;

use super::*;

/// Checks every table of `chain` in `store` against the recording's `lines`.
pub fn check_against_recording(store: &Store, chain: u64, lines: &[Value]) {
    let recs = blocks(lines);
    let mut cumulative = 0u64;
    let mut all_txs = 0usize;
    let mut want_transfers = BTreeMap::new();
    let mut want_internal = BTreeMap::new();
    let mut want_contracts = BTreeMap::new();
    // (address, block, tx index) -> (tx, roles): every address a tx touches, with the parts it
    // played (bits: 1 sender/recipient/created, 2/4/8 party to an ERC-20/721/1155 transfer, 16
    // party to a listed internal tx).
    let mut want_by_address: BTreeMap<(Address, u64, u32), (B256, u8)> = BTreeMap::new();
    let mut owners: BTreeMap<(Address, U256), Address> = BTreeMap::new();
    for b in &recs {
        let n = b.number;
        let txs = b.block["transactions"].as_array().unwrap();
        let receipts = b.receipts.as_array().unwrap();
        cumulative += txs.len() as u64;
        let row = store.get::<EvBlocks>(&(chain, n)).unwrap().unwrap().0;
        assert_eq!(row.hash, hash(&b.block["hash"]), "block {n}");
        assert_eq!(row.parent, hash(&b.block["parentHash"]));
        assert_eq!(row.timestamp, q(&b.block["timestamp"]));
        assert_eq!(row.tx_count as usize, txs.len());
        assert_eq!(row.gas_used, q(&b.block["gasUsed"]));
        assert_eq!(row.gas_limit, q(&b.block["gasLimit"]));
        assert_eq!(row.base_fee, b.block.get("baseFeePerGas").map(u));
        assert_eq!(row.cumulative_txs, cumulative);
        let fees: U256 = receipts
            .iter()
            .map(|r| U256::from(q(&r["gasUsed"])) * u(&r["effectiveGasPrice"]))
            .sum();
        assert_eq!(row.fees_spent, fees, "block {n} fees");
        assert_eq!(
            store.get::<EvBlockHashes>(&(chain, row.hash.0)).unwrap(),
            Some(n)
        );
        let traces = b.traces.as_array().cloned().unwrap_or_default();
        for (i, (t, r)) in txs.iter().zip(receipts).enumerate() {
            all_txs += 1;
            let h = hash(&t["hash"]);
            let got = store
                .get::<EvTxs>(&(chain, n, i as u32))
                .unwrap()
                .unwrap()
                .0;
            assert_eq!(got.hash, h);
            // Its parts count the logs of TeleporterMessenger v1, deployed at one address on
            // every chain by Nick's method (ava-labs/teleporter v1.0.0,
            // `utils/contract-deployment/README.md`).
            let messenger = addr(&Value::from("0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf"));
            let logs = r["logs"].as_array().unwrap();
            let want = logs
                .iter()
                .filter(|l| addr(&l["address"]) == messenger)
                .count();
            let parts = store.get::<EvTxParts>(&(chain, n, i as u32)).unwrap();
            assert_eq!(
                parts.map_or(0, |p| p.0.messenger_logs as usize),
                want,
                "tx {h}"
            );
            let ok = q(&r["status"]) == 1;
            assert_eq!(got.block, n);
            assert_eq!(got.index as usize, i);
            assert_eq!(got.from, addr(&t["from"]));
            assert_eq!(got.to, t.get("to").filter(|v| !v.is_null()).map(addr));
            assert_eq!(got.value, u(&t["value"]));
            assert_eq!(got.nonce, q(&t["nonce"]));
            assert_eq!(got.gas_limit, q(&t["gas"]));
            assert_eq!(got.gas_used, q(&r["gasUsed"]));
            assert_eq!(got.effective_gas_price, u(&r["effectiveGasPrice"]));
            assert_eq!(u64::from(got.tx_type), q(&t["type"]));
            assert_eq!(got.status, Some(ok));
            assert_eq!(got.input, bytes(&t["input"]));
            let created = r
                .get("contractAddress")
                .filter(|v| !v.is_null() && ok)
                .map(addr);
            assert_eq!(got.created, created);
            assert_eq!(
                store
                    .get::<EvTxHashes>(&(chain, h.0))
                    .unwrap()
                    .map(|at| at.0),
                Some(TxKey {
                    block: n,
                    index: i as u32
                })
            );
            if let Some(c) = created {
                want_contracts.insert(c, (addr(&t["from"]), None::<Address>, h, n));
            }
            let mut touch = |a: Address, bit: u8| {
                want_by_address.entry((a, n, i as u32)).or_insert((h, 0)).1 |= bit;
            };
            let to = t.get("to").filter(|v| !v.is_null()).map(addr);
            for a in [Some(addr(&t["from"])), to, created].into_iter().flatten() {
                touch(a, 1);
            }
            for log in r["logs"].as_array().unwrap() {
                let token = addr(&log["address"]);
                let li = q(&log["logIndex"]);
                for (sub, x) in log_transfers(log).into_iter().enumerate() {
                    if x.0 == 721 {
                        if x.2 == Address::ZERO {
                            owners.remove(&(token, x.4));
                        } else {
                            owners.insert((token, x.4), x.2);
                        }
                    }
                    let bit = match x.0 {
                        20 => 2,
                        721 => 4,
                        _ => 8,
                    };
                    touch(x.1, bit);
                    touch(x.2, bit);
                    want_transfers.insert((token, n, li, sub as u32), (x, h, i as u32));
                }
            }
            let trace = traces
                .iter()
                .find(|e| hash(&e["txHash"]) == h)
                .expect("every tx traced");
            let frames = walk(&trace["result"]);
            for (k, f) in frames.iter().enumerate() {
                if f.0 > 0 && f.1.starts_with("CREATE") && !f.5 {
                    want_contracts.insert(f.3.unwrap(), (addr(&t["from"]), Some(f.2), h, n));
                }
                for a in [Some(f.2), f.3].into_iter().flatten() {
                    touch(a, 16);
                }
                want_internal.insert((h, k as u32), (f.clone(), n, i as u32));
            }
        }
    }

    // Every tx, and nothing else.
    let stored_txs = store
        .prefix_scan::<EvTxs, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .count();
    assert_eq!(stored_txs, all_txs);
    assert!(all_txs > 100);

    // Every transfer, by token, by tx and by address.
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvTransfersByToken, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, token, n, li, sub), row) = e.unwrap();
            let row = row.0;
            let kind = match row.kind {
                TransferKind::Erc20 => 20,
                TransferKind::Erc721 => 721,
                TransferKind::Erc1155 => 1155,
            };
            (
                (Address::from(token), n, li, sub),
                (
                    (
                        kind,
                        row.from,
                        row.to,
                        row.value,
                        row.token_id,
                        row.operator,
                    ),
                    row.tx_hash,
                    row.tx_index,
                ),
            )
        })
        .collect();
    assert_eq!(got, want_transfers);
    let kinds = set(want_transfers.values().map(|v| v.0.0));
    assert_eq!(
        kinds,
        set([20, 721, 1155]),
        "the recording moves every kind"
    );
    for ((token, n, li, sub), (x, h, i)) in &want_transfers {
        // The tx's parts hold the same transfer: the `sub`-th of its log `li`.
        let parts = store.get::<EvTxParts>(&(chain, *n, *i)).unwrap().unwrap().0;
        let t = parts
            .transfers
            .iter()
            .filter(|t| t.log_index == *li)
            .nth(*sub as usize)
            .expect("the tx's parts hold each of its transfers");
        assert_eq!(
            (t.token, t.from, t.to, t.value, t.token_id, t.operator),
            (*token, x.1, x.2, x.3, x.4, x.5)
        );
        let tx = store.get::<EvTxs>(&(chain, *n, *i)).unwrap().unwrap().0;
        assert_eq!(tx.hash, *h);
        for a in [x.1, x.2] {
            let got = store
                .get::<EvTransfersByAddress>(&(chain, a.0.0, *n, *li, *sub))
                .unwrap()
                .unwrap()
                .0;
            assert_eq!(got.token, *token);
            assert_eq!(
                got.kind.code(),
                match x.0 {
                    20 => 20,
                    721 => 21,
                    _ => 55,
                }
            );
        }
    }

    // Every address a tx touches, once per tx, with its roles.
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvTxsByAddress, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, a, n, i), row) = e.unwrap();
            ((Address::from(a), n, i), row.0.roles.0)
        })
        .collect();
    let want: BTreeMap<_, _> = want_by_address.iter().map(|(k, v)| (*k, v.1)).collect();
    assert_eq!(got, want);
    assert!(
        want_by_address
            .values()
            .any(|(_, r)| *r & 16 != 0 && *r & 1 == 0),
        "an address reached only by an internal tx"
    );

    // Internal txs, by tx and by both ends.
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvTxParts, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .flat_map(|e| {
            let (_, parts) = e.unwrap();
            parts.0.internals.into_iter().map(move |r| {
                let kind = format!("{:?}", r.kind).to_uppercase();
                (
                    (r.tx_hash, r.frame),
                    (
                        (r.depth, kind, r.from, r.to, r.value, r.reverted),
                        r.block,
                        r.tx_index,
                    ),
                )
            })
        })
        .collect();
    assert_eq!(got, want_internal);
    assert!(
        want_internal.values().any(|f| f.0.0 > 0 && f.0.5),
        "a reverted inner frame"
    );
    // Both ends name the frame; its row is the one in its tx's parts, checked above.
    let mut by_address = std::collections::BTreeSet::new();
    for ((h, k), (f, n, i)) in &want_internal {
        let tx = store.get::<EvTxs>(&(chain, *n, *i)).unwrap().unwrap().0;
        assert_eq!(tx.hash, *h);
        for a in [Some(f.2), f.3].into_iter().flatten() {
            assert!(
                store
                    .get::<EvInternalByAddress>(&(chain, a.0.0, *n, *i, *k))
                    .unwrap()
                    .is_some(),
                "frame {k} of {h} under {a}"
            );
            by_address.insert((a, *n, *i, *k));
        }
    }
    let stored = store
        .prefix_scan::<EvInternalByAddress, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .count();
    assert_eq!(
        stored,
        by_address.len(),
        "no frame an address did not take part in"
    );

    // Contracts with their deployers, by deployer too.
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvContracts, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, a), row) = e.unwrap();
            let r = row.0;
            (
                Address::from(a),
                (r.deployer, r.deployer_contract, r.tx_hash, r.block),
            )
        })
        .collect();
    assert_eq!(got, want_contracts);
    assert!(
        want_contracts.values().any(|c| c.1.is_some()),
        "factory children"
    );
    let by_deployer = store
        .prefix_scan::<EvContractsByDeployer, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, d, ..), c) = e.unwrap();
            (Address::from(d), Address::from(c))
        });
    let want = want_contracts.iter().flat_map(|(c, (eoa, factory, ..))| {
        [Some((*eoa, *c)), factory.map(|f| (f, *c))]
            .into_iter()
            .flatten()
    });
    assert_eq!(set(by_deployer), set(want));

    // ERC-721 owners after every transfer, both ways.
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvErc721Owner, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, c, id), o) = e.unwrap();
            (
                (Address::from(c), U256::from_be_bytes(id)),
                Address::from(o),
            )
        })
        .collect();
    assert_eq!(got, owners);
    assert!(owners.len() > 3);
    let by_owner = store
        .prefix_scan::<EvErc721ByOwner, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, o, c, id), ()) = e.unwrap();
            (
                (Address::from(c), U256::from_be_bytes(id)),
                Address::from(o),
            )
        });
    assert_eq!(map(by_owner), owners);

    // Native balances: exactly the recorded eth_getBalance answers (genesis aside: its
    // accounts are the node's dev accounts, which no block names).
    let mut want_native = BTreeMap::new();
    for l in lines.iter().filter(|l| l["method"] == "eth_getBalance") {
        let n = q(&l["params"][1]);
        if n > 0 {
            want_native.insert((addr(&l["params"][0]), n), u(&l["result"]));
        }
    }
    let got: BTreeMap<_, _> = store
        .prefix_scan::<EvNative, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, a, n), v) = e.unwrap();
            ((Address::from(a), n), U256::from_be_bytes(v))
        })
        .collect();
    assert_eq!(got, want_native);

    // Every described contract, its names and ERC type, derived from the recorded answers.
    let created: BTreeMap<Address, u64> = want_contracts.iter().map(|(c, v)| (*c, v.3)).collect();
    check_tokens(store, chain, lines, &recs, &created);
    // The scenario's contracts (docs/evm-devnet.md) at account 0's nonces 0-6.
    let token = |a: &str| {
        let a: Address = a.parse().unwrap();
        store.get::<EvTokens>(&(chain, a.0.0)).unwrap().unwrap().0
    };
    let erc20 = token("0x5fbdb2315678afecb367f032d93f642f64180aa3");
    assert_eq!(erc20.erc_type(), ErcType::Erc20);
    assert_eq!(erc20.name.as_deref(), Some("Snowline Devnet Token"));
    assert_eq!(erc20.symbol.as_deref(), Some("SDT"));
    assert_eq!(erc20.probes.decimals(), Some(18));
    let erc721 = token("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512");
    assert_eq!(erc721.erc_type(), ErcType::Erc721);
    assert_eq!(erc721.name.as_deref(), Some("Snowline Devnet NFT"));
    assert_eq!(erc721.symbol.as_deref(), Some("SDN"));
    let erc1155 = token("0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0");
    assert_eq!(erc1155.erc_type(), ErcType::Erc1155);
    let probe = token("0xdc64a140aa3e981100a9beca4e685f962f0cf6c9");
    assert_eq!(probe.erc_type(), ErcType::Unknown);
    assert_eq!(probe.probes.interfaces.erc165, Some(true));
    // `ClaimsAll` says yes to ERC-721 too, but also to 0xffffffff: no ERC-165, no token.
    let claims_all = token("0x5fc8d32690cc91d4c39d9d3abcbd16989f875707");
    assert_eq!(claims_all.probes.interfaces.erc721, Some(true));
    assert_eq!(claims_all.probes.interfaces.invalid_id, Some(true));
    assert_eq!(claims_all.erc_type(), ErcType::Unknown);
    // `NoSupply` emits an ERC-20 `Transfer` and answers `decimals()`, but not `totalSupply()`.
    let no_supply = token("0x0165878a594ca255338adfa4d48449f69242eb8f");
    assert_eq!(no_supply.name.as_deref(), Some("No Supply"));
    assert_eq!(no_supply.probes.decimals(), Some(18));
    assert_eq!(no_supply.erc_type(), ErcType::Unknown);
    // The URIs of the NFTs moved: the preset's base URI and the id.
    for (c, id) in owners.keys() {
        let uri = store
            .get::<EvNftUris>(&(chain, c.0.0, id.to_be_bytes::<32>()))
            .unwrap();
        assert_eq!(
            uri,
            Some(format!("https://devnet.snowline.invalid/nft/{id}"))
        );
    }

    let cursor = store.get::<EvCursor>(&chain).unwrap().unwrap().0;
    assert_eq!(cursor.next, recs.len() as u64);
    assert_eq!(cursor.last_hash, hash(&recs.last().unwrap().block["hash"]));
}
