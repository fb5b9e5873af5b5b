//! What every room's keyset pages share on the read side: [`PageError`], the one error of a page
//! read, and [`KeysetScans`], the scan of an order of `(key, sort value, id)` entries from a
//! page's position.
//!
//! `PageError` lives here, not in `query`, because only here can it convert a [`StoreError`]
//! with `?` (Rust lets the crate that defines a type implement `From` for it); `query` holds the
//! page logic, which knows no store.

use snowline_types::Id;

use crate::error::{Result, StoreError};
use crate::key::{KeyCodec, KeyPrefix};
use crate::read::{Direction, ReadView};
use crate::table::Table;

/// Why a page could not be read: the position it resumes from is not one the listing wrote, or
/// reading failed. `E` is the reading room's error.
#[derive(Debug, thiserror::Error)]
pub enum PageError<E> {
    /// The position to resume from is not one this layer wrote (a token for another listing).
    #[error("the page position does not fit this listing")]
    BadPosition,
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(E),
}

/// A room's read error, which a [`PageError`] carries: `?` turns it, and a [`StoreError`], into
/// [`PageError::Read`].
pub trait ReadFailure: From<StoreError> {}

impl<E: ReadFailure> From<E> for PageError<E> {
    fn from(e: E) -> Self {
        PageError::Read(e)
    }
}

impl<E: ReadFailure> From<StoreError> for PageError<E> {
    fn from(e: StoreError) -> Self {
        PageError::Read(E::from(e))
    }
}

/// Scans of the orders keyset pages read: tables keyed `(key, sort value, id)` with no value,
/// one order per key (an address, a node).
pub trait KeysetScans: ReadView {
    /// The `(sort value, id)` positions of table `T` under `key`, in `dir`, resuming strictly past
    /// `from`.
    fn positions<'a, T, K>(
        &'a self,
        key: &K,
        from: Option<(u64, Id)>,
        dir: Direction,
    ) -> Result<impl Iterator<Item = Result<(u64, Id)>> + 'a>
    where
        K: KeyCodec + Copy,
        T: Table<Key = (K, u64, Id), Value = ()> + 'a,
        (K, u64, Id): KeyPrefix<K>,
    {
        let after = from.map(|(sort, id)| (*key, sort, id));
        let scan = self.prefix_scan::<T, K>(key, after.as_ref(), dir)?;
        Ok(scan.map(|e| e.map(|((_, sort, id), ())| (sort, id))))
    }

    /// Up to `limit` `(time, seq)` entries of table `T` under `key` with a time in
    /// `[start, end)` (either end open when `None`), newest first, resuming strictly below
    /// `from` (a page's last position): an order keyed `(key, time, seq)`, such as a node's
    /// blocks by time and height.
    fn newest_in_window<T, K>(
        &self,
        key: K,
        (start, end): (Option<u64>, Option<u64>),
        from: Option<(u64, u64)>,
        limit: usize,
    ) -> Result<Vec<(u64, u64)>>
    where
        K: KeyCodec + Copy,
        T: Table<Key = (K, u64, u64), Value = ()>,
    {
        let low = (key, start.unwrap_or(0), 0u64);
        let entries = match from.or(end.map(|end| (end, 0))) {
            Some((time, seq)) => self.scan::<T, _>(low..(key, time, seq), Direction::Reverse)?,
            None => self.scan::<T, _>(low..=(key, u64::MAX, u64::MAX), Direction::Reverse)?,
        };
        entries
            .take(limit)
            .map(|e| e.map(|((_, time, seq), ())| (time, seq)))
            .collect()
    }
}

impl<V: ReadView> KeysetScans for V {}
