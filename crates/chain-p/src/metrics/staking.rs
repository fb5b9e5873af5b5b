//! Staking metrics over time: a subnet's validator and delegator counts and weights at the end
//! of each UTC day (an L1's active validators with their current weights), as the metrics API's
//! `/v2/networks/{network}/metrics/{metric}` serves them. Read from the per-day rows ingest
//! writes (`crate::staking_days`): one seek for the figures before the page, then one scan of
//! the page's days, a day without a row repeating the day before.

use snowline_store::{Direction, Linear, Mode, ReadView};
use snowline_types::Id;

use super::SubnetReadError;
use super::l1_usage::DAY;
use crate::pages::PChainPages;
use crate::rows::StakingFigures;
use crate::tables::{META_CHAIN_TIME, META_GENESIS_TIME, PhMeta, PhStakingDays, PhSubnets};

/// One day's point: the figures at the day's end (at the tip for the day in progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StakingPoint {
    /// The day's start, Unix seconds.
    pub timestamp: u64,
    /// The figures after every change before the day's end.
    pub figures: StakingFigures,
    /// The day holds the chain time: later blocks may still change its figures.
    pub in_progress: bool,
}

/// What a staking-metrics page asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StakingQuery {
    /// The subnet (the primary network's id is all zeros).
    pub subnet: Id,
    /// The UTC days served start in `[from, to]`.
    pub from: u64,
    /// See `from`.
    pub to: u64,
    /// Points per page (at least 1).
    pub page_size: usize,
}

/// A page of points, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StakingPage {
    /// The points.
    pub points: Vec<StakingPoint>,
    /// The start of the next (older) day to serve, when there is one: the next page's `to`.
    pub next: Option<u64>,
    /// The chain time the figures are at.
    pub chain_time: u64,
}

impl PChainPages {
    /// A page of `q`'s daily staking points, newest first: every day from the genesis's to the
    /// chain time's. A staker counts from its start, or its acceptance if later, to the
    /// acceptance of the block settling it (the option block after a `RewardValidatorTx`'s
    /// proposal block); an L1 validator while it is active (registered or topped up with a
    /// balance, until its balance is used up, it is disabled or its weight set to 0), with its
    /// current weight.
    pub fn staking_metrics(&self, q: &StakingQuery) -> Result<StakingPage, SubnetReadError> {
        match self.store.mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => staking_in(&*self.store, q),
            _ => staking_in(&self.store.snapshot(), q),
        }
    }
}

fn staking_in(view: &impl ReadView, q: &StakingQuery) -> Result<StakingPage, SubnetReadError> {
    let genesis = view
        .get::<PhMeta>(&META_GENESIS_TIME)?
        .ok_or(SubnetReadError::NotIndexed)?;
    let chain_time = view.get::<PhMeta>(&META_CHAIN_TIME)?.unwrap_or(genesis);
    if q.subnet != Id::default() && view.get::<PhSubnets>(&q.subnet)?.is_none() {
        return Err(SubnetReadError::UnknownSubnet(q.subnet));
    }
    let first = genesis - genesis % DAY;
    let last = chain_time.max(genesis) - chain_time.max(genesis) % DAY;
    let mut page = StakingPage {
        points: Vec::new(),
        next: None,
        chain_time,
    };
    // The day starts in [q.from, q.to] that the index has reached.
    let from = q.from.max(first);
    let to = q.to.min(last);
    let Some(from) = from.div_ceil(DAY).checked_mul(DAY) else {
        return Ok(page);
    };
    let to = to - to % DAY;
    if from > to {
        return Ok(page);
    }
    // The page is the newest `page_size` days starting in [from, to]; the one before them, if
    // any, is the next page's first.
    let wanted = q.page_size.max(1) as u64;
    let count = (to - from) / DAY + 1;
    let oldest = if count > wanted {
        page.next = Some(to - wanted * DAY);
        to - (wanted - 1) * DAY
    } else {
        from
    };
    let mut figures = view
        .scan::<PhStakingDays, _>((q.subnet, 0)..(q.subnet, oldest), Direction::Reverse)?
        .next()
        .transpose()?
        .map(|(_, Linear(f))| f)
        .unwrap_or_default();
    let mut rows = view
        .scan::<PhStakingDays, _>((q.subnet, oldest)..=(q.subnet, to), Direction::Forward)?
        .peekable();
    let mut day = oldest;
    loop {
        let row =
            rows.next_if(|r| r.as_ref().is_err() || r.as_ref().is_ok_and(|((_, d), _)| *d <= day));
        if let Some(r) = row {
            figures = r?.1.0;
        }
        page.points.push(StakingPoint {
            timestamp: day,
            figures,
            in_progress: chain_time < day + DAY,
        });
        if day >= to {
            break;
        }
        day += DAY;
    }
    page.points.reverse();
    Ok(page)
}

#[cfg(test)]
mod tests {
    //! A devnet's P-Chain ingested block by block; after every block, every subnet's daily
    //! points (and at the end, page by page and within a range) equal a model computed here from
    //! the genesis and the blocks' txs alone: a staker tx enters at its block's time (Durango: a
    //! staker starts when accepted), a `RewardValidatorTx` removes the staker it names when the
    //! next block (the proposal's option) is accepted, a `RemoveSubnetValidatorTx` removes the
    //! node's subnet validator at once (avalanchego `txs/executor/proposal_tx_executor.go`,
    //! `block/executor/acceptor.go`, `txs/executor/standard_tx_executor.go`). An L1 validator
    //! counts with its current weight from its registration (conversion or
    //! `RegisterL1ValidatorTx`) with a balance, until disabled or set to weight 0, and again from
    //! a top-up (`IncreaseL1ValidatorBalanceTx`); the devnet's balances (1 AVAX at the local
    //! 1 nAVAX/s) never run out, which the test checks.

    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::collections::BTreeMap;
    use std::sync::Arc;

    use snowline_types::NodeId;
    use snowline_types::platformvm::{self, UnsignedTx};
    use snowline_types::warp::l1::{
        L1Message, conversion_validation_id, registration_validation_id,
    };
    use snowline_types::warp::message::Message;
    use snowline_types::warp::payload::Payload;

    use super::*;
    use crate::test_devnet::PDevnet;

    /// A live staker of the model: subnet, node, validator or delegator, weight.
    #[derive(Clone, Copy)]
    struct Live {
        subnet: Id,
        node: NodeId,
        validator: bool,
        weight: u64,
    }

    /// An L1 validator of the model: subnet, weight, active.
    #[derive(Clone, Copy)]
    struct L1 {
        subnet: Id,
        weight: u64,
        active: bool,
    }

    /// The model's state after a block.
    #[derive(Clone, Default)]
    struct State {
        live: BTreeMap<Id, Live>,
        l1: BTreeMap<Id, L1>,
    }

    fn staker(tx: &UnsignedTx) -> Option<Live> {
        let live = |subnet, v: &platformvm::txs::Validator, validator| Live {
            subnet,
            node: v.node_id,
            validator,
            weight: v.weight,
        };
        match tx {
            UnsignedTx::AddValidatorTx(t) => Some(live(Id::default(), &t.validator, true)),
            UnsignedTx::AddDelegatorTx(t) => Some(live(Id::default(), &t.validator, false)),
            UnsignedTx::AddSubnetValidatorTx(t) => {
                Some(live(t.validator.subnet_id, &t.validator.validator, true))
            }
            UnsignedTx::AddPermissionlessValidatorTx(t) => {
                Some(live(t.subnet_id, &t.validator, true))
            }
            UnsignedTx::AddPermissionlessDelegatorTx(t) => {
                Some(live(t.subnet_id, &t.validator, false))
            }
            _ => None,
        }
    }

    fn figures(state: &State, subnet: Id) -> StakingFigures {
        let mut f = StakingFigures::default();
        for s in state.live.values().filter(|s| s.subnet == subnet) {
            if s.validator {
                f.validator_count += 1;
                f.validator_weight += u128::from(s.weight);
            } else {
                f.delegator_count += 1;
                f.delegator_weight += u128::from(s.weight);
            }
        }
        for v in state.l1.values() {
            if v.subnet == subnet && v.active && v.weight > 0 {
                f.validator_count += 1;
                f.validator_weight += u128::from(v.weight);
            }
        }
        f
    }

    /// The AddressedCall payload of a signed Warp message.
    fn payload(signed: &[u8]) -> Vec<u8> {
        let m = Message::parse(signed).unwrap();
        match Payload::parse(&m.unsigned.payload).unwrap() {
            Payload::AddressedCall(call) => call.payload,
            Payload::Hash(_) => panic!("hash payload"),
        }
    }

    /// Applies an L1 tx; returns the balance it deposits, if any.
    fn apply_l1(l1: &mut BTreeMap<Id, L1>, tx: &UnsignedTx) -> Vec<u64> {
        match tx {
            UnsignedTx::ConvertSubnetToL1Tx(t) => {
                for (i, v) in t.validators.iter().enumerate() {
                    let id = conversion_validation_id(&t.subnet_id, i as u32);
                    l1.insert(
                        id,
                        L1 {
                            subnet: t.subnet_id,
                            weight: v.weight,
                            active: v.balance > 0,
                        },
                    );
                }
                t.validators.iter().map(|v| v.balance).collect()
            }
            UnsignedTx::RegisterL1ValidatorTx(t) => {
                let p = payload(&t.message);
                let Ok(L1Message::RegisterL1Validator(r)) = L1Message::parse(&p) else {
                    panic!("not a registration");
                };
                l1.insert(
                    registration_validation_id(&p),
                    L1 {
                        subnet: r.subnet_id,
                        weight: r.weight,
                        active: t.balance > 0,
                    },
                );
                vec![t.balance]
            }
            UnsignedTx::SetL1ValidatorWeightTx(t) => {
                let Ok(L1Message::L1ValidatorWeight(w)) = L1Message::parse(&payload(&t.message))
                else {
                    panic!("not a weight message");
                };
                if let Some(v) = l1.get_mut(&w.validation_id) {
                    v.weight = w.weight;
                    if w.weight == 0 {
                        v.active = false;
                    }
                }
                vec![]
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                if let Some(v) = l1.get_mut(&t.validation_id) {
                    v.active = v.weight > 0;
                }
                vec![t.balance]
            }
            UnsignedTx::DisableL1ValidatorTx(t) => {
                if let Some(v) = l1.get_mut(&t.validation_id) {
                    v.active = false;
                }
                vec![]
            }
            _ => vec![],
        }
    }

    /// The model after the genesis and after each block, with the time it holds from; and the
    /// smallest L1 balance deposited.
    fn timeline(
        genesis: &platformvm::PGenesisState,
        blocks: &[(u64, Vec<(Id, UnsignedTx)>)],
    ) -> (Vec<(u64, State)>, u64) {
        let mut state = State::default();
        for v in &genesis.validators {
            if let Some(s) = staker(&v.tx.unsigned) {
                state.live.insert(v.id, s);
            }
        }
        let mut out = vec![(genesis.timestamp, state.clone())];
        let mut settling: Vec<Id> = Vec::new();
        let mut least_balance = u64::MAX;
        for (time, txs) in blocks {
            for id in settling.drain(..) {
                state.live.remove(&id);
            }
            for (id, tx) in txs {
                match tx {
                    UnsignedTx::RewardValidatorTx(r) => settling.push(r.tx_id),
                    UnsignedTx::RemoveSubnetValidatorTx(r) => {
                        let found = state.live.iter().find_map(|(id, s)| {
                            (s.validator && s.subnet == r.subnet_id && s.node == r.node_id)
                                .then_some(*id)
                        });
                        if let Some(id) = found {
                            state.live.remove(&id);
                        }
                    }
                    tx => {
                        if let Some(s) = staker(tx) {
                            state.live.insert(*id, s);
                        }
                        for b in apply_l1(&mut state.l1, tx).into_iter().filter(|b| *b > 0) {
                            least_balance = least_balance.min(b);
                        }
                    }
                }
            }
            out.push((*time, state.clone()));
        }
        (out, least_balance)
    }

    /// Every day's point of `subnet`, newest first, from the timeline.
    fn model_points(timeline: &[(u64, State)], subnet: Id) -> Vec<StakingPoint> {
        let genesis = timeline[0].0;
        let tip = timeline.last().unwrap().0;
        let mut points = Vec::new();
        let mut start = genesis / DAY * DAY;
        while start <= tip {
            let end = start + DAY;
            let (_, state) = timeline.iter().rev().find(|(t, _)| *t < end).unwrap();
            points.push(StakingPoint {
                timestamp: start,
                figures: figures(state, subnet),
                in_progress: tip < end,
            });
            start = end;
        }
        points.reverse();
        points
    }

    #[test]
    fn every_subnet_equals_the_model_after_every_block_and_page_by_page() {
        let devnet = PDevnet::generate();
        let p_genesis = &devnet.p_genesis;
        let pages = PChainPages::new(Arc::clone(&devnet.store));
        let q = |subnet, page_size| StakingQuery {
            subnet,
            from: 0,
            to: u64::MAX,
            page_size,
        };
        assert!(matches!(
            pages.staking_metrics(&q(Id::default(), 10)),
            Err(SubnetReadError::NotIndexed)
        ));
        let mut p = devnet.deriver(None);
        let p_records = devnet.p_blocks();

        let mut blocks = Vec::new();
        let mut subnets = vec![Id::default()];
        // Blocks ingested once each subnet exists.
        let mut created = BTreeMap::from([(Id::default(), 0)]);
        for (n, r) in p_records.iter().enumerate() {
            let parsed = platformvm::parse_block(&r.bytes).unwrap().block;
            let txs: Vec<(Id, UnsignedTx)> = parsed
                .block
                .txs()
                .into_iter()
                .zip(&parsed.tx_ids)
                .map(|(t, id)| (*id, t.unsigned.clone()))
                .collect();
            for (id, tx) in &txs {
                if let UnsignedTx::CreateSubnetTx(_) = tx {
                    subnets.push(*id);
                    created.insert(*id, n + 1);
                }
            }
            // An Apricot block has no time of its own: its acceptance time stands in.
            let time = parsed
                .block
                .timestamp()
                .unwrap_or((r.timestamp_ns / 1_000_000_000) as u64);
            blocks.push((time, txs));
        }
        let (timeline, least_balance) = timeline(p_genesis, &blocks);
        let tip = timeline.last().unwrap().0;
        // At 1 nAVAX/s (local, below the target) no balance runs out during the run.
        assert!(least_balance > tip - p_genesis.timestamp, "{least_balance}");

        // Block by block (batches of one, then of several), every subnet's series.
        let mut done = 0;
        for (n, chunk) in [1usize, 7, 64].iter().cycle().enumerate() {
            if done >= p_records.len() {
                break;
            }
            let end = (done + chunk).min(p_records.len());
            p.ingest(&p_records[done..end], 1 + n % 3);
            done = end;
            for subnet in subnets.iter().filter(|s| created[*s] <= done) {
                // The timeline's entry 0 is the genesis; `done` blocks follow it.
                let want = model_points(&timeline[..=done], *subnet);
                let got = pages.staking_metrics(&q(*subnet, 2_160)).unwrap();
                assert_eq!(got.points, want, "subnet {subnet} after {done} blocks");
            }
        }

        let mut l1_validators = 0;
        for subnet in &subnets {
            let want = model_points(&timeline, *subnet);
            // One page holding everything.
            let all = pages.staking_metrics(&q(*subnet, 2_160)).unwrap();
            assert_eq!(all.points, want, "subnet {subnet}");
            assert_eq!(all.next, None);
            assert_eq!(all.chain_time, tip);
            // Pages of every size tile the series.
            for size in [1, 2, 5, 7] {
                let mut got = Vec::new();
                let mut to = u64::MAX;
                loop {
                    let page = pages
                        .staking_metrics(&StakingQuery {
                            to,
                            ..q(*subnet, size)
                        })
                        .unwrap();
                    assert!(page.points.len() <= size);
                    got.extend(page.points);
                    match page.next {
                        Some(next) => to = next,
                        None => break,
                    }
                }
                assert_eq!(got, want, "subnet {subnet}, size {size}");
            }
            // A range keeps the days starting in it.
            if want.len() > 2 {
                let (to, from) = (want[0].timestamp - 1, want[want.len() - 1].timestamp + 1);
                let page = pages
                    .staking_metrics(&StakingQuery {
                        from,
                        to,
                        ..q(*subnet, 2_160)
                    })
                    .unwrap();
                assert_eq!(page.points, want[1..want.len() - 1], "range");
            }
            if *subnet != Id::default() {
                l1_validators += want.iter().map(|p| p.figures.validator_count).sum::<u64>();
            }
        }
        // The series move: the primary network's figures change over the run, and the L1's
        // validators count on its subnet.
        let days = model_points(&timeline, Id::default());
        assert!(days.len() >= 2, "{} days", days.len());
        let states: std::collections::BTreeSet<String> = timeline
            .iter()
            .map(|(_, s)| format!("{:?}", figures(s, Id::default())))
            .collect();
        assert!(states.len() > 3, "{} distinct figures", states.len());
        assert!(days.iter().any(|p| p.figures.delegator_count > 0));
        assert!(subnets.len() > 1);
        assert!(l1_validators > 0);
        assert!(days[0].in_progress && !days[1].in_progress);
        // A subnet never created is refused.
        assert!(matches!(
            pages.staking_metrics(&q(Id::from([7; 32]), 10)),
            Err(SubnetReadError::UnknownSubnet(_))
        ));
    }
}
