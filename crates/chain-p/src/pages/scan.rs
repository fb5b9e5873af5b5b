//! The scan every P-Chain listing shares: the `(key, sort, id)` orders of several keys (addresses
//! or nodes), each resumed strictly past a position, merged into one sorted stream in which an
//! entry several keys share comes out once.

use std::cell::RefCell;

use snowline_query::{PositionReader, PositionWriter, SortOrder, merge_sorted};
use snowline_store::{Direction, KeyCodec, KeyPrefix, ReadView, StoreError, Table};
use snowline_types::Id;

use super::PageError;

/// A listing position: the sort value (a time or an amount), then the row's id.
pub type Position = (u64, Id);

/// Where a failed scan inside a merge stopped: the merge sees a stream that ends there, and the
/// page checks this after reading.
#[derive(Debug, Default)]
pub(crate) struct ScanFailure(RefCell<Option<StoreError>>);

impl ScanFailure {
    /// The failure, if a scan failed.
    pub(crate) fn check(self) -> Result<(), PageError> {
        match self.0.into_inner() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

pub(crate) fn direction(sort: SortOrder) -> Direction {
    match sort {
        SortOrder::Asc => Direction::Forward,
        SortOrder::Desc => Direction::Reverse,
    }
}

/// The entries of table `T` under each of `keys`, in `sort` order of `(sort value, id)`,
/// strictly past `from`, merged.
pub(crate) fn merged<'a, T, K, V>(
    view: &'a V,
    keys: &[K],
    from: Option<Position>,
    sort: SortOrder,
    failure: &'a ScanFailure,
) -> Result<impl Iterator<Item = Result<Position, PageError>> + 'a, PageError>
where
    V: ReadView,
    K: KeyCodec + Copy + 'a,
    T: Table<Key = (K, u64, Id), Value = ()> + 'a,
    (K, u64, Id): KeyPrefix<K>,
{
    let dir = direction(sort);
    let mut sources = Vec::with_capacity(keys.len());
    for key in keys {
        let after = from.map(|(s, id)| (*key, s, id));
        let scan = view.prefix_scan::<T, K>(key, after.as_ref(), dir)?;
        sources.push(scan.map_while(move |e| match e {
            Ok(((_, s, id), ())) => Some((s, id)),
            Err(e) => {
                *failure.0.borrow_mut() = Some(e);
                None
            }
        }));
    }
    Ok(merge_sorted(sources, sort, |p: &Position| *p).map(Ok))
}

/// A position as page-token bytes.
pub(crate) fn write_position((sort, id): Position) -> Vec<u8> {
    let mut w = PositionWriter::new();
    w.u64(sort).bytes32(&id.0);
    w.into_bytes()
}

/// Page-token bytes back to a position.
pub(crate) fn read_position(bytes: &[u8]) -> Result<Position, PageError> {
    let mut r = PositionReader::new(bytes);
    let sort = r.u64()?;
    let id = Id(r.bytes32()?);
    r.finish()?;
    Ok((sort, id))
}
