//! Every chain and subnet the P-Chain created, for listings (the metrics API's legacy chain and
//! subnet information): one scan of each table, which holds a row per `CreateChainTx` (and
//! genesis chain) or `CreateSubnetTx`.

use snowline_store::{Direction, Linear, Mode, ReadView, Table};
use snowline_types::Id;

use crate::error::PChainError;
use crate::pages::{PChainPages, PageError};
use crate::rows::{ChainRow, SubnetRow};
use crate::tables::{PhChains, PhSubnets};

impl PChainPages {
    /// Every chain created on the P-Chain (the genesis chains too), by id, from one snapshot.
    pub fn every_chain(&self) -> Result<Vec<(Id, ChainRow)>, PageError> {
        self.all::<PhChains, ChainRow>()
    }

    /// Every subnet created on the P-Chain (not the primary network), by id, from one snapshot.
    pub fn every_subnet(&self) -> Result<Vec<(Id, SubnetRow)>, PageError> {
        self.all::<PhSubnets, SubnetRow>()
    }

    /// Every row of `T`, from one snapshot; read directly on a secondary instance, which has
    /// no snapshots (its data changes only when it catches up).
    fn all<T, R>(&self) -> Result<Vec<(Id, R)>, PageError>
    where
        T: Table<Key = Id, Value = Linear<R>>,
    {
        match self.store.mode() {
            Mode::Secondary => scan_all::<T, R>(&*self.store),
            _ => scan_all::<T, R>(&self.store.snapshot()),
        }
    }
}

fn scan_all<T, R>(view: &impl ReadView) -> Result<Vec<(Id, R)>, PageError>
where
    T: Table<Key = Id, Value = Linear<R>>,
{
    let rows = view
        .scan::<T, _>(.., Direction::Forward)
        .map_err(PChainError::from)?;
    rows.map(|e| {
        e.map(|(id, Linear(row))| (id, row))
            .map_err(|e| PageError::from(PChainError::from(e)))
    })
    .collect()
}
