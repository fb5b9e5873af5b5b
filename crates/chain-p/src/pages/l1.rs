//! L1 validators (ACP-77), by validation id, filtered by validation id, node and L1; only the
//! active ones unless asked otherwise. Balances are as of the last block indexed.

use snowline_query::{FilterLimits, decode_position, encode_position, filtered_page};
use snowline_store::{Direction, Linear, ReadView};
use snowline_types::Id;

use super::{PChainPages, PageError, expect_rows};
use crate::reader::PReader;
use crate::rows::L1ValidatorRow;
use crate::tables::{PhL1ByNode, PhL1BySubnet, PhL1Validators};

/// What an L1 validator listing asks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct L1Query {
    /// Only this validation.
    pub validation_id: Option<Id>,
    /// Only validations of this node (its id bytes).
    pub node: Option<Vec<u8>>,
    /// Only validators of this L1.
    pub subnet: Option<Id>,
    /// Inactive validators too (removed, disabled, or out of balance).
    pub include_inactive: bool,
    /// Validators per page.
    pub page_size: usize,
}

/// One page of L1 validators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1Page {
    /// `(validation id, validator)`, by validation id.
    pub validators: Vec<(Id, L1ValidatorRow)>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
    /// Height of the last block indexed, at which balances are computed (`None` before any).
    pub height: Option<u64>,
    /// Fees accrued per L1 validator at that height (a balance is `end fee − accrued`).
    pub accrued_fees: u64,
}

impl PChainPages {
    /// One page of the L1 validators `q` asks for, resuming strictly past `from` (a
    /// [`L1Page::next`] of the same query).
    pub fn l1_validators(&self, q: &L1Query, from: Option<&[u8]>) -> Result<L1Page, PageError> {
        let from = from
            .map(|bytes| decode_position::<Id>(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let reader = PReader::new(v);
        let accrued = reader.l1_accrued_fees()?;
        let height = reader.height()?;
        // The most selective index names the candidates; the other filters apply to the rows.
        let ids: Box<dyn Iterator<Item = Result<Id, PageError>>> =
            match (&q.validation_id, &q.node, &q.subnet) {
                (Some(id), ..) => Box::new(
                    std::iter::once(*id)
                        .filter(move |id| from.is_none_or(|f| *id > f))
                        .map(Ok),
                ),
                (None, Some(node), _) => {
                    let after = from.map(|f| (node.clone(), f));
                    Box::new(
                        v.prefix_scan::<PhL1ByNode, Vec<u8>>(
                            node,
                            after.as_ref(),
                            Direction::Forward,
                        )?
                        .map(|e| e.map(|((_, id), ())| id).map_err(PageError::from)),
                    )
                }
                (None, None, Some(subnet)) => {
                    let after = from.map(|f| (*subnet, f));
                    Box::new(
                        v.prefix_scan::<PhL1BySubnet, Id>(
                            subnet,
                            after.as_ref(),
                            Direction::Forward,
                        )?
                        .map(|e| e.map(|((_, id), ())| id).map_err(PageError::from)),
                    )
                }
                (None, None, None) => {
                    let range = match from {
                        Some(f) => (std::ops::Bound::Excluded(f), std::ops::Bound::Unbounded),
                        None => (std::ops::Bound::Unbounded, std::ops::Bound::Unbounded),
                    };
                    Box::new(
                        v.scan::<PhL1Validators, _>(range, Direction::Forward)?
                            .map(|e| e.map(|(id, _)| id).map_err(PageError::from)),
                    )
                }
            };
        let page = filtered_page(
            ids,
            FilterLimits::page(q.page_size),
            |chunk: &[Id]| {
                let rows = v.multi_get::<PhL1Validators>(chunk)?;
                // A validation id asked for that does not exist is simply not listed.
                if q.validation_id.is_some() {
                    return Ok(rows
                        .into_iter()
                        .map(|r| r.map(|Linear(r)| r))
                        .collect::<Vec<_>>());
                }
                Ok::<_, PageError>(
                    expect_rows(rows, chunk, "L1 validator")?
                        .into_iter()
                        .map(Some)
                        .collect(),
                )
            },
            |_, row: &Option<L1ValidatorRow>| {
                row.as_ref().is_some_and(|r| {
                    q.node.as_ref().is_none_or(|n| *n == r.node_id)
                        && q.subnet.is_none_or(|s| s == r.subnet_id)
                        && (q.include_inactive || r.active(accrued))
                })
            },
            |_| false,
        )?;
        Ok(L1Page {
            validators: page
                .items
                .into_iter()
                .filter_map(|(id, row)| row.map(|r| (id, r)))
                .collect(),
            next: page.next.map(|id| encode_position(&id)),
            height,
            accrued_fees: accrued,
        })
    }
}
