//! An independent replay of the devnet's P-Chain stream (its own ledger, not the generator's
//! code): blocks parse and chain, proposervm signatures verify against the proposers'
//! certificates, every input spends an existing unspent UTXO signed by its owners, fees are
//! burned, AVAX is conserved up to the committed rewards, reward proposals name the right
//! staker at its end time with the calculator's amounts, BLS proofs of possession and Warp
//! signatures verify.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

#[path = "common/creplay.rs"]
mod creplay;

use std::collections::{BTreeMap, HashMap};

use blst::BLST_ERROR;
use blst::min_pk::{AggregatePublicKey, PublicKey, Signature};
use p256::ecdsa::signature::hazmat::PrehashVerifier;
use p256::ecdsa::{Signature as EcdsaSignature, VerifyingKey};
use snowline_devnet::nodes::{BLS_POP_DST, BLS_SIG_DST};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
use snowline_types::hashing::{hash160, sha256};
use snowline_types::platformvm::reward::Config as RewardConfig;
use snowline_types::platformvm::reward_utxos::{
    RewardBranch, delegator_reward_utxos, validator_reward_utxos,
};
use snowline_types::platformvm::{
    Auth, Block, Credential, TransferableIn, TransferableOut, UnsignedTx, parse_block,
};
use snowline_types::proposervm;
use snowline_types::secp256k1::recover;
use snowline_types::warp::{L1Message, Message, Payload, RegisterL1Validator};
use snowline_types::{Id, NodeId};

/// Checks `sigs` recover to `owners.addrs[sig_indices]` (secp256k1fx `VerifyCredentials`).
fn check_sigs(hash: &[u8; 32], owners: &OutputOwners, idx: &[u32], cred: &Credential) {
    let sigs = cred.signatures();
    assert_eq!(sigs.len(), idx.len(), "one signature per index");
    assert_eq!(idx.len(), owners.threshold as usize, "threshold signatures");
    for (i, sig) in idx.iter().zip(sigs) {
        let addr = recover(hash, sig).unwrap().address();
        assert_eq!(addr, owners.addrs[*i as usize], "signature from the owner");
    }
}

/// The P-256 public key of a DER certificate: the 65-byte point after `BIT STRING 0x42 0x00`.
fn cert_key(cert: &[u8]) -> VerifyingKey {
    let at = cert
        .windows(4)
        .position(|w| w == [0x03, 0x42, 0x00, 0x04])
        .expect("EC point in certificate");
    VerifyingKey::from_sec1_bytes(&cert[at + 3..at + 3 + 65]).unwrap()
}

fn verify_pop(pk: &[u8; 48], pop: &[u8; 96]) {
    let k = PublicKey::key_validate(pk).unwrap();
    let s = Signature::from_bytes(pop).unwrap();
    assert_eq!(
        s.verify(true, pk, BLS_POP_DST, &[], &k, true),
        BLST_ERROR::BLST_SUCCESS,
        "proof of possession"
    );
}

#[derive(Clone)]
struct Staker {
    tx_id: Id,
    tx: UnsignedTx,
    start: u64,
    end: u64,
    node: NodeId,
    reward: u64,
    delegator: bool,
}

#[derive(Clone)]
struct L1Val {
    pk: [u8; 48],
    weight: u64,
    nonce: u64,
    active: bool,
    disable_owner: OutputOwners,
}

#[derive(Default)]
struct Ledger {
    utxos: HashMap<Id, (UtxoId, TransferableOut)>,
    shared: HashMap<Id, (UtxoId, TransferableOut)>,
    /// What X and P exported to C and C has not imported: UTXO id -> (exporting chain, output).
    to_c: HashMap<Id, (Id, TransferOutput)>,
    c: creplay::CReplay,
    stakers: BTreeMap<(u64, u8, Id), Staker>,
    deferred: HashMap<NodeId, u64>,
    supply: u64,
    in_total: u128,
    out_total: u128,
    burned: u128,
    minted: u128,
    staked: u128,
    l1_balance: u128,
    subnets: HashMap<Id, OutputOwners>,
    chains: HashMap<Id, Id>,
    l1: HashMap<Id, BTreeMap<Id, L1Val>>,
    counts: BTreeMap<&'static str, u32>,
    locked_stakes: u32,
}

impl Ledger {
    fn spend(
        &mut self,
        ins: &[snowline_types::platformvm::TransferableInput],
        shared: bool,
        hash: &[u8; 32],
        creds: &[Credential],
    ) -> u64 {
        let mut total = 0;
        for (input, cred) in ins.iter().zip(creds) {
            let map = if shared {
                &mut self.shared
            } else {
                &mut self.utxos
            };
            let (_, out) = map
                .remove(&input.utxo_id.id())
                .expect("spends an existing unspent UTXO");
            let (amount, idx) = match (&input.input, &out) {
                (TransferableIn::Secp256k1(i), TransferableOut::Secp256k1(_)) => {
                    (i.amount, &i.input.sig_indices)
                }
                (TransferableIn::StakeableLock(l), TransferableOut::StakeableLock(o)) => {
                    assert_eq!(l.locktime, o.locktime, "lock times match");
                    (l.input.amount, &l.input.input.sig_indices)
                }
                _ => panic!("input and output lock kinds differ"),
            };
            assert_eq!(amount, out.amount(), "input amount is the UTXO's");
            check_sigs(hash, out.owners(), idx, cred);
            total += amount;
        }
        total
    }
}

fn warp_check(l: &Ledger, subnet: &Id, network_id: u32, bytes: &[u8]) -> Vec<u8> {
    let m = Message::parse(bytes).unwrap();
    assert_eq!(m.unsigned.network_id, network_id);
    assert_eq!(
        l.chains.get(&m.unsigned.source_chain_id),
        Some(subnet),
        "sent by the L1's chain"
    );
    // Canonical set (`FlattenValidatorSet`): active validators by uncompressed BLS key.
    let mut set: Vec<&L1Val> = l.l1[subnet]
        .values()
        .filter(|v| v.active && v.weight > 0)
        .collect();
    set.sort_by_key(|v| PublicKey::from_bytes(&v.pk).unwrap().serialize());
    let total: u64 = set.iter().map(|v| v.weight).sum();
    let signers = m.signature.signer_indices().unwrap();
    let pks: Vec<PublicKey> = signers
        .iter()
        .map(|i| PublicKey::from_bytes(&set[*i].pk).unwrap())
        .collect();
    let refs: Vec<&PublicKey> = pks.iter().collect();
    let agg = AggregatePublicKey::aggregate(&refs, true)
        .unwrap()
        .to_public_key();
    let sig = Signature::from_bytes(&m.signature.signature).unwrap();
    let unsigned = m.unsigned.bytes();
    assert_eq!(
        sig.verify(true, &unsigned, BLS_SIG_DST, &[], &agg, true),
        BLST_ERROR::BLST_SUCCESS,
        "warp signature"
    );
    let weight: u64 = signers.iter().map(|i| set[*i].weight).sum();
    // `warp/signature.go` `VerifyWeight` with quorum 67/100.
    assert!(u128::from(weight) * 100 >= u128::from(total) * 67, "quorum");
    let Payload::AddressedCall(call) = Payload::parse(&m.unsigned.payload).unwrap() else {
        panic!("not an AddressedCall")
    };
    call.payload
}

fn x_exports_to_p(rec: &ContainerRecord, net: &snowline_types::NetworkInfo, l: &mut Ledger) {
    let p_chain = net.p_chain_id;
    use snowline_types::avm;
    let txs: Vec<avm::ParsedTx> = match rec.path {
        IndexPath::XVtx => snowline_types::vertex::Vertex::parse(&rec.bytes)
            .unwrap()
            .vertex
            .txs
            .iter()
            .map(|b| avm::Tx::parse(b).unwrap())
            .collect(),
        IndexPath::XBlock => {
            let outer = proposervm::Block::parse(&rec.bytes).unwrap();
            let inner = avm::StandardBlock::parse(outer.block.inner()).unwrap();
            (0..inner.block.txs.len())
                .map(|i| avm::Tx::parse(&inner.tx_signed_bytes(i).unwrap()).unwrap())
                .collect()
        }
        _ => return,
    };
    for t in txs {
        let avm::UnsignedTx::Export(e) = &t.tx.unsigned else {
            continue;
        };
        for (i, o) in e.exported_outputs.iter().enumerate() {
            let avm::TransferableOut::Secp256k1(to) = &o.output;
            let id = UtxoId::new(t.id, u32::try_from(e.base.outputs.len() + i).unwrap());
            if e.destination_chain == p_chain {
                l.shared
                    .insert(id.id(), (id, TransferableOut::Secp256k1(to.clone())));
            } else if e.destination_chain == net.c_chain_id {
                l.to_c.insert(id.id(), (net.x_chain_id, to.clone()));
            }
        }
    }
}

/// Replays the P records of `recs`; returns the ledger.
fn replay(d: &Devnet, recs: &[ContainerRecord]) -> Ledger {
    let g = d.p_genesis();
    let net = d.genesis().network.clone();
    let cfg = RewardConfig::for_network(net.network_id);
    let mut l = Ledger {
        supply: g.initial_supply,
        ..Ledger::default()
    };
    assert!(g.atomic_utxos.is_empty());
    for u in &g.utxos {
        l.in_total += u128::from(u.output.amount());
        l.utxos
            .insert(u.utxo_id.id(), (u.utxo_id, u.output.clone()));
    }
    let mut genesis_nodes = Vec::new();
    for v in &g.validators {
        let UnsignedTx::AddPermissionlessValidatorTx(t) = &v.tx.unsigned else {
            panic!("genesis validator type")
        };
        let pop = t.signer.public_key().unwrap();
        if let snowline_types::platformvm::Signer::ProofOfPossession(p) = &t.signer {
            verify_pop(pop, &p.proof_of_possession);
        }
        let weight: u64 = t.stake.iter().map(|o| o.output.amount()).sum();
        l.in_total += u128::from(weight);
        l.staked += u128::from(weight);
        // `state.go` `syncGenesis`: each validator's potential reward at the supply so far.
        let dur = (t.validator.end - t.validator.start) * 1_000_000_000;
        let reward = cfg.calculate(dur, weight, l.supply);
        l.supply += reward;
        genesis_nodes.push(t.validator.node_id);
        l.stakers.insert(
            (t.validator.end, 1, v.id),
            Staker {
                tx_id: v.id,
                tx: v.tx.unsigned.clone(),
                start: t.validator.start,
                end: t.validator.end,
                node: t.validator.node_id,
                reward,
                delegator: false,
            },
        );
    }
    assert_eq!(g.chains.len(), 2);
    assert_eq!(
        g.chains[0].id, net.x_chain_id,
        "the X-Chain's CreateChainTx has the local X-Chain id"
    );
    let gblock = d.p_genesis_block();
    let (mut prev_inner, mut prev_outer, mut prev_height, mut prev_time) =
        (gblock.id(), gblock.id(), 0u64, g.timestamp);
    let mut prev_ts = i64::MIN;
    let mut pending_reward: Option<(Staker, u64)> = None;
    for rec in recs {
        assert!(rec.timestamp_ns > prev_ts, "timestamps strictly increase");
        prev_ts = rec.timestamp_ns;
        if rec.path == IndexPath::CBlock {
            let made = l.c.apply(
                rec,
                net.network_id,
                net.c_chain_id,
                net.avax_asset_id,
                snowline_devnet::C_TX_FEE,
                &mut l.to_c,
            );
            // C-Chain ExportTxs to P fill the P-Chain's shared memory.
            for (dest, (utxo_id, _, out)) in made {
                if dest == net.p_chain_id {
                    l.shared
                        .insert(utxo_id.id(), (utxo_id, TransferableOut::Secp256k1(out)));
                }
            }
            continue;
        }
        if rec.path != IndexPath::PBlock {
            x_exports_to_p(rec, &net, &mut l);
            continue;
        }
        rec.check_id().unwrap();
        let b = parse_block(&rec.bytes).unwrap();
        let prop = b.proposer.expect("wrapped");
        assert_eq!(prop.parent_id, prev_outer, "proposervm parents chain");
        assert_eq!(b.block.block.parent_id(), prev_inner, "inner parents chain");
        assert_eq!(b.block.block.height(), prev_height + 1, "heights chain");
        let time = b.block.block.timestamp().expect("Banff");
        assert!(time >= prev_time, "block times never go back");
        let outer = proposervm::Block::parse(&rec.bytes).unwrap();
        match &outer.block {
            proposervm::Block::Stateless(s) => {
                // `vms/proposervm/block/block.go` `verify`: the signature covers sha256 of the
                // header (chain, parent, block id) and is checked with the certificate's key.
                let node = prop.node_id.expect("signed");
                assert_eq!(node.0.0, hash160(&s.certificate), "node id = hash160(cert)");
                assert!(
                    genesis_nodes.contains(&node),
                    "proposer is a genesis validator"
                );
                assert_eq!(s.timestamp, i64::try_from(time).unwrap());
                let header = outer.block.signed_header(net.p_chain_id).unwrap();
                let sig = EcdsaSignature::from_der(&s.signature).unwrap();
                cert_key(&s.certificate)
                    .verify_prehash(&sha256(&header), &sig)
                    .expect("proposer signature");
                assert!(pending_reward.is_none(), "an option follows each proposal");
            }
            proposervm::Block::Option { .. } => {
                assert!(pending_reward.is_some(), "option without proposal")
            }
        }
        prev_outer = prop.id;
        prev_inner = b.block.id;
        prev_height = b.block.block.height();
        prev_time = time;
        *l.counts.entry(b.block.block.type_name()).or_default() += 1;
        match &b.block.block {
            Block::BanffCommit { .. } | Block::BanffAbort { .. } => {
                let (s, _) = pending_reward.take().unwrap();
                let branch = if matches!(b.block.block, Block::BanffCommit { .. }) {
                    RewardBranch::Commit
                } else {
                    RewardBranch::Abort
                };
                let utxos = if s.delegator {
                    let v = l
                        .stakers
                        .values()
                        .find(|v| !v.delegator && v.node == s.node)
                        .expect("validator of a delegator is current")
                        .clone();
                    let r = delegator_reward_utxos(s.tx_id, &s.tx, branch, s.reward, &v.tx, true)
                        .unwrap();
                    *l.deferred.entry(s.node).or_default() += r.deferred_delegatee_reward;
                    r.utxos
                } else {
                    let deferred = l.deferred.remove(&s.node).unwrap_or(0);
                    validator_reward_utxos(s.tx_id, &s.tx, branch, s.reward, deferred).unwrap()
                };
                let stake: u64 = s.tx.stake().iter().map(|o| o.output.amount()).sum();
                l.staked -= u128::from(stake);
                let paid: u64 = utxos.iter().map(|u| u.utxo.output.amount()).sum();
                l.minted += u128::from(paid - stake);
                if branch == RewardBranch::Abort {
                    l.supply -= s.reward;
                }
                for u in utxos {
                    assert!(
                        l.utxos
                            .insert(u.utxo.utxo_id.id(), (u.utxo.utxo_id, u.utxo.output))
                            .is_none()
                    );
                }
                continue;
            }
            Block::BanffProposal { txs, .. } => assert!(txs.is_empty()),
            Block::BanffStandard { txs, .. } => assert!(!txs.is_empty()),
            _ => panic!("pre-Banff block"),
        }
        for (tx, id) in b.block.block.txs().into_iter().zip(&b.block.tx_ids) {
            *l.counts.entry(tx.unsigned.type_name()).or_default() += 1;
            let hash = sha256(&tx.unsigned.bytes());
            if let UnsignedTx::RewardValidatorTx(r) = &tx.unsigned {
                // `proposal_tx_executor.go` `RewardValidatorTx`: the first current staker, whose
                // end time is the block's time.
                let (key, s) = l.stakers.pop_first().expect("a current staker");
                assert_eq!(s.tx_id, r.tx_id, "names the first staker");
                assert_eq!(key.0, time, "at its end time");
                assert!(tx.credentials.is_empty());
                pending_reward = Some((s, time));
                continue;
            }
            let base = tx.unsigned.base().unwrap();
            assert_eq!(base.network_id, net.network_id);
            assert_eq!(base.blockchain_id, net.p_chain_id);
            let n_in = base.inputs.len();
            let mut consumed = l.spend(&base.inputs, false, &hash, &tx.credentials);
            let mut produced: u64 = base.outputs.iter().map(|o| o.output.amount()).sum();
            let stake: u64 = tx.unsigned.stake().iter().map(|o| o.output.amount()).sum();
            produced += stake;
            l.staked += u128::from(stake);
            let extra_creds = &tx.credentials[n_in..];
            let subnet_auth = |l: &Ledger, subnet: &Id, auth: &Auth, cred: &Credential| {
                let Auth::Secp256k1(i) = auth;
                check_sigs(&hash, &l.subnets[subnet], &i.sig_indices, cred);
            };
            match &tx.unsigned {
                UnsignedTx::AddPermissionlessValidatorTx(t) => {
                    assert_eq!(t.validator.start, time);
                    assert!(t.validator.end >= time + 86_400, "MinStakeDuration");
                    assert!(stake >= 2_000_000_000_000, "MinValidatorStake");
                    if let snowline_types::platformvm::Signer::ProofOfPossession(p) = &t.signer {
                        verify_pop(&p.public_key, &p.proof_of_possession);
                    } else {
                        panic!("primary validators have BLS keys");
                    }
                    if t.stake.iter().any(|o| o.output.stakeable_locktime() > 0) {
                        l.locked_stakes += 1;
                    }
                    // `standard_tx_executor.go` `putStaker`: reward at the current supply.
                    let reward =
                        cfg.calculate((t.validator.end - time) * 1_000_000_000, stake, l.supply);
                    l.supply += reward;
                    l.stakers.insert(
                        (t.validator.end, 1, *id),
                        Staker {
                            tx_id: *id,
                            tx: tx.unsigned.clone(),
                            start: time,
                            end: t.validator.end,
                            node: t.validator.node_id,
                            reward,
                            delegator: false,
                        },
                    );
                }
                UnsignedTx::AddPermissionlessDelegatorTx(t) => {
                    let v = l
                        .stakers
                        .values()
                        .find(|v| !v.delegator && v.node == t.validator.node_id)
                        .expect("delegates to a current validator");
                    assert!(
                        v.start <= time && t.validator.end <= v.end,
                        "within the validator's period"
                    );
                    assert!(t.validator.end >= time + 86_400);
                    assert!(stake >= 25_000_000_000, "MinDelegatorStake");
                    if t.stake.iter().any(|o| o.output.stakeable_locktime() > 0) {
                        l.locked_stakes += 1;
                    }
                    let reward =
                        cfg.calculate((t.validator.end - time) * 1_000_000_000, stake, l.supply);
                    l.supply += reward;
                    l.stakers.insert(
                        (t.validator.end, 0, *id),
                        Staker {
                            tx_id: *id,
                            tx: tx.unsigned.clone(),
                            start: time,
                            end: t.validator.end,
                            node: t.validator.node_id,
                            reward,
                            delegator: true,
                        },
                    );
                }
                UnsignedTx::CreateSubnetTx(t) => {
                    l.subnets.insert(*id, t.owner.owners().clone());
                }
                UnsignedTx::CreateChainTx(t) => {
                    subnet_auth(&l, &t.subnet_id, &t.subnet_auth, &extra_creds[0]);
                    serde_json::from_slice::<serde_json::Value>(&t.genesis_data)
                        .expect("genesis JSON");
                    l.chains.insert(*id, t.subnet_id);
                }
                UnsignedTx::ConvertSubnetToL1Tx(t) => {
                    subnet_auth(&l, &t.subnet_id, &t.subnet_auth, &extra_creds[0]);
                    assert_eq!(l.chains.get(&t.chain_id), Some(&t.subnet_id));
                    let mut set = BTreeMap::new();
                    for (i, v) in t.validators.iter().enumerate() {
                        verify_pop(&v.signer.public_key, &v.signer.proof_of_possession);
                        produced += v.balance;
                        l.l1_balance += u128::from(v.balance);
                        let owner = OutputOwners::new(
                            v.deactivation_owner.threshold,
                            v.deactivation_owner.addresses.clone(),
                        );
                        set.insert(
                            snowline_types::warp::conversion_validation_id(
                                &t.subnet_id,
                                u32::try_from(i).unwrap(),
                            ),
                            L1Val {
                                pk: v.signer.public_key,
                                weight: v.weight,
                                nonce: 0,
                                active: true,
                                disable_owner: owner,
                            },
                        );
                    }
                    assert!(
                        t.validators.windows(2).all(|w| w[0].node_id < w[1].node_id),
                        "sorted by node id"
                    );
                    l.l1.insert(t.subnet_id, set);
                }
                UnsignedTx::RegisterL1ValidatorTx(t) => {
                    let subnet = *l.l1.keys().next().unwrap();
                    let msg = warp_check(&l, &subnet, net.network_id, &t.message);
                    let L1Message::RegisterL1Validator(r) = L1Message::parse(&msg).unwrap() else {
                        panic!("not a registration")
                    };
                    let r: RegisterL1Validator = r;
                    assert_eq!(r.subnet_id, subnet);
                    assert!(
                        r.expiry > time && r.expiry <= time + 86_400,
                        "expiry within a day"
                    );
                    verify_pop(&r.bls_public_key, &t.proof_of_possession);
                    produced += t.balance;
                    l.l1_balance += u128::from(t.balance);
                    let owner = OutputOwners::new(
                        r.disable_owner.threshold,
                        r.disable_owner.addresses.clone(),
                    );
                    l.l1.get_mut(&subnet).unwrap().insert(
                        Id(sha256(&msg)),
                        L1Val {
                            pk: r.bls_public_key,
                            weight: r.weight,
                            nonce: 0,
                            active: true,
                            disable_owner: owner,
                        },
                    );
                }
                UnsignedTx::SetL1ValidatorWeightTx(t) => {
                    let subnet = *l.l1.keys().next().unwrap();
                    let msg = warp_check(&l, &subnet, net.network_id, &t.message);
                    let L1Message::L1ValidatorWeight(w) = L1Message::parse(&msg).unwrap() else {
                        panic!("not a weight")
                    };
                    let v =
                        l.l1.get_mut(&subnet)
                            .unwrap()
                            .get_mut(&w.validation_id)
                            .expect("known validator");
                    assert!(w.nonce >= v.nonce, "nonce not reused");
                    v.nonce = w.nonce + 1;
                    v.weight = w.weight;
                }
                UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                    assert!(l.l1.values().any(|s| s.contains_key(&t.validation_id)));
                    produced += t.balance;
                    l.l1_balance += u128::from(t.balance);
                }
                UnsignedTx::DisableL1ValidatorTx(t) => {
                    let v =
                        l.l1.values_mut()
                            .find_map(|s| s.get_mut(&t.validation_id))
                            .expect("known validator")
                            .clone();
                    let Auth::Secp256k1(i) = &t.disable_auth;
                    check_sigs(&hash, &v.disable_owner, &i.sig_indices, &extra_creds[0]);
                    for s in l.l1.values_mut() {
                        if let Some(v) = s.get_mut(&t.validation_id) {
                            v.active = false;
                        }
                    }
                }
                UnsignedTx::ImportTx(t) => {
                    assert!(t.source_chain == net.x_chain_id || t.source_chain == net.c_chain_id);
                    if t.source_chain == net.c_chain_id {
                        *l.counts.entry("ImportTx from C").or_default() += 1;
                    }
                    let got = l.spend(&t.imported_inputs, true, &hash, extra_creds);
                    consumed += got;
                    l.in_total += u128::from(got);
                }
                UnsignedTx::ExportTx(t) => {
                    let sent: u64 = t.exported_outputs.iter().map(|o| o.output.amount()).sum();
                    if t.destination_chain == net.c_chain_id {
                        *l.counts.entry("ExportTx to C").or_default() += 1;
                        let n = t.base.outputs.len();
                        for (i, o) in t.exported_outputs.iter().enumerate() {
                            let TransferableOut::Secp256k1(to) = &o.output else {
                                panic!("exports a locked output");
                            };
                            let id = UtxoId::new(*id, u32::try_from(n + i).unwrap());
                            l.to_c.insert(id.id(), (net.p_chain_id, to.clone()));
                        }
                    } else {
                        assert_eq!(t.destination_chain, net.x_chain_id);
                    }
                    produced += sent;
                    l.out_total += u128::from(sent);
                }
                UnsignedTx::BaseTx(_) => {}
                other => panic!("unexpected tx {}", other.type_name()),
            }
            let fee = consumed
                .checked_sub(produced)
                .expect("inputs cover outputs");
            // Local static fees: 100 mAVAX to create a subnet or chain, 1 mAVAX otherwise.
            let want = match &tx.unsigned {
                UnsignedTx::CreateSubnetTx(_) | UnsignedTx::CreateChainTx(_) => 100_000_000,
                _ => 1_000_000,
            };
            assert_eq!(fee, want, "burns the fee");
            l.burned += u128::from(fee);
            for (i, o) in base.outputs.iter().enumerate() {
                let uid = UtxoId::new(*id, u32::try_from(i).unwrap());
                l.utxos.insert(uid.id(), (uid, o.output.clone()));
            }
        }
    }
    assert!(pending_reward.is_none());
    l
}

fn run(cfg: DevnetConfig) -> (Devnet, Ledger) {
    let mut d = Devnet::generate(cfg).unwrap();
    let recs: Vec<ContainerRecord> = d.by_ref().map(|r| r.unwrap()).collect();
    let l = replay(&d, &recs);
    check_conservation(&d, &l);
    (d, l)
}

/// AVAX is conserved and the supply is the generator's.
fn check_conservation(d: &Devnet, l: &Ledger) {
    // AVAX is conserved: what came in (genesis, imports) plus the minted rewards equals what is
    // left (UTXOs, current stake, L1 balances) plus what left (exports) and the burned fees.
    let left: u128 = l.utxos.values().map(|(_, o)| u128::from(o.amount())).sum();
    assert_eq!(
        l.in_total + l.minted,
        left + l.staked + l.l1_balance + l.out_total + l.burned
    );
    assert_eq!(
        l.supply,
        d.p_current_supply(),
        "the supply the generator keeps"
    );
}

#[test]
fn small_p_chain_replays_with_every_kind() {
    let (d, l) = run(DevnetConfig::small());
    eprintln!("P-Chain kinds: {:?}", l.counts);
    for kind in [
        "BaseTx",
        "AddPermissionlessValidatorTx",
        "AddPermissionlessDelegatorTx",
        "RewardValidatorTx",
        "CreateSubnetTx",
        "CreateChainTx",
        "ConvertSubnetToL1Tx",
        "RegisterL1ValidatorTx",
        "SetL1ValidatorWeightTx",
        "IncreaseL1ValidatorBalanceTx",
        "DisableL1ValidatorTx",
        "ImportTx",
        "ExportTx",
        "ImportTx from C",
        "ExportTx to C",
        "BanffStandardBlock",
        "BanffProposalBlock",
        "BanffCommitBlock",
        "BanffAbortBlock",
    ] {
        assert!(l.counts.get(kind).copied().unwrap_or(0) > 0, "no {kind}");
    }
    assert!(l.locked_stakes >= 2, "stakes from stakeable-locked outputs");
    assert!(
        l.stakers
            .values()
            .any(|s| s.delegator || s.start > d.p_genesis().timestamp),
        "stakers still current at the end"
    );
    assert!(l.minted > 0);
}

#[test]
fn other_seeds_and_the_large_preset_replay() {
    run(DevnetConfig::small().with_seed(7));
    let (d, _) = run(DevnetConfig::large(20_000));
    assert!(
        d.stats().p_txs >= 3_000,
        "large(20000) made {} P txs",
        d.stats().p_txs
    );
}

#[test]
fn the_live_continuation_keeps_the_p_chain_rules() {
    let mut d = Devnet::generate(DevnetConfig::small()).unwrap();
    let mut recs: Vec<ContainerRecord> = d.by_ref().map(|r| r.unwrap()).collect();
    let history_p_txs = d.stats().p_txs;
    let mut live = d.into_live().unwrap();
    let mut now = 1_790_000_000_000_000_000i64;
    let mut clock = || {
        now += 1_000_000;
        now
    };
    // Live standard blocks are a minute of chain time apart: the history's last stakers end
    // about a day after it, so run until a few of them have been rewarded.
    let is_reward = |r: &ContainerRecord| {
        r.path == IndexPath::PBlock
            && matches!(
                parse_block(&r.bytes).unwrap().block.block,
                Block::BanffProposal { .. }
            )
    };
    let mut rewards = 0;
    while rewards < 3 {
        assert!(live.devnet().stats().p_blocks < 10_000, "no staker ended");
        let step = live.step(&mut clock).unwrap();
        rewards += step.iter().filter(|r| is_reward(r)).count();
        recs.extend(step);
    }
    let l = replay(live.devnet(), &recs);
    check_conservation(live.devnet(), &l);
    // Standard blocks with txs came too, not only the reward proposals.
    assert!(live.devnet().stats().p_txs > history_p_txs + rewards as u64);
}
