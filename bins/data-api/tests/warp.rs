//! Warp signature aggregation end to end: `data-api` following a devnet P-Chain, asking devnet
//! validator peers (real TLS, the handshake, ACP-118) found through `--warp-peers`. Each signed
//! message is checked with blst alone as avalanchego's `BitSetSignature.Verify` checks it
//! (v1.14.2, commit 1cf1fc3d1711: `vms/platformvm/warp/signature.go`, `FilterValidators` in
//! `warp/validator.go`), against the canonical set built here from the independent P-Chain
//! model (`common::pmodel`, replayed from the devnet's blocks) by `FlattenValidatorSet`
//! (`snow/validators/warp.go`: validators with a key, sorted by their uncompressed bytes, the
//! total counting the keyless weight too). An L1's set is the model's `l1_set`: active
//! validators with their keys, the inactive ones' weight under the empty node id with no key.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use blst::BLST_ERROR;
use blst::min_pk::{AggregatePublicKey, PublicKey, Signature};
use common::pmodel::PModel;
use common::{DataApi, follow_with, request, upstream};
use serde_json::{Value, json};
use snowline_devnet::nodes::{BLS_SIG_DST, DevnetNode};
use snowline_devnet_peers::{SignerBehaviour, SignerPeer};
use snowline_types::container::ContainerRecord;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{UnsignedTx, parse_block};
use snowline_types::warp::l1::{
    ConversionData, ConversionValidatorData, L1Message, L1ValidatorRegistration,
    registration_validation_id,
};
use snowline_types::warp::{AddressedCall, BitSetSignature, Message, Payload, UnsignedMessage};
use snowline_types::{Id, NodeId};

const SEED: u64 = 1;
const AGG: &str = "/v1/signatureAggregator/local/aggregateSignatures";

/// A validator set as the check needs it: weight and compressed key (none: weight that counts
/// in the total but cannot sign).
type Set = Vec<(u64, Option<[u8; 48]>)>;

struct World {
    api: DataApi,
    model: PModel,
    records: Vec<ContainerRecord>,
    net: &'static NetworkInfo,
    _peers: Vec<SignerPeer>,
    _rt: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
    _up: upstream::Upstream,
}

/// The devnet's nodes (the generator numbers them from 0), enough to cover every validator.
fn nodes() -> Vec<DevnetNode> {
    (0..48).map(|i| DevnetNode::new(SEED, i).unwrap()).collect()
}

fn world(down: &[NodeId]) -> World {
    let up = upstream::start(SEED, 0);
    let (mut devnet, _) = upstream::devnet(SEED, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let model = PModel::replay(&devnet, &records);
    let net = model.network.unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut peers = Vec::new();
    let mut lines = String::new();
    for node in nodes() {
        if down.contains(&node.node_id) {
            // Listed, nothing listening.
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = l.local_addr().unwrap();
            lines.push_str(&format!(
                "{{\"nodeId\":\"{}\",\"addr\":\"{addr}\"}}\n",
                node.node_id
            ));
            continue;
        }
        let peer = rt
            .block_on(SignerPeer::bind_local(
                &node,
                net.network_id,
                SignerBehaviour::Normal,
            ))
            .unwrap();
        lines.push_str(&format!(
            "{{\"nodeId\":\"{}\",\"addr\":\"{}\"}}\n",
            peer.node_id(),
            peer.addr()
        ));
        peers.push(peer);
    }
    let file = dir.path().join("peers.jsonl");
    std::fs::write(&file, lines).unwrap();
    let api = follow_with(
        &dir.path().join("data"),
        &up,
        SEED,
        120,
        &[
            "--warp-peers",
            file.to_str().unwrap(),
            "--warp-timeout-ms",
            "5000",
        ],
    );
    let last = model.blocks.last().unwrap().height;
    assert!(
        api.wait_until(120, |a| {
            a.get("/v1/networks/local/l1Validators?pageSize=1").json()["blockHeight"]
                == last.to_string().as_str()
        }),
        "the P-Chain never caught up"
    );
    World {
        api,
        model,
        records,
        net,
        _peers: peers,
        _rt: rt,
        _dir: dir,
        _up: up,
    }
}

/// The primary network's validators at the tip, from the model: each current validator's stake
/// plus its current delegations, with its node's BLS key.
fn primary_set(m: &PModel) -> Set {
    let keys: BTreeMap<NodeId, [u8; 48]> = nodes()
        .iter()
        .map(|n| (n.node_id, n.bls_public_key))
        .collect();
    let mut weights: BTreeMap<NodeId, u64> = BTreeMap::new();
    for s in m
        .stakers
        .values()
        .filter(|s| s.validator && s.settled.is_none())
    {
        *weights.entry(s.node).or_default() += s.weight;
    }
    for s in m
        .stakers
        .values()
        .filter(|s| !s.validator && s.settled.is_none())
    {
        if let Some(w) = weights.get_mut(&s.node) {
            *w += s.weight;
        }
    }
    weights
        .into_iter()
        .map(|(n, w)| (w, Some(*keys.get(&n).expect("a devnet node"))))
        .collect()
}

/// An L1's set at `h` from the model.
fn l1_set(m: &PModel, subnet: &Id, h: u64) -> Set {
    m.l1_set(subnet, h).into_values().collect()
}

/// The canonical list of `set` (`FlattenValidatorSet`): keyed validators merged by key and
/// sorted by the uncompressed key bytes; and the total weight, keyless weight included.
fn canonical(set: &Set) -> (Vec<([u8; 96], PublicKey, u64)>, u64) {
    let mut by_key: BTreeMap<[u8; 96], (PublicKey, u64)> = BTreeMap::new();
    for (w, k) in set {
        if let Some(k) = k {
            let pk = PublicKey::key_validate(k).unwrap();
            by_key.entry(pk.serialize()).or_insert((pk, 0)).1 += w;
        }
    }
    let total = set.iter().map(|(w, _)| w).sum();
    (
        by_key.into_iter().map(|(b, (pk, w))| (b, pk, w)).collect(),
        total,
    )
}

/// `BitSetSignature.Verify` with blst alone: minimal bitset, every signer in the canonical
/// list, signed weight × 100 ≥ total × quorum, the aggregate signature over the signers' keys.
fn verify(
    signed: &Message,
    unsigned: &UnsignedMessage,
    set: &Set,
    quorum: u64,
) -> Result<(), String> {
    if &signed.unsigned != unsigned {
        return Err("another message".into());
    }
    let (canonical, total) = canonical(set);
    let signers = signed
        .signature
        .signer_indices()
        .map_err(|e| format!("bitset: {e}"))?;
    let mut weight = 0u64;
    let mut keys = Vec::new();
    for i in &signers {
        let (_, pk, w) = canonical
            .get(*i)
            .ok_or_else(|| format!("unknown validator {i} of {}", canonical.len()))?;
        weight += w;
        keys.push(pk);
    }
    if u128::from(weight) * 100 < u128::from(total) * u128::from(quorum) {
        return Err(format!("signed weight {weight} of {total}"));
    }
    let agg = AggregatePublicKey::aggregate(&keys, false)
        .map_err(|e| format!("{e:?}"))?
        .to_public_key();
    let sig =
        Signature::sig_validate(&signed.signature.signature, true).map_err(|e| format!("{e:?}"))?;
    match sig.verify(false, &unsigned.bytes(), BLS_SIG_DST, &[], &agg, false) {
        BLST_ERROR::BLST_SUCCESS => Ok(()),
        e => Err(format!("{e:?}")),
    }
}

/// Checks `signed` signs `unsigned` by at least `quorum`% of `set`'s weight, with blst alone.
fn check(signed_hex: &str, unsigned: &UnsignedMessage, set: &Set, quorum: u64) -> Message {
    let signed = Message::parse(&hex::decode(signed_hex).unwrap()).unwrap();
    if let Err(e) = verify(&signed, unsigned, set, quorum) {
        panic!("{e}");
    }
    signed
}

/// The AddressedCall payload of a signed Warp message a tx carries.
fn carried(signed: &[u8]) -> Vec<u8> {
    match Payload::parse(&Message::parse(signed).unwrap().unsigned.payload).unwrap() {
        Payload::AddressedCall(call) => call.payload,
        Payload::Hash(_) => panic!("a hash payload"),
    }
}

/// The P-Chain's unsigned Warp message carrying `m` (an `AddressedCall` from no address).
fn p_message(w: &World, m: &L1Message) -> UnsignedMessage {
    UnsignedMessage {
        network_id: w.net.network_id,
        source_chain_id: w.net.p_chain_id,
        payload: Payload::AddressedCall(AddressedCall {
            source_address: Vec::new(),
            payload: m.bytes(),
        })
        .bytes(),
    }
}

fn post(api: &DataApi, body: &Value) -> common::Response {
    request(&api.addr, "POST", AGG, &[], &body.to_string())
}

#[test]
fn messages_are_signed_by_the_subnets_validators_over_p2p() {
    let w = world(&[]);
    let c_chain_message = UnsignedMessage {
        network_id: w.net.network_id,
        source_chain_id: w.net.c_chain_id,
        payload: Payload::AddressedCall(AddressedCall {
            source_address: vec![0x11; 20],
            payload: b"hello from the C-Chain".to_vec(),
        })
        .bytes(),
    };
    let set = primary_set(&w.model);
    assert!(set.len() >= 5, "{} validators", set.len());
    let hex_message = hex::encode(c_chain_message.bytes());
    let r = post(&w.api, &json!({"message": hex_message}));
    assert_eq!(r.status, 200, "{}", r.body);
    check(
        r.json()["signedMessage"].as_str().unwrap(),
        &c_chain_message,
        &set,
        67,
    );
    // With a buffer, and with the message as a SendWarpMessage log's ABI bytes.
    let mut abi = vec![0u8; 64];
    abi[31] = 32;
    let bytes = c_chain_message.bytes();
    abi[56..64].copy_from_slice(&(bytes.len() as u64).to_be_bytes());
    abi.extend_from_slice(&bytes);
    abi.resize(64 + bytes.len().div_ceil(32) * 32, 0);
    let r = post(
        &w.api,
        &json!({"message": format!("0x{}", hex::encode(&abi)), "quorumPercentage": 70,
                "quorumPercentageBuffer": 20}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    check(
        r.json()["signedMessage"].as_str().unwrap(),
        &c_chain_message,
        &set,
        70,
    );

    // The conversion of the devnet's L1: the P-Chain's SubnetToL1ConversionMessage, built here
    // from the tx, signed by the L1's validators (from the model).
    let (tx_id, data) = w
        .records
        .iter()
        .filter_map(|r| parse_block(&r.bytes).ok())
        .flat_map(|b| {
            let ids = b.block.tx_ids.clone();
            b.block
                .block
                .txs()
                .into_iter()
                .cloned()
                .zip(ids)
                .collect::<Vec<_>>()
        })
        .find_map(|(tx, id)| match tx.unsigned {
            UnsignedTx::ConvertSubnetToL1Tx(c) => Some((
                id,
                ConversionData {
                    subnet_id: c.subnet_id,
                    manager_chain_id: c.chain_id,
                    manager_address: c.address.clone(),
                    validators: c
                        .validators
                        .iter()
                        .map(|v| ConversionValidatorData {
                            node_id: v.node_id.clone(),
                            bls_public_key: v.signer.public_key,
                            weight: v.weight,
                        })
                        .collect(),
                },
            )),
            _ => None,
        })
        .expect("the devnet converts a subnet");
    let expected = UnsignedMessage {
        network_id: w.net.network_id,
        source_chain_id: w.net.p_chain_id,
        payload: Payload::AddressedCall(AddressedCall {
            source_address: Vec::new(),
            payload: L1Message::SubnetToL1Conversion {
                conversion_id: data.conversion_id(),
            }
            .bytes(),
        })
        .bytes(),
    };
    // At the tip one of the L1's validators is inactive (disabled): its weight counts in the
    // total but it is not in the canonical list.
    let subnet = data.subnet_id;
    let tip = w.model.height();
    let at_tip = l1_set(&w.model, &subnet, tip);
    assert!(
        at_tip.iter().any(|(_, k)| k.is_none()),
        "no inactive validator"
    );
    let r = w.api.get(&format!("{AGG}/{tx_id}"));
    assert_eq!(r.status, 200, "{}", r.body);
    let signed = check(
        r.json()["signedMessage"].as_str().unwrap(),
        &expected,
        &at_tip,
        67,
    );
    // The same signers and signature with the bits of a list that keeps the inactive validator
    // with its key (what data-api once sent): avalanchego rejects it.
    let old_list: Set = w
        .model
        .l1
        .values()
        .filter(|v| v.subnet == subnet && v.weight > 0)
        .map(|v| (v.weight, Some(v.public_key)))
        .collect();
    let (right, _) = canonical(&at_tip);
    let (old, _) = canonical(&old_list);
    let old_indices: Vec<usize> = signed
        .signature
        .signer_indices()
        .unwrap()
        .iter()
        .map(|i| old.iter().position(|o| o.0 == right[*i].0).unwrap())
        .collect();
    let mutated = Message {
        unsigned: signed.unsigned.clone(),
        signature: BitSetSignature {
            signers: BitSetSignature::signers_from_indices(&old_indices),
            signature: signed.signature.signature,
        },
    };
    assert_ne!(
        mutated.signature.signers, signed.signature.signers,
        "the inactive validator sorts after every signer: the fixture cannot tell the lists apart"
    );
    assert!(verify(&mutated, &expected, &at_tip, 67).is_err());

    // The L1's later txs: a registration and a weight change, signed by the set at the tip.
    let l1_txs: Vec<(Id, UnsignedTx)> = w
        .records
        .iter()
        .filter_map(|r| parse_block(&r.bytes).ok())
        .flat_map(|b| {
            let ids = b.block.tx_ids.clone();
            b.block
                .block
                .txs()
                .into_iter()
                .map(|t| t.unsigned.clone())
                .zip(ids)
                .map(|(t, id)| (id, t))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut later = 0;
    let register = l1_txs.iter().find_map(|(id, tx)| match tx {
        UnsignedTx::RegisterL1ValidatorTx(t) => Some((*id, carried(&t.message))),
        _ => None,
    });
    if let Some((id, payload)) = register {
        let m = L1Message::L1ValidatorRegistration(L1ValidatorRegistration {
            validation_id: registration_validation_id(&payload),
            registered: true,
        });
        let r = w.api.get(&format!("{AGG}/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        check(
            r.json()["signedMessage"].as_str().unwrap(),
            &p_message(&w, &m),
            &at_tip,
            67,
        );
        later += 1;
    }
    let weight = l1_txs.iter().find_map(|(id, tx)| match tx {
        UnsignedTx::SetL1ValidatorWeightTx(t) => match L1Message::parse(&carried(&t.message)) {
            Ok(L1Message::L1ValidatorWeight(v)) if v.weight > 0 => {
                Some((*id, L1Message::L1ValidatorWeight(v)))
            }
            _ => None,
        },
        _ => None,
    });
    if let Some((id, m)) = weight {
        let r = w.api.get(&format!("{AGG}/{id}"));
        assert_eq!(r.status, 200, "{}", r.body);
        check(
            r.json()["signedMessage"].as_str().unwrap(),
            &p_message(&w, &m),
            &at_tip,
            67,
        );
        later += 1;
    }
    assert_eq!(later, 2, "the devnet registers and reweighs L1 validators");

    // A past height at which no L1 validator is inactive: the set of that height signs.
    let converted = w
        .model
        .blocks
        .iter()
        .find(|b| b.tx_ids.contains(&tx_id))
        .unwrap()
        .height;
    let past = (converted..tip)
        .rev()
        .find(|h| {
            l1_set(&w.model, &subnet, *h)
                .iter()
                .all(|(_, k)| k.is_some())
        })
        .unwrap();
    let at_past = l1_set(&w.model, &subnet, past);
    assert_ne!(at_past, at_tip);
    let r = post(
        &w.api,
        &json!({"message": hex::encode(expected.bytes()), "signingSubnetId": subnet.to_string(),
                "justification": hex::encode(subnet.0), "pChainHeight": past}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    check(
        r.json()["signedMessage"].as_str().unwrap(),
        &expected,
        &at_past,
        67,
    );

    // Mistakes are 4xx naming what is wrong.
    let base = w
        .model
        .blocks
        .iter()
        .flat_map(|b| b.tx_ids.clone())
        .find(|id| *id != tx_id);
    let r = w.api.get(&format!("{AGG}/{}", base.unwrap()));
    assert!(matches!(r.status, 404), "{}", r.body);
    assert_eq!(w.api.get(&format!("{AGG}/{}", Id([3; 32]))).status, 404);
    let mut other_network = c_chain_message.clone();
    other_network.network_id = 5;
    for (body, status, needle) in [
        (
            json!({"message": hex::encode(other_network.bytes())}),
            400,
            "network",
        ),
        (
            json!({"message": hex::encode(UnsignedMessage { source_chain_id: Id([5; 32]), ..c_chain_message.clone() }.bytes())}),
            400,
            "signingSubnetId",
        ),
        (json!({"message": "0x1234"}), 400, "message"),
        (
            json!({"message": hex_message, "pChainHeight": 1_000_000}),
            400,
            "pChainHeight",
        ),
        (json!({"justification": "0x00"}), 400, "message"),
    ] {
        let r = post(&w.api, &body);
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert!(r.body.contains(needle), "{body}: {}", r.body);
    }
}

#[test]
fn an_unreachable_quorum_is_a_503_saying_how_far_it_got() {
    // One validator down: 100% cannot be reached.
    let model_nodes = nodes();
    let w = world(&[model_nodes[0].node_id]);
    let m = UnsignedMessage {
        network_id: w.net.network_id,
        source_chain_id: w.net.c_chain_id,
        payload: Payload::Hash(Id([9; 32])).bytes(),
    };
    let r = post(
        &w.api,
        &json!({"message": hex::encode(m.bytes()), "quorumPercentage": 100}),
    );
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.body.contains("reached weight"), "{}", r.body);
    // 60% still can.
    let r = post(
        &w.api,
        &json!({"message": hex::encode(m.bytes()), "quorumPercentage": 60}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    check(
        r.json()["signedMessage"].as_str().unwrap(),
        &m,
        &primary_set(&w.model),
        60,
    );
}
