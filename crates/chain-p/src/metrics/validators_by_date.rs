//! The validators of a subnet whose validation period overlaps a time range, with the addresses
//! their validation rewards go to, ordered by their staker tx's block time then tx id: the
//! metrics API's `GET /v2/subnets/{subnetId}/validators:getAddresses`. One scan of
//! [`PhValidatorsBySubnet`] from the range's start less the subnet's longest validation period
//! ([`PhValidatorSpans`]) to its end, resumed strictly past the caller's position.

use std::ops::Bound;

use snowline_store::{Direction, Linear, Mode, ReadView};
use snowline_types::{Id, ShortId};

use snowline_query::MAX_EXAMINED;

use super::SubnetReadError;
use crate::pages::{PChainPages, Position};
use crate::tables::{META_GENESIS_TIME, PhMeta, PhSubnets, PhValidatorSpans, PhValidatorsBySubnet};

/// What a validators-by-date-range page asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatorRangeQuery {
    /// The subnet (the primary network's id is all zeros).
    pub subnet: Id,
    /// A validator is listed when its period `[start, end]` meets `[from, to]`.
    pub from: u64,
    /// See `from`.
    pub to: u64,
    /// Entries per page (at least 1).
    pub page_size: usize,
    /// Resume strictly after this `(tx block time, tx id)`.
    pub after: Option<Position>,
}

/// One validator of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeValidator {
    /// Its staker tx (`AddValidatorTx`, `AddSubnetValidatorTx`, `AddPermissionlessValidatorTx`).
    pub tx_id: Id,
    /// The block time of that tx, Unix seconds: the sort key.
    pub accepted: u64,
    /// Start of the validation.
    pub start: u64,
    /// End of the validation (stated, or the removal's time).
    pub end: u64,
    /// The validation rewards owner's addresses (empty for a permissioned subnet validator).
    pub reward_owners: Vec<ShortId>,
}

/// A page of validators, in `(accepted, tx id)` order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorRangePage {
    /// The validators.
    pub validators: Vec<RangeValidator>,
    /// Where the next page resumes, when more rows remain to examine.
    pub next: Option<Position>,
}

impl PChainPages {
    /// A page of the validators of `q.subnet` (primary network, permissioned and permissionless
    /// subnet validators; not delegators, not L1 validators) whose period meets
    /// `[q.from, q.to]`. A page that examines [`MAX_EXAMINED`] rows before filling ends early,
    /// with a position to resume from.
    pub fn validators_by_date_range(
        &self,
        q: &ValidatorRangeQuery,
    ) -> Result<ValidatorRangePage, SubnetReadError> {
        match self.store.mode() {
            // A secondary has no snapshots; its data changes only when it catches up.
            Mode::Secondary => range_in(&*self.store, q),
            _ => range_in(&self.store.snapshot(), q),
        }
    }
}

fn range_in(
    view: &impl ReadView,
    q: &ValidatorRangeQuery,
) -> Result<ValidatorRangePage, SubnetReadError> {
    if view.get::<PhMeta>(&META_GENESIS_TIME)?.is_none() {
        return Err(SubnetReadError::NotIndexed);
    }
    if q.subnet != Id::default() && view.get::<PhSubnets>(&q.subnet)?.is_none() {
        return Err(SubnetReadError::UnknownSubnet(q.subnet));
    }
    let mut page = ValidatorRangePage {
        validators: Vec::new(),
        next: None,
    };
    let Some(span) = view.get::<PhValidatorSpans>(&q.subnet)? else {
        return Ok(page);
    };
    if q.from > q.to {
        return Ok(page);
    }
    // A validator accepted before `from - span` ended before `from`; one accepted after `to`
    // started after it.
    let lowest = (q.subnet, q.from.saturating_sub(span), Id::default());
    let highest = (q.subnet, q.to, Id([0xff; 32]));
    let start = match q.after {
        Some((ts, id)) if (q.subnet, ts, id) >= lowest => Bound::Excluded((q.subnet, ts, id)),
        _ => Bound::Included(lowest),
    };
    let rows = view
        .scan::<PhValidatorsBySubnet, _>((start, Bound::Included(highest)), Direction::Forward)?;
    let wanted = q.page_size.max(1);
    let mut last = None;
    for (examined, row) in rows.enumerate() {
        let ((_, accepted, tx_id), Linear(period)) = row?;
        if page.validators.len() == wanted || examined == MAX_EXAMINED {
            // More rows remain: resume after the last one examined.
            page.next = last;
            break;
        }
        last = Some((accepted, tx_id));
        if period.start <= q.to && period.end >= q.from && period.start <= period.end {
            page.validators.push(RangeValidator {
                tx_id,
                accepted,
                start: period.start,
                end: period.end,
                reward_owners: period.reward_owners,
            });
        }
    }
    Ok(page)
}

#[cfg(test)]
mod tests {
    //! A devnet's P-Chain ingested; for every subnet and ranges before, inside, across and after
    //! the data, the validators listed (whole and page by page) equal a model computed here from
    //! the genesis and the blocks' txs alone: a validator tx (`AddValidatorTx`,
    //! `AddSubnetValidatorTx`, `AddPermissionlessValidatorTx`) is accepted at its block's time and
    //! starts then (Durango), or at its stated start in the genesis; it ends at its stated end,
    //! or when a `RemoveSubnetValidatorTx` removes the node's current validator of the subnet
    //! (avalanchego `txs/executor/standard_tx_executor.go`). Its addresses are its validation
    //! rewards owner's (none for `AddSubnetValidatorTx`).

    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::sync::Arc;

    use snowline_types::NodeId;
    use snowline_types::platformvm::{self, UnsignedTx};

    use super::*;
    use crate::test_devnet::PDevnet;

    /// A validator of the model.
    #[derive(Debug, Clone)]
    struct ModelValidator {
        subnet: Id,
        node: NodeId,
        v: RangeValidator,
    }

    /// `(subnet, node, start, end, reward owners)` of a validator tx.
    fn validator(tx: &UnsignedTx) -> Option<(Id, NodeId, u64, u64, Vec<ShortId>)> {
        match tx {
            UnsignedTx::AddValidatorTx(t) => Some((
                Id::default(),
                t.validator.node_id,
                t.validator.start,
                t.validator.end,
                t.rewards_owner.owners().addrs.clone(),
            )),
            UnsignedTx::AddSubnetValidatorTx(t) => Some((
                t.validator.subnet_id,
                t.validator.validator.node_id,
                t.validator.validator.start,
                t.validator.validator.end,
                Vec::new(),
            )),
            UnsignedTx::AddPermissionlessValidatorTx(t) => Some((
                t.subnet_id,
                t.validator.node_id,
                t.validator.start,
                t.validator.end,
                t.validator_rewards_owner.owners().addrs.clone(),
            )),
            _ => None,
        }
    }

    fn model(
        genesis: &platformvm::PGenesisState,
        blocks: &[(u64, Vec<(Id, UnsignedTx)>)],
    ) -> Vec<ModelValidator> {
        let mut out = Vec::new();
        let entry = |id: Id, accepted, (subnet, node, start, end, owners)| ModelValidator {
            subnet,
            node,
            v: RangeValidator {
                tx_id: id,
                accepted,
                start,
                end,
                reward_owners: owners,
            },
        };
        for v in &genesis.validators {
            if let Some(t) = validator(&v.tx.unsigned) {
                out.push(entry(v.id, genesis.timestamp, t));
            }
        }
        for (time, txs) in blocks {
            for (id, tx) in txs {
                if let UnsignedTx::RemoveSubnetValidatorTx(r) = tx {
                    let current = out.iter_mut().rev().find(|m| {
                        m.subnet == r.subnet_id
                            && m.node == r.node_id
                            && m.v.start <= *time
                            && *time < m.v.end
                    });
                    if let Some(m) = current {
                        m.v.end = *time;
                    }
                } else if let Some(mut t) = validator(tx) {
                    t.2 = *time;
                    out.push(entry(*id, *time, t));
                }
            }
        }
        out
    }

    fn expected(model: &[ModelValidator], subnet: Id, from: u64, to: u64) -> Vec<RangeValidator> {
        let mut want: Vec<RangeValidator> = model
            .iter()
            .filter(|m| from <= to && m.subnet == subnet && m.v.start <= to && m.v.end >= from)
            .map(|m| m.v.clone())
            .collect();
        want.sort_by_key(|v| (v.accepted, v.tx_id));
        want
    }

    #[test]
    fn every_subnet_and_range_equals_the_model_whole_and_page_by_page() {
        let devnet = PDevnet::generate();
        let p_genesis = &devnet.p_genesis;
        let pages = PChainPages::new(Arc::clone(&devnet.store));
        let q = |subnet, from, to, page_size| ValidatorRangeQuery {
            subnet,
            from,
            to,
            page_size,
            after: None,
        };
        assert!(matches!(
            pages.validators_by_date_range(&q(Id::default(), 0, u64::MAX, 10)),
            Err(SubnetReadError::NotIndexed)
        ));
        let mut p = devnet.deriver(None);
        let p_records = devnet.p_blocks();
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
            let time = parsed
                .block
                .timestamp()
                .unwrap_or((r.timestamp_ns / 1_000_000_000) as u64);
            blocks.push((time, txs));
        }
        // Batches of several blocks, as a follower writes them.
        for (n, chunk) in p_records.chunks(16).enumerate() {
            p.ingest(chunk, 1 + n % 3);
        }
        let model = model(p_genesis, &blocks);
        let genesis = p_genesis.timestamp;
        let tip = blocks.last().unwrap().0;
        let mid = genesis + (tip - genesis) / 2;
        let last_end = model.iter().map(|m| m.v.end).max().unwrap();
        let ranges = [
            (0, u64::MAX),
            (0, genesis - 1),
            (genesis + 1, mid),
            (mid, mid),
            (genesis - 1_000, mid + 1),
            (mid, tip),
            (tip + 1, u64::MAX),
            (last_end, last_end),
            (last_end + 1, u64::MAX),
            // An empty range lists nothing.
            (mid, mid - 1),
        ];
        let mut listed = 0;
        for subnet in &subnets {
            for (from, to) in ranges {
                let want = expected(&model, *subnet, from, to);
                let all = pages
                    .validators_by_date_range(&q(*subnet, from, to, 5_000))
                    .unwrap();
                assert_eq!(all.validators, want, "subnet {subnet} [{from}, {to}]");
                assert_eq!(all.next, None);
                listed += want.len();
                for size in [1, 2, 7] {
                    let mut got = Vec::new();
                    let mut after = None;
                    loop {
                        let page = pages
                            .validators_by_date_range(&ValidatorRangeQuery {
                                after,
                                ..q(*subnet, from, to, size)
                            })
                            .unwrap();
                        assert!(page.validators.len() <= size);
                        assert!(page.next.is_none() || page.validators.len() == size);
                        got.extend(page.validators);
                        match page.next {
                            Some(next) => after = Some(next),
                            None => break,
                        }
                    }
                    assert_eq!(got, want, "subnet {subnet} [{from}, {to}] size {size}");
                }
            }
        }
        // The devnet exercises what the read distinguishes.
        assert!(listed > 0);
        assert!(subnets.len() > 1);
        let primary = expected(&model, Id::default(), 0, u64::MAX);
        assert!(
            primary.len() > p_genesis.validators.len(),
            "validators added"
        );
        assert!(primary.iter().all(|v| !v.reward_owners.is_empty()));
        // Validators ending during the run and others past it: ranges cut through them.
        assert!(primary.iter().any(|v| v.end < tip));
        assert!(primary.iter().any(|v| v.end > tip));
        assert!(
            !expected(&model, Id::default(), mid, mid).is_empty(),
            "validators in the middle"
        );
        assert!(matches!(
            pages.validators_by_date_range(&q(Id::from([7; 32]), 0, u64::MAX, 10)),
            Err(SubnetReadError::UnknownSubnet(_))
        ));
    }
}
