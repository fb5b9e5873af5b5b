//! Ingests a hand-built P-Chain history through the node-index loop with [`PChain`] and checks
//! the derived rows against what avalanchego's rules give, computed here from the reward
//! calculator (`vms/platformvm/reward/calculator.go`) and the executors' rules
//! (`txs/executor/proposal_tx_executor.go`, `standard_tx_executor.go`, `state_changes.go`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use snowline_chain_p::rows::{Holding, Origin, StakerKind};
use snowline_chain_p::tables::{PhBlocks, PhUnspentByTime};
use snowline_chain_p::{PChain, PReader, tables};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, ReadView, Schema, Store};
use snowline_types::components::{TransferableInput, TransferableOutput, UtxoId};
use snowline_types::container::ContainerLine;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::{Input, OutputOwners, TransferInput, TransferOutput};
use snowline_types::platformvm::reward::{Config, split};
use snowline_types::platformvm::txs::{
    AddPermissionlessDelegatorTx, AddPermissionlessValidatorTx, AddValidatorTx, BaseTx,
    ConvertSubnetToL1Tx, ConvertSubnetToL1Validator, CreateSubnetTx, DisableL1ValidatorTx,
    RewardValidatorTx, UnsignedTx, Validator,
};
use snowline_types::platformvm::{
    Auth, Block, CommonBlock, Owner, PGenesisState, ProofOfPossession, Signer, TransferableIn,
    TransferableOut, Tx, Utxo,
};
use snowline_types::warp::l1::{PChainOwner, conversion_validation_id};
use snowline_types::{Id, NodeId, ShortId};

const NET: u32 = 12_345;
const T0: u64 = 1_721_016_000;
const AVAX: Id = Id([7; 32]);
const P: Id = Id::EMPTY;
const X: Id = Id([8; 32]);
const DAY: u64 = 86_400;
const A: ShortId = ShortId([1; 20]);
const B: ShortId = ShortId([2; 20]);

fn owners(a: ShortId) -> OutputOwners {
    OutputOwners::new(1, vec![a])
}

fn out(amount: u64, to: ShortId) -> TransferableOutput<TransferableOut> {
    TransferableOutput {
        asset_id: AVAX,
        output: TransferableOut::Secp256k1(TransferOutput {
            amount,
            owners: owners(to),
        }),
    }
}

fn input(utxo: UtxoId, amount: u64) -> TransferableInput<TransferableIn> {
    TransferableInput {
        utxo_id: utxo,
        asset_id: AVAX,
        input: TransferableIn::Secp256k1(TransferInput {
            amount,
            input: Input {
                sig_indices: vec![0],
            },
        }),
    }
}

fn base(
    inputs: Vec<TransferableInput<TransferableIn>>,
    outputs: Vec<TransferableOutput<TransferableOut>>,
) -> BaseTx {
    BaseTx {
        network_id: NET,
        blockchain_id: P,
        outputs,
        inputs,
        memo: Vec::new(),
    }
}

fn signed(u: UnsignedTx) -> Tx {
    Tx {
        unsigned: u,
        credentials: Vec::new(),
    }
}

fn node(n: u8) -> NodeId {
    NodeId(ShortId([n; 20]))
}

/// Blocks in order, as `P/block` records (bare, as before Snowman++).
struct Chain {
    parent: Id,
    height: u64,
    records: Vec<ContainerRecord>,
}

impl Chain {
    fn push(&mut self, make: impl FnOnce(CommonBlock) -> Block, time: u64) -> Vec<Id> {
        self.height += 1;
        let block = make(CommonBlock {
            parent_id: self.parent,
            height: self.height,
        });
        let bytes = block.bytes();
        let parsed = Block::parse(&bytes).unwrap();
        self.parent = parsed.id;
        self.records.push(ContainerRecord {
            path: IndexPath::PBlock,
            id: parsed.id,
            bytes,
            timestamp_ns: i64::try_from(time).unwrap() * 1_000_000_000,
        });
        parsed.tx_ids
    }

    fn standard(&mut self, time: u64, txs: Vec<UnsignedTx>) -> Vec<Id> {
        self.push(
            |common| Block::BanffStandard {
                time,
                common,
                txs: txs.into_iter().map(signed).collect(),
            },
            time,
        )
    }

    fn reward(&mut self, time: u64, staker: Id, commit: bool) {
        let tx = UnsignedTx::RewardValidatorTx(RewardValidatorTx { tx_id: staker });
        self.push(
            |common| Block::BanffProposal {
                time,
                txs: Vec::new(),
                common,
                tx: signed(tx),
            },
            time,
        );
        self.push(
            |common| {
                if commit {
                    Block::BanffCommit { time, common }
                } else {
                    Block::BanffAbort { time, common }
                }
            },
            time,
        );
    }
}

fn unspent(store: &Store, a: ShortId) -> BTreeSet<Id> {
    store
        .prefix_scan::<PhUnspentByTime, _>(&a, None, Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.2)
        .collect()
}

#[test]
fn staking_rewards_and_l1_fees_follow_avalanchego() {
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir.path(), &schema).unwrap();
    let reward = Config::for_network(NET);
    let supply0 = 360_000_000 * 1_000_000_000;

    // Genesis: 10,000 AVAX to A and a validator staking 2,000 AVAX for a year.
    let g = Id([9; 32]);
    let g0 = Utxo {
        utxo_id: UtxoId::new(g, 0),
        asset_id: AVAX,
        output: TransferableOut::Secp256k1(TransferOutput {
            amount: 10_000_000_000_000,
            owners: owners(A),
        }),
    };
    let gv = UnsignedTx::AddValidatorTx(AddValidatorTx {
        base: base(vec![], vec![]),
        validator: Validator {
            node_id: node(10),
            start: T0,
            end: T0 + 365 * DAY,
            weight: 2_000_000_000_000,
        },
        stake: vec![out(2_000_000_000_000, A)],
        rewards_owner: Owner::Secp256k1(owners(A)),
        delegation_shares: 20_000,
    });
    let gv = Tx::parse(&snowline_types::codec::marshal(&signed(gv))).unwrap();
    let genesis = PGenesisState {
        utxos: vec![g0.clone()],
        validators: vec![gv.clone()],
        chains: vec![],
        timestamp: T0,
        initial_supply: supply0,
        atomic_utxos: vec![],
    };
    let mut hook = PChain::new(NET, P, X, AVAX);
    assert!(hook.apply_genesis(&store, &genesis).unwrap());
    assert!(
        !hook.apply_genesis(&store, &genesis).unwrap(),
        "genesis applies once"
    );
    let r_genesis = reward.calculate_primary_network(
        None,
        T0,
        365 * DAY * 1_000_000_000,
        2_000_000_000_000,
        supply0,
    );
    let supply1 = supply0 + r_genesis;
    assert_eq!(PReader::new(&store).current_supply().unwrap(), supply1);

    let mut chain = Chain {
        parent: Id::EMPTY,
        height: 0,
        records: Vec::new(),
    };
    // A validator (2% fee) staking 2,000 AVAX for 30 days, change back to A.
    let t1 = T0 + 10;
    let vtx = UnsignedTx::AddPermissionlessValidatorTx(AddPermissionlessValidatorTx {
        base: base(
            vec![input(g0.utxo_id, 10_000_000_000_000)],
            vec![out(7_999_000_000_000, A)],
        ),
        validator: Validator {
            node_id: node(1),
            start: 0,
            end: t1 + 30 * DAY,
            weight: 2_000_000_000_000,
        },
        subnet_id: P,
        signer: Signer::ProofOfPossession(ProofOfPossession {
            public_key: [3; 48],
            proof_of_possession: [4; 96],
        }),
        stake: vec![out(2_000_000_000_000, A)],
        validator_rewards_owner: Owner::Secp256k1(owners(A)),
        delegator_rewards_owner: Owner::Secp256k1(owners(A)),
        delegation_shares: 20_000,
    });
    let v_id = chain.standard(t1, vec![vtx])[0];
    let r_v = reward.calculate_primary_network(
        None,
        t1,
        30 * DAY * 1_000_000_000,
        2_000_000_000_000,
        supply1,
    );
    let supply2 = supply1 + r_v;
    // B delegates 100 AVAX for 10 days, paid from A's change.
    let t2 = T0 + 20;
    let dtx = UnsignedTx::AddPermissionlessDelegatorTx(AddPermissionlessDelegatorTx {
        base: base(
            vec![input(UtxoId::new(v_id, 0), 7_999_000_000_000)],
            vec![out(7_898_000_000_000, A)],
        ),
        validator: Validator {
            node_id: node(1),
            start: 0,
            end: t2 + 10 * DAY,
            weight: 100_000_000_000,
        },
        subnet_id: P,
        stake: vec![out(100_000_000_000, B)],
        rewards_owner: Owner::Secp256k1(owners(B)),
    });
    let d_id = chain.standard(t2, vec![dtx])[0];
    let r_d = reward.calculate_primary_network(
        None,
        t2,
        10 * DAY * 1_000_000_000,
        100_000_000_000,
        supply2,
    );
    let supply3 = supply2 + r_d;
    chain.reward(t2 + 10 * DAY, d_id, true);
    chain.reward(t1 + 30 * DAY, v_id, true);

    // An L1 with two validators: 1,000 nAVAX and 1,000,000 nAVAX of balance.
    let t3 = t1 + 30 * DAY + 1;
    let subnet = chain.standard(
        t3,
        vec![UnsignedTx::CreateSubnetTx(CreateSubnetTx {
            base: base(vec![], vec![]),
            owner: Owner::Secp256k1(owners(A)),
        })],
    )[0];
    let l1v = |n: u8, balance: u64| ConvertSubnetToL1Validator {
        node_id: vec![n; 20],
        weight: 100,
        balance,
        signer: ProofOfPossession {
            public_key: [n; 48],
            proof_of_possession: [n; 96],
        },
        remaining_balance_owner: PChainOwner {
            threshold: 1,
            addresses: vec![B],
        },
        deactivation_owner: PChainOwner {
            threshold: 1,
            addresses: vec![A],
        },
    };
    chain.standard(
        t3 + 1,
        vec![UnsignedTx::ConvertSubnetToL1Tx(ConvertSubnetToL1Tx {
            base: base(vec![], vec![]),
            subnet_id: subnet,
            chain_id: Id([5; 32]),
            address: vec![6; 20],
            validators: vec![l1v(21, 1_000), l1v(22, 1_000_000)],
            subnet_auth: Auth::Secp256k1(Input {
                sig_indices: vec![0],
            }),
        })],
    );
    let (v1, v2) = (
        conversion_validation_id(&subnet, 0),
        conversion_validation_id(&subnet, 1),
    );
    chain.standard(t3 + 501, vec![]);
    let disable = chain.standard(
        t3 + 1_101,
        vec![UnsignedTx::DisableL1ValidatorTx(DisableL1ValidatorTx {
            base: base(vec![], vec![]),
            validation_id: v2,
            disable_auth: Auth::Secp256k1(Input {
                sig_indices: vec![0],
            }),
        })],
    )[0];

    let mut writer = IndexWriter::open(&store).unwrap();
    let lines = chain.records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    // Batches of 3 split the proposal from its option: the proposal waits in the store.
    ingest(&store, &mut writer, lines, 3, &mut hook, |_| {}).unwrap();
    let read = PReader::new(&store);

    // Each staker's potential reward, from the supply when it became current.
    let v = read.staker(&v_id).unwrap().unwrap();
    let d = read.staker(&d_id).unwrap().unwrap();
    assert_eq!(
        (v.kind, v.potential_reward, v.start),
        (StakerKind::Validator, r_v, t1)
    );
    assert_eq!(
        (d.kind, d.potential_reward, d.validator_tx),
        (StakerKind::Delegator, r_d, Some(v_id))
    );
    assert!(v.settled.unwrap().rewarded && d.settled.unwrap().rewarded);
    // Commits keep the supply: every potential reward was paid.
    assert_eq!(read.current_supply().unwrap(), supply3);

    // The delegator's reward split: 2% deferred to the validator, the rest to B at index 2
    // (after 1 output and 1 stake); its stake returned unspent at index 1.
    let (fee, delegator_part) = split(r_d, 20_000);
    let d_reward = read.utxo(&UtxoId::new(d_id, 2).id()).unwrap().unwrap();
    assert_eq!(
        (d_reward.origin, d_reward.amount),
        (Origin::DelegationReward, delegator_part)
    );
    let d_stake = read.utxo(&UtxoId::new(d_id, 1).id()).unwrap().unwrap();
    assert_eq!(d_stake.origin, Origin::Stake);
    assert!(d_stake.staked_at(t2 + DAY) && !d_stake.staked_at(t2 + 10 * DAY));
    // The validator: stake at 1, its reward at 2, the deferred fees at 3.
    let v_reward = read.utxo(&UtxoId::new(v_id, 2).id()).unwrap().unwrap();
    assert_eq!(
        (v_reward.origin, v_reward.amount),
        (Origin::ValidationReward, r_v)
    );
    let v_fee = read.utxo(&UtxoId::new(v_id, 3).id()).unwrap().unwrap();
    assert_eq!((v_fee.origin, v_fee.amount), (Origin::DelegateeReward, fee));
    assert_eq!(v_fee.holding, Holding::Native);

    // A: the validator's change, its returned stake, reward and fee, and the genesis
    // validator's stake (staked still); g0 and the first change were spent.
    let a_expected: BTreeSet<Id> = [
        UtxoId::new(d_id, 0),
        UtxoId::new(v_id, 1),
        UtxoId::new(v_id, 2),
        UtxoId::new(v_id, 3),
        UtxoId::new(gv.id, 0),
    ]
    .iter()
    .map(UtxoId::id)
    .collect();
    let mut a_unspent = unspent(&store, A);
    for spent in [g0.id(), UtxoId::new(v_id, 0).id()] {
        assert!(!a_unspent.contains(&spent), "{spent} was spent");
    }
    // B also gets the L1 refund, checked below.
    let b_unspent = unspent(&store, B);
    a_unspent.retain(|id| a_expected.contains(id));
    assert_eq!(a_unspent, a_expected);
    assert!(read.utxo(&g0.id()).unwrap().unwrap().consumed.is_some());

    // L1 fees: 1 nAVAX per second per validator on the local network, accrued for every second
    // since genesis whether a validator is active or not (`advanceValidatorFeeState`); after
    // 500 s both pay 500, after 1,100 s the first (1,000 nAVAX) ran out, and disabling the second
    // refunds 1,000,000 - 1,100 to B at index 0 (the tx has no outputs).
    let height = read.height().unwrap().unwrap();
    let last = store.get::<PhBlocks>(&height).unwrap().unwrap().0;
    let mid = store.get::<PhBlocks>(&(height - 1)).unwrap().unwrap().0;
    assert_eq!(read.l1_accrued_fees().unwrap(), last.timestamp - T0);
    let r1 = read.l1_validator(&v1).unwrap().unwrap();
    let r2 = read.l1_validator(&v2).unwrap().unwrap();
    assert_eq!((r1.end_accumulated_fee, r2.end_accumulated_fee), (0, 0));
    let refund = read.utxo(&UtxoId::new(disable, 0).id()).unwrap().unwrap();
    assert_eq!(refund.amount, 1_000_000 - 1_100);
    assert!(b_unspent.contains(&UtxoId::new(disable, 0).id()));
    assert_eq!(
        (last.active_l1_validators, last.l1_accrued_fees),
        (0, last.timestamp - T0)
    );
    assert_eq!(
        (mid.active_l1_validators, mid.l1_accrued_fees),
        (2, mid.timestamp - T0)
    );
    assert_eq!(last.l1_accrued_fees - mid.l1_accrued_fees, 600);
}
