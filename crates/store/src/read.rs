//! The read API shared by [`Store`](crate::Store) and [`Snapshot`](crate::Snapshot): point gets,
//! range scans in either direction and prefix scans for keyset pagination.

use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

use rocksdb::{DBRawIteratorWithThreadMode, ReadOptions};

use crate::db::Db;
use crate::error::{Part, Result, StoreError, rocks};
use crate::key::{KeyCodec, KeyPrefix, decode_key, encode_key, prefix_successor};
use crate::table::Table;
use crate::value::ValueCodec;

/// Scan order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Ascending key order.
    #[default]
    Forward,
    /// Descending key order.
    Reverse,
}

/// One entry of table `T`: its key and value.
pub type Entry<T> = (<T as Table>::Key, <T as Table>::Value);

/// Typed reads; implemented by the live store and by snapshots.
pub trait ReadView {
    /// The value stored under `key` in table `T`, if any.
    fn get<T: Table>(&self, key: &T::Key) -> Result<Option<T::Value>>;

    /// The values of several keys of table `T`, in the order of `keys` (one batched lookup).
    fn multi_get<T: Table>(&self, keys: &[T::Key]) -> Result<Vec<Option<T::Value>>>;

    /// Entries of `T` whose keys fall in `range`, ascending (`Forward`, from the start bound) or
    /// descending (`Reverse`, from the end bound). Use `.take(n)` to stop after `n` entries.
    fn scan<T: Table, R: RangeBounds<T::Key>>(
        &self,
        range: R,
        dir: Direction,
    ) -> Result<Scan<'_, T>>;

    /// Entries of `T` whose key starts with `prefix` (a leading part of the key tuple), in
    /// either direction. With `after`, the scan resumes strictly past that full key in the scan's
    /// direction: the position a keyset page token carries.
    fn prefix_scan<T: Table, P: KeyCodec>(
        &self,
        prefix: &P,
        after: Option<&T::Key>,
        dir: Direction,
    ) -> Result<Scan<'_, T>>
    where
        T::Key: KeyPrefix<P>;

    /// For each `(low, high)` of `ranges`, the last entry of `T` whose key lies in
    /// `low..=high` (`None`: no key there), found with one iterator sought once per range: the
    /// value of many keys "as of" a position (a balance at a block) without an iterator each.
    fn last_in_each<T: Table>(&self, ranges: &[(T::Key, T::Key)]) -> Result<Vec<Option<Entry<T>>>>;

    /// Whether `T` holds any key that starts with `prefix` (one seek, nothing decoded past it).
    fn has_prefix<T: Table, P: KeyCodec>(&self, prefix: &P) -> Result<bool>
    where
        T::Key: KeyPrefix<P>,
    {
        let mut scan = self.prefix_scan::<T, P>(prefix, None, Direction::Forward)?;
        Ok(scan.next().transpose()?.is_some())
    }
}

/// Byte bounds of a scan: inclusive lower, exclusive upper.
#[derive(Debug, Default)]
pub(crate) struct ByteRange {
    pub(crate) lower: Option<Vec<u8>>,
    pub(crate) upper: Option<Vec<u8>>,
}

impl ByteRange {
    /// Converts typed bounds; keys are prefix-free, so `enc(k) ‖ 00` is the successor of `enc(k)`.
    pub(crate) fn from_bounds<K: KeyCodec>(start: Bound<&K>, end: Bound<&K>) -> Self {
        let succ = |k: &K| {
            let mut b = encode_key(k);
            b.push(0);
            b
        };
        let lower = match start {
            Bound::Included(k) => Some(encode_key(k)),
            Bound::Excluded(k) => Some(succ(k)),
            Bound::Unbounded => None,
        };
        let upper = match end {
            Bound::Included(k) => Some(succ(k)),
            Bound::Excluded(k) => Some(encode_key(k)),
            Bound::Unbounded => None,
        };
        Self { lower, upper }
    }

    /// All keys starting with `prefix`, narrowed to those strictly past `after` in `dir`.
    pub(crate) fn for_prefix(prefix: &[u8], after: Option<Vec<u8>>, dir: Direction) -> Self {
        let mut r = Self {
            lower: if prefix.is_empty() {
                None
            } else {
                Some(prefix.to_vec())
            },
            upper: prefix_successor(prefix),
        };
        if let Some(mut a) = after {
            match dir {
                Direction::Forward => {
                    a.push(0);
                    r.raise_lower(a);
                }
                Direction::Reverse => r.lower_upper(a),
            }
        }
        r
    }

    fn raise_lower(&mut self, candidate: Vec<u8>) {
        if self.lower.as_ref().is_none_or(|l| candidate > *l) {
            self.lower = Some(candidate);
        }
    }

    fn lower_upper(&mut self, candidate: Vec<u8>) {
        if self.upper.as_ref().is_none_or(|u| candidate < *u) {
            self.upper = Some(candidate);
        }
    }

    /// Whether no key can fall in the range.
    pub(crate) fn is_empty(&self) -> bool {
        matches!((&self.lower, &self.upper), (Some(l), Some(u)) if l >= u)
    }
}

/// Where reads go: the live database, or a snapshot of it.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub(crate) db: &'a Db,
    pub(crate) snapshot: Option<&'a rocksdb::SnapshotWithThreadMode<'a, Db>>,
}

impl<'a> View<'a> {
    fn read_options(&self) -> ReadOptions {
        let mut ro = ReadOptions::default();
        if let Some(s) = self.snapshot {
            ro.set_snapshot(s);
        }
        ro
    }

    fn cf(&self, name: &'static str) -> Result<&'a rocksdb::ColumnFamily> {
        self.db
            .cf_handle(name)
            .ok_or_else(|| StoreError::UnknownTable(name.to_owned()))
    }

    pub(crate) fn get<T: Table>(&self, key: &T::Key) -> Result<Option<T::Value>> {
        let cf = self.cf(T::NAME)?;
        let mut kb = Vec::with_capacity(48);
        key.encode_key(&mut kb);
        let found = self
            .db
            .get_pinned_cf_opt(cf, &kb, &self.read_options())
            .map_err(rocks)?;
        match found {
            None => Ok(None),
            Some(v) => decode_value::<T>(&v).map(Some),
        }
    }

    pub(crate) fn multi_get<T: Table>(&self, keys: &[T::Key]) -> Result<Vec<Option<T::Value>>> {
        let cf = self.cf(T::NAME)?;
        let encoded: Vec<Vec<u8>> = keys.iter().map(encode_key).collect();
        let results =
            self.db
                .batched_multi_get_cf_opt(cf, encoded.iter(), false, &self.read_options());
        results
            .into_iter()
            .map(|r| match r.map_err(rocks)? {
                None => Ok(None),
                Some(v) => decode_value::<T>(&v).map(Some),
            })
            .collect()
    }

    pub(crate) fn scan_bytes<T: Table>(
        &self,
        range: ByteRange,
        dir: Direction,
    ) -> Result<Scan<'a, T>> {
        let cf = self.cf(T::NAME)?;
        if range.is_empty() {
            return Ok(Scan::empty());
        }
        let mut ro = self.read_options();
        if let Some(l) = range.lower {
            ro.set_iterate_lower_bound(l);
        }
        if let Some(u) = range.upper {
            ro.set_iterate_upper_bound(u);
        }
        let mut iter = self.db.raw_iterator_cf_opt(cf, ro);
        // With iterate bounds set, RocksDB's SeekToFirst seeks to the lower bound and SeekToLast
        // to the last key below the upper bound.
        match dir {
            Direction::Forward => iter.seek_to_first(),
            Direction::Reverse => iter.seek_to_last(),
        }
        Ok(Scan {
            iter: Some(iter),
            dir,
            started: false,
            _table: PhantomData,
        })
    }

    pub(crate) fn scan<T: Table, R: RangeBounds<T::Key>>(
        &self,
        range: R,
        dir: Direction,
    ) -> Result<Scan<'a, T>> {
        self.scan_bytes(
            ByteRange::from_bounds(range.start_bound(), range.end_bound()),
            dir,
        )
    }

    pub(crate) fn prefix_scan<T: Table, P: KeyCodec>(
        &self,
        prefix: &P,
        after: Option<&T::Key>,
        dir: Direction,
    ) -> Result<Scan<'a, T>> {
        let p = encode_key(prefix);
        self.scan_bytes(ByteRange::for_prefix(&p, after.map(encode_key), dir), dir)
    }
}

impl View<'_> {
    pub(crate) fn last_in_each<T: Table>(
        &self,
        ranges: &[(T::Key, T::Key)],
    ) -> Result<Vec<Option<Entry<T>>>> {
        let cf = self.cf(T::NAME)?;
        let mut iter = self.db.raw_iterator_cf_opt(cf, self.read_options());
        let mut out = Vec::with_capacity(ranges.len());
        for (low, high) in ranges {
            let (low, high) = (encode_key(low), encode_key(high));
            // The last key at or before `high`; keys are prefix-free, so it is in the range
            // exactly when it is not below `low`.
            iter.seek_for_prev(&high);
            out.push(match iter.item() {
                Some((k, v)) if k >= low.as_slice() => Some(decode_entry::<T>(k, v)?),
                Some(_) => None,
                None => {
                    iter.status().map_err(rocks)?;
                    None
                }
            });
        }
        Ok(out)
    }
}

/// One entry of `T`, decoded.
fn decode_entry<T: Table>(k: &[u8], v: &[u8]) -> Result<Entry<T>> {
    let key = decode_key::<T::Key>(k).map_err(|source| StoreError::Decode {
        table: T::NAME,
        part: Part::Key,
        source,
    })?;
    Ok((key, decode_value::<T>(v)?))
}

fn decode_value<T: Table>(bytes: &[u8]) -> Result<T::Value> {
    T::Value::decode_value(bytes).map_err(|source| StoreError::Decode {
        table: T::NAME,
        part: Part::Value,
        source,
    })
}

/// An ordered run over a table: yields `(key, value)` or the error that ended it (after an error
/// the scan yields nothing more).
pub struct Scan<'a, T: Table> {
    iter: Option<DBRawIteratorWithThreadMode<'a, Db>>,
    dir: Direction,
    started: bool,
    _table: PhantomData<fn() -> T>,
}

impl<T: Table> Scan<'_, T> {
    fn empty() -> Self {
        Scan {
            iter: None,
            dir: Direction::Forward,
            started: true,
            _table: PhantomData,
        }
    }

    /// The scan's direction.
    pub fn direction(&self) -> Direction {
        self.dir
    }
}

impl<T: Table> Iterator for Scan<'_, T> {
    type Item = Result<(T::Key, T::Value)>;

    fn next(&mut self) -> Option<Self::Item> {
        let iter = self.iter.as_mut()?;
        if self.started {
            match self.dir {
                Direction::Forward => iter.next(),
                Direction::Reverse => iter.prev(),
            }
        }
        self.started = true;
        let item = match iter.item() {
            Some((k, v)) => decode_entry::<T>(k, v),
            None => {
                let status = iter.status().map_err(rocks);
                self.iter = None;
                return status.err().map(Err);
            }
        };
        if item.is_err() {
            self.iter = None;
        }
        Some(item)
    }
}
