//! Reads and writes of rows through the unwritten batches: a deriver keeps in [`PendingRows`]
//! what its batches changed, because reads through the store do not see it until the batch is
//! written. Every P-Chain deriver (the main one, the staking figures, the L1 fees) goes through
//! these two.

use std::hash::Hash;

use snowline_derive::PendingRows;
use snowline_store::{ReadView, Table};

use crate::error::PChainError;

/// `key`'s value as the unwritten batches leave it, and whether the store will hold the key.
pub(crate) fn load<T: Table>(
    rows: &PendingRows<T>,
    view: &impl ReadView,
    key: &T::Key,
) -> Result<(Option<T::Value>, bool), PChainError>
where
    T::Key: Eq + Hash,
    T::Value: Clone,
{
    match rows.get(key) {
        Some((value, stored)) => Ok((value.cloned(), stored)),
        None => {
            let value = view.get::<T>(key)?;
            let stored = value.is_some();
            Ok((value, stored))
        }
    }
}

/// Sets `key -> value` in `rows`, looking up whether the store holds the key (what
/// [`PendingRows::put`] needs) when the unwritten batches do not say.
pub(crate) fn upsert<T: Table>(
    rows: &mut PendingRows<T>,
    view: &impl ReadView,
    key: T::Key,
    value: T::Value,
) -> Result<(), PChainError>
where
    T::Key: Eq + Hash,
    T::Value: Clone,
{
    let (_, stored) = load(rows, view, &key)?;
    rows.put(key, value, stored);
    Ok(())
}
