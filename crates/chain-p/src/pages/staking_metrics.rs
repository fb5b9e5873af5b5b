//! Staking metrics over time: a subnet's validator and delegator counts and weights at the end
//! of each time bucket, as the metrics API's `/v2/networks/{network}/metrics/{metric}` serves
//! them. Derived per request from the staker rows: each staker of the subnet is one interval
//! `[begin, settled)`; the intervals' edges, sorted by time, are swept once across the buckets.
//! The cost is one scan of every staker row (primary network and subnets) per request, plus one
//! step per bucket from the genesis to the tip.

use snowline_store::{Direction, Linear, Mode, ReadView};
use snowline_types::Id;

use super::PChainPages;
use crate::PChainError;
use crate::rows::{StakerKind, StakerRow};
use crate::tables::{META_CHAIN_TIME, META_GENESIS_TIME, PhMeta, PhStakers, PhSubnets};

/// The four staking figures of a subnet at one time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StakingFigures {
    /// Validators staking (each staker tx counts once: a node validating twice in a row is
    /// two consecutive intervals, never overlapping).
    pub validator_count: u64,
    /// Their own stakes (weights), summed.
    pub validator_weight: u128,
    /// Delegators staking.
    pub delegator_count: u64,
    /// Their stakes, summed.
    pub delegator_weight: u128,
}

/// One bucket's point: the figures at the bucket's end (at the tip for the bucket in progress).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StakingPoint {
    /// The bucket's start, Unix seconds.
    pub timestamp: u64,
    /// The figures after every change before the bucket's end.
    pub figures: StakingFigures,
    /// The bucket holds the chain time: later blocks may still change its figures.
    pub in_progress: bool,
}

/// What a staking-metrics page asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StakingQuery {
    /// The subnet (the primary network's id is all zeros).
    pub subnet: Id,
    /// The bucket length in seconds (buckets are aligned on the Unix epoch: 3,600 for UTC
    /// hours, 86,400 for UTC days); at least 1.
    pub bucket_secs: u64,
    /// The buckets served start in `[from, to]`.
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
    /// The start of the next (older) bucket to serve, when there is one: the next page's `to`.
    pub next: Option<u64>,
    /// The chain time the figures are at.
    pub chain_time: u64,
}

/// Why staking metrics could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StakingMetricsError {
    /// The P-Chain genesis is not indexed.
    #[error("the P-Chain is not indexed by this instance")]
    NotIndexed,
    /// The subnet was never created on the indexed P-Chain.
    #[error("subnet {0} is not known to the indexed P-Chain")]
    UnknownSubnet(Id),
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] PChainError),
}

impl From<snowline_store::StoreError> for StakingMetricsError {
    fn from(e: snowline_store::StoreError) -> Self {
        StakingMetricsError::Read(e.into())
    }
}

/// A change to the figures at a time: a staker entering (`+`) or leaving (`-`).
#[derive(Debug, Clone, Copy)]
struct Edge {
    time: u64,
    validator: bool,
    weight: u64,
    enters: bool,
}

impl StakingFigures {
    fn apply(&mut self, e: &Edge) {
        let (count, weight) = if e.validator {
            (&mut self.validator_count, &mut self.validator_weight)
        } else {
            (&mut self.delegator_count, &mut self.delegator_weight)
        };
        if e.enters {
            *count = count.saturating_add(1);
            *weight = weight.saturating_add(u128::from(e.weight));
        } else {
            *count = count.saturating_sub(1);
            *weight = weight.saturating_sub(u128::from(e.weight));
        }
    }
}

impl PChainPages {
    /// A page of `q`'s staking points, newest first. A staker counts from its start, or its
    /// acceptance if later, to the acceptance of the block settling it (the option block after a
    /// `RewardValidatorTx`'s proposal block); a bucket's point holds every change before the
    /// bucket's end. L1 validators (ACP-77) are not staker rows and are not counted.
    pub fn staking_metrics(&self, q: &StakingQuery) -> Result<StakingPage, StakingMetricsError> {
        match self.store.mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => staking_in(&*self.store, q),
            _ => staking_in(&self.store.snapshot(), q),
        }
    }
}

fn staking_in(view: &impl ReadView, q: &StakingQuery) -> Result<StakingPage, StakingMetricsError> {
    let genesis = view
        .get::<PhMeta>(&META_GENESIS_TIME)?
        .ok_or(StakingMetricsError::NotIndexed)?;
    let chain_time = view.get::<PhMeta>(&META_CHAIN_TIME)?.unwrap_or(genesis);
    if q.subnet != Id::default() && view.get::<PhSubnets>(&q.subnet)?.is_none() {
        return Err(StakingMetricsError::UnknownSubnet(q.subnet));
    }
    let width = q.bucket_secs.max(1);
    let first = genesis - genesis % width;
    let last = chain_time.max(genesis) - chain_time.max(genesis) % width;
    let mut page = StakingPage {
        points: Vec::new(),
        next: None,
        chain_time,
    };
    // The bucket starts in [q.from, q.to] that the index has reached.
    let from = q.from.max(first);
    let to = q.to.min(last);
    if from > to {
        return Ok(page);
    }
    let (from, to) = (from.div_ceil(width) * width, to - to % width);
    if from > to {
        return Ok(page);
    }
    let mut edges = Vec::new();
    for r in view.scan::<PhStakers, _>(.., Direction::Forward)? {
        let (_, Linear(s)) = r?;
        if s.subnet_id == q.subnet {
            push_edges(&s, &mut edges);
        }
    }
    edges.sort_by_key(|e| e.time);

    // The page is the newest `page_size` buckets starting in [from, to]; the one before them,
    // if any, is the next page's first.
    let wanted = q.page_size.max(1) as u64;
    let count = (to - from) / width + 1;
    let oldest = if count > wanted {
        page.next = Some(to - wanted * width);
        to - (wanted - 1) * width
    } else {
        from
    };
    let mut figures = StakingFigures::default();
    let mut pending = edges.iter().peekable();
    let mut start = oldest;
    loop {
        let end = start.saturating_add(width);
        while let Some(e) = pending.next_if(|e| e.time < end) {
            figures.apply(e);
        }
        page.points.push(StakingPoint {
            timestamp: start,
            figures,
            in_progress: chain_time < end,
        });
        if start >= to {
            break;
        }
        start += width;
    }
    page.points.reverse();
    Ok(page)
}

/// The staker's entering and leaving edges (none for a staker settled before it began).
fn push_edges(s: &StakerRow, edges: &mut Vec<Edge>) {
    let validator = matches!(s.kind, StakerKind::Validator | StakerKind::SubnetValidator);
    let begin = s.start.max(s.accepted.timestamp);
    let leave = s.settled.as_ref().map(|x| x.event.timestamp);
    if leave.is_some_and(|t| t <= begin) {
        return;
    }
    edges.push(Edge {
        time: begin,
        validator,
        weight: s.weight,
        enters: true,
    });
    if let Some(time) = leave {
        edges.push(Edge {
            time,
            validator,
            weight: s.weight,
            enters: false,
        });
    }
}

#[cfg(test)]
mod tests {
    //! A devnet's P-Chain ingested, then every subnet's points at several bucket widths, page by
    //! page, equal a model computed here from the genesis and the blocks' txs alone: a staker tx
    //! enters at its block's time (Durango: a staker starts when accepted), a
    //! `RewardValidatorTx` removes the staker it names when the next block (the proposal's
    //! option) is accepted, a `RemoveSubnetValidatorTx` removes the node's subnet validator at
    //! once (avalanchego `txs/executor/proposal_tx_executor.go`, `block/executor/acceptor.go`,
    //! `txs/executor/standard_tx_executor.go`).

    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::collections::BTreeMap;
    use std::sync::Arc;

    use snowline_devnet::{Devnet, DevnetConfig};
    use snowline_node_index::{IndexWriter, ingest};
    use snowline_store::{Schema, Store};
    use snowline_types::NodeId;
    use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
    use snowline_types::platformvm::{self, UnsignedTx};

    use super::*;
    use crate::{PChain, tables};

    /// A live staker of the model: subnet, node, validator or delegator, weight.
    #[derive(Clone, Copy)]
    struct Live {
        subnet: Id,
        node: NodeId,
        validator: bool,
        weight: u64,
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

    fn figures(live: &BTreeMap<Id, Live>, subnet: Id) -> StakingFigures {
        let mut f = StakingFigures::default();
        for s in live.values().filter(|s| s.subnet == subnet) {
            if s.validator {
                f.validator_count += 1;
                f.validator_weight += u128::from(s.weight);
            } else {
                f.delegator_count += 1;
                f.delegator_weight += u128::from(s.weight);
            }
        }
        f
    }

    /// The live stakers after the genesis and after each block, with the time they hold from.
    fn timeline(
        genesis: &platformvm::PGenesisState,
        blocks: &[(u64, Vec<(Id, UnsignedTx)>)],
    ) -> Vec<(u64, BTreeMap<Id, Live>)> {
        let mut live = BTreeMap::new();
        for v in &genesis.validators {
            if let Some(s) = staker(&v.tx.unsigned) {
                live.insert(v.id, s);
            }
        }
        let mut out = vec![(genesis.timestamp, live.clone())];
        let mut settling: Vec<Id> = Vec::new();
        for (time, txs) in blocks {
            for id in settling.drain(..) {
                live.remove(&id);
            }
            for (id, tx) in txs {
                match tx {
                    UnsignedTx::RewardValidatorTx(r) => settling.push(r.tx_id),
                    UnsignedTx::RemoveSubnetValidatorTx(r) => {
                        let found = live.iter().find_map(|(id, s)| {
                            (s.validator && s.subnet == r.subnet_id && s.node == r.node_id)
                                .then_some(*id)
                        });
                        if let Some(id) = found {
                            live.remove(&id);
                        }
                    }
                    tx => {
                        if let Some(s) = staker(tx) {
                            live.insert(*id, s);
                        }
                    }
                }
            }
            out.push((*time, live.clone()));
        }
        out
    }

    /// Every bucket's point of `subnet`, newest first, from the timeline.
    fn model_points(
        timeline: &[(u64, BTreeMap<Id, Live>)],
        subnet: Id,
        width: u64,
    ) -> Vec<StakingPoint> {
        let genesis = timeline[0].0;
        let tip = timeline.last().unwrap().0;
        let mut points = Vec::new();
        let mut start = genesis / width * width;
        while start <= tip {
            let end = start + width;
            let (_, live) = timeline.iter().rev().find(|(t, _)| *t < end).unwrap();
            points.push(StakingPoint {
                timestamp: start,
                figures: figures(live, subnet),
                in_progress: tip < end,
            });
            start = end;
        }
        points.reverse();
        points
    }

    #[test]
    fn every_subnet_and_width_equals_the_model_page_by_page() {
        let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
        let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
        let p_genesis = devnet.p_genesis();
        let net = devnet.genesis().network.clone();
        let dir = tempfile::tempdir().unwrap();
        let schema = snowline_node_index::tables()
            .into_iter()
            .chain(tables())
            .fold(Schema::new(1), Schema::with_spec);
        let store = Arc::new(Store::open(dir.path(), &schema).unwrap());
        let pages = PChainPages::new(Arc::clone(&store));
        let q = |subnet, bucket_secs, page_size| StakingQuery {
            subnet,
            bucket_secs,
            from: 0,
            to: u64::MAX,
            page_size,
        };
        assert!(matches!(
            pages.staking_metrics(&q(Id::default(), 3_600, 10)),
            Err(StakingMetricsError::NotIndexed)
        ));
        let mut p = PChain::new(
            net.network_id,
            net.p_chain_id,
            net.x_chain_id,
            net.avax_asset_id,
        );
        p.apply_genesis(&store, &p_genesis).unwrap();
        let mut writer = IndexWriter::open(&*store).unwrap();
        let p_records: Vec<&ContainerRecord> = records
            .iter()
            .filter(|r| r.path == IndexPath::PBlock)
            .collect();
        let src = p_records.iter().map(|r| {
            Ok(ContainerLine {
                record: (*r).clone(),
                index: None,
            })
        });
        ingest(&store, &mut writer, src, 16, &mut p, |_| {}).unwrap();

        let mut blocks = Vec::new();
        let mut subnets = vec![Id::default()];
        for r in &p_records {
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
                }
            }
            // An Apricot block has no time of its own: its acceptance time stands in.
            let time = parsed
                .block
                .timestamp()
                .unwrap_or((r.timestamp_ns / 1_000_000_000) as u64);
            blocks.push((time, txs));
        }
        let timeline = timeline(&p_genesis, &blocks);
        let mut subnet_stakers = 0;
        for subnet in &subnets {
            for width in [600, 3_600, 7_200, 86_400] {
                let want = model_points(&timeline, *subnet, width);
                // One page holding everything.
                let all = pages.staking_metrics(&q(*subnet, width, 2_160)).unwrap();
                assert_eq!(all.points, want, "subnet {subnet}, width {width}");
                assert_eq!(all.next, None);
                assert_eq!(all.chain_time, timeline.last().unwrap().0);
                // Pages of every size tile the series.
                for size in [1, 2, 5, 7] {
                    let mut got = Vec::new();
                    let mut to = u64::MAX;
                    loop {
                        let page = pages
                            .staking_metrics(&StakingQuery {
                                to,
                                ..q(*subnet, width, size)
                            })
                            .unwrap();
                        assert!(page.points.len() <= size);
                        got.extend(page.points);
                        match page.next {
                            Some(next) => to = next,
                            None => break,
                        }
                    }
                    assert_eq!(got, want, "subnet {subnet}, width {width}, size {size}");
                }
                // A range keeps the buckets starting in it.
                if want.len() > 3 {
                    let (to, from) = (want[1].timestamp, want[want.len() - 2].timestamp);
                    let page = pages
                        .staking_metrics(&StakingQuery {
                            from: from - 1,
                            to: to + 1,
                            ..q(*subnet, width, 2_160)
                        })
                        .unwrap();
                    assert_eq!(page.points, want[1..want.len() - 1], "range");
                }
            }
            if *subnet != Id::default() {
                let top = model_points(&timeline, *subnet, 3_600);
                subnet_stakers += top.iter().map(|p| p.figures.validator_count).sum::<u64>();
            }
        }
        // The series move: the primary network's figures change over the hours. The devnet
        // creates subnets but adds no subnet stakers, so theirs are zeros throughout.
        let hours = model_points(&timeline, Id::default(), 3_600);
        assert!(hours.len() > 30, "{} hours", hours.len());
        let distinct: std::collections::BTreeSet<_> =
            hours.iter().map(|p| format!("{:?}", p.figures)).collect();
        assert!(distinct.len() > 3, "{} distinct figures", distinct.len());
        assert!(hours.iter().any(|p| p.figures.delegator_count > 0));
        assert!(subnets.len() > 1);
        assert_eq!(subnet_stakers, 0);
        assert!(hours[0].in_progress && !hours[1].in_progress);
        // A subnet never created is refused.
        assert!(matches!(
            pages.staking_metrics(&q(Id::from([7; 32]), 3_600, 10)),
            Err(StakingMetricsError::UnknownSubnet(_))
        ));
    }
}
