//! Subnets created by a `CreateSubnetTx`, by their creation's block height, each with its
//! current owner (after every `TransferSubnetOwnershipTx`), its conversion to an L1 and its
//! chains.

use snowline_query::{SortOrder, decode_position, encode_position};
use snowline_store::{Direction, KeysetScans, Linear, ReadView};
use snowline_types::Id;

use super::{PChainPages, PageError, Position, direction, expect_rows};
use crate::reader::PReader;
use crate::rows::{ChainRow, SubnetRow};
use crate::tables::{ORDER_SUBNETS, PhChains, PhOrders, PhSubnets};

/// A subnet with its chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubnetEntry {
    /// The subnet id (its `CreateSubnetTx`).
    pub id: Id,
    /// The subnet.
    pub row: SubnetRow,
    /// Its chains, by creation (height, then id).
    pub chains: Vec<(Id, ChainRow)>,
}

/// A page of subnets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubnetPage {
    /// The subnets, in the order asked.
    pub subnets: Vec<SubnetEntry>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl PChainPages {
    /// One page of the subnets, by creation, resuming strictly past `from`.
    pub fn subnets(
        &self,
        sort: SortOrder,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<SubnetPage, PageError> {
        let from: Option<Position> = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let size = page_size.max(1);
        let mut ids: Vec<Id> = v
            .positions::<PhOrders, _>(&ORDER_SUBNETS, from, direction(sort))?
            .take(size + 1)
            .map(|r| r.map(|(_, id)| id))
            .collect::<Result<_, _>>()?;
        let more = ids.len() > size;
        ids.truncate(size);
        let rows = expect_rows(v.multi_get::<PhSubnets>(&ids)?, &ids, "subnet")?;
        let next = match (more, ids.last(), rows.last()) {
            (true, Some(id), Some(row)) => Some(encode_position(&(row.created.height, *id))),
            _ => None,
        };
        let mut chains = all_chains(v)?;
        let subnets = ids
            .into_iter()
            .zip(rows)
            .map(|(id, row)| SubnetEntry {
                id,
                chains: take_chains(&mut chains, &id),
                row,
            })
            .collect();
        Ok(SubnetPage { subnets, next })
    }

    /// The subnet `id`, if a `CreateSubnetTx` created it.
    pub fn subnet(&self, id: &Id) -> Result<Option<SubnetEntry>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let Some(row) = PReader::new(v).subnet(id)? else {
            return Ok(None);
        };
        let mut chains = all_chains(v)?;
        Ok(Some(SubnetEntry {
            id: *id,
            chains: take_chains(&mut chains, id),
            row,
        }))
    }
}

/// A page of chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainPage {
    /// `(blockchain id, chain)`, in the order asked.
    pub chains: Vec<(Id, ChainRow)>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl PChainPages {
    /// One page of every chain the P-Chain created (the genesis chains too), by creation
    /// (block height, then id), resuming strictly past `from`. The chains are few (one
    /// `CreateChainTx` each), so they are read whole.
    pub fn chains(
        &self,
        sort: SortOrder,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<ChainPage, PageError> {
        let from: Option<Position> = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let mut all = all_chains(&snapshot)?;
        if sort == SortOrder::Desc {
            all.reverse();
        }
        let after = |p: Position| match (from, sort) {
            (None, _) => true,
            (Some(f), SortOrder::Asc) => p > f,
            (Some(f), SortOrder::Desc) => p < f,
        };
        let size = page_size.max(1);
        let mut chains: Vec<(Id, ChainRow)> = all
            .into_iter()
            .filter(|(id, row)| after((row.created.height, *id)))
            .take(size + 1)
            .collect();
        let more = chains.len() > size;
        chains.truncate(size);
        let next = match (more, chains.last()) {
            (true, Some((id, row))) => Some(encode_position(&(row.created.height, *id))),
            _ => None,
        };
        Ok(ChainPage { chains, next })
    }
}

/// Every chain the P-Chain created, by creation.
fn all_chains(v: &impl ReadView) -> Result<Vec<(Id, ChainRow)>, PageError> {
    let mut chains: Vec<(Id, ChainRow)> = v
        .scan::<PhChains, _>(.., Direction::Forward)?
        .map(|r| r.map(|(id, Linear(row))| (id, row)))
        .collect::<Result<_, _>>()?;
    chains.sort_by_key(|(id, row)| (row.created.height, *id));
    Ok(chains)
}

/// The chains of `subnet`, taken out of `chains`.
fn take_chains(chains: &mut Vec<(Id, ChainRow)>, subnet: &Id) -> Vec<(Id, ChainRow)> {
    let (mine, rest) = std::mem::take(chains)
        .into_iter()
        .partition(|(_, row)| row.subnet_id == *subnet);
    *chains = rest;
    mine
}
