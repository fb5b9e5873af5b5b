//! Staking rewards: the reward UTXOs paid (historical) and the stakers still running (pending),
//! of a set of reward addresses and/or nodes. With both, a reward must match both filters.

use snowline_query::{SortOrder, decode_position, encode_position, merged_page};
use snowline_store::{KeysetScans, ReadView, Snapshot, StoreError, Table};
use snowline_types::{Id, NodeId, ShortId};

use super::utxos::PUtxo;
use super::{PChainPages, PageError, Position, direction, expect_rows, tip};
use crate::error::PChainError;
use crate::rows::{StakerKind, StakerRow};
use crate::tables::{
    PhRewardsByNode, PhRewardsByOwner, PhStakers, PhStakersByNode, PhStakersByOwner, PhUtxos,
};

/// What a reward listing asks for: at least one address or node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewardQuery {
    /// Reward addresses (empty: any).
    pub addresses: Vec<ShortId>,
    /// Nodes staked on (empty: any).
    pub nodes: Vec<NodeId>,
    /// Rewards per page.
    pub page_size: usize,
    /// By time (reward time or staking start), then id.
    pub sort: SortOrder,
}

/// A reward paid: the reward UTXO and the staker it rewards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoricalReward {
    /// The reward UTXO (its creation is the `RewardValidatorTx`).
    pub utxo: PUtxo,
    /// The staker tx.
    pub staker_id: Id,
    /// The staker.
    pub staker: StakerRow,
}

/// A reward to come: a primary-network staker not settled yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingReward {
    /// The staker tx.
    pub staker_id: Id,
    /// The staker, with its potential reward.
    pub staker: StakerRow,
}

/// One page of rewards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewardPage<T> {
    /// The rewards, in the order asked.
    pub rewards: Vec<T>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
    /// The chain time of the snapshot read (how far pending stakes have run).
    pub chain_time: u64,
}

impl RewardQuery {
    fn wants_node(&self, node: &NodeId) -> bool {
        self.nodes.is_empty() || self.nodes.contains(node)
    }
}

impl PChainPages {
    /// One page of the rewards paid to `q`'s addresses and/or for stakes on its nodes, by
    /// reward time, resuming strictly past `from`.
    pub fn historical_rewards(
        &self,
        q: &RewardQuery,
        from: Option<&[u8]>,
    ) -> Result<RewardPage<HistoricalReward>, PageError> {
        self.reward_page::<PhRewardsByOwner, PhRewardsByNode, _>(
            q,
            from,
            |v, chunk| fetch_paid(v, chunk),
            |r: &HistoricalReward| q.wants_node(&r.staker.node_id),
        )
    }

    /// One page of the primary-network stakers not settled yet that pay `q`'s addresses and/or
    /// stake on its nodes, by staking start, resuming strictly past `from`.
    pub fn pending_rewards(
        &self,
        q: &RewardQuery,
        from: Option<&[u8]>,
    ) -> Result<RewardPage<PendingReward>, PageError> {
        self.reward_page::<PhStakersByOwner, PhStakersByNode, _>(
            q,
            from,
            |v, chunk| {
                let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
                let rows = expect_rows(v.multi_get::<PhStakers>(&ids)?, &ids, "staker")?;
                Ok(ids
                    .into_iter()
                    .zip(rows)
                    .map(|(staker_id, staker)| PendingReward { staker_id, staker })
                    .collect())
            },
            |r: &PendingReward| {
                r.staker.settled.is_none()
                    && matches!(r.staker.kind, StakerKind::Validator | StakerKind::Delegator)
                    && q.wants_node(&r.staker.node_id)
            },
        )
    }

    /// One page of a reward listing: `ByOwner`'s orders of the addresses when `q` names any,
    /// else `ByNode`'s of the nodes, merged; rows fetched by `fetch` and kept by `keep`.
    fn reward_page<ByOwner, ByNode, R>(
        &self,
        q: &RewardQuery,
        from: Option<&[u8]>,
        fetch: impl Fn(&Snapshot<'_>, &[Position]) -> Result<Vec<R>, PageError>,
        keep: impl Fn(&R) -> bool,
    ) -> Result<RewardPage<R>, PageError>
    where
        ByOwner: Table<Key = (ShortId, u64, Id), Value = ()>,
        ByNode: Table<Key = (NodeId, u64, Id), Value = ()>,
    {
        let from = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let dir = direction(q.sort);
        let scans: Vec<Box<dyn Iterator<Item = Result<Position, StoreError>> + '_>> =
            if q.addresses.is_empty() {
                q.nodes
                    .iter()
                    .map(|n| Ok(Box::new(v.positions::<ByNode, _>(n, from, dir)?) as Box<_>))
                    .collect::<Result<_, PageError>>()?
            } else {
                q.addresses
                    .iter()
                    .map(|a| Ok(Box::new(v.positions::<ByOwner, _>(a, from, dir)?) as Box<_>))
                    .collect::<Result<_, PageError>>()?
            };
        let scans = scans
            .into_iter()
            .map(|s| s.map(|p| p.map_err(PageError::from)))
            .collect();
        let page = merged_page(
            scans,
            q.sort,
            q.page_size,
            |chunk: &[Position]| fetch(v, chunk),
            |_, r: &R| keep(r),
            |_| false,
        )?;
        Ok(RewardPage {
            rewards: page.items.into_iter().map(|(_, r)| r).collect(),
            next: page.next.as_ref().map(encode_position),
            chain_time: tip(v)?.chain_time,
        })
    }
}

/// The reward UTXOs at `chunk`'s positions with their stakers, in two batched lookups.
fn fetch_paid(
    view: &impl ReadView,
    chunk: &[Position],
) -> Result<Vec<HistoricalReward>, PageError> {
    let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
    let rows = expect_rows(view.multi_get::<PhUtxos>(&ids)?, &ids, "reward UTXO")?;
    let mut staker_ids = Vec::with_capacity(rows.len());
    for (row, id) in rows.iter().zip(&ids) {
        let (staker_id, ..) = row
            .staker
            .ok_or_else(|| PChainError::Corrupt(format!("reward UTXO {id} names no staker")))?;
        staker_ids.push(staker_id);
    }
    let stakers = expect_rows(
        view.multi_get::<PhStakers>(&staker_ids)?,
        &staker_ids,
        "staker",
    )?;
    rows.into_iter()
        .zip(ids)
        .zip(staker_ids.into_iter().zip(stakers))
        .map(|((row, id), (staker_id, staker))| {
            let utxo = row
                .utxo()
                .map_err(|e| PChainError::Corrupt(format!("UTXO {id}: {e}")))?;
            Ok(HistoricalReward {
                utxo: PUtxo { id, utxo, row },
                staker_id,
                staker,
            })
        })
        .collect()
}
