//! The scan the block-ordered listings share: the entries of one `(chain, address)` within a
//! block range, newest first, resumed strictly past a position of the last two key parts.

use std::ops::Bound;

use snowline_query::params::BlockRange;
use snowline_query::{PositionReader, PositionWriter};
use snowline_store::{Direction, KeyCodec, ReadView, Table};

use super::PageError;
use crate::tables::Addr;

/// A key part after the block: a log index (`u64`) or a tx index, frame or sub-index (`u32`).
pub(crate) trait Part: KeyCodec + Copy + Ord {
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
    /// Appends it to a position.
    fn write(self, w: &mut PositionWriter);
    /// Reads it from a position.
    fn read(r: &mut PositionReader<'_>) -> Result<Self, PageError>;
}

impl Part for u64 {
    const MIN: Self = 0;
    const MAX: Self = u64::MAX;
    fn write(self, w: &mut PositionWriter) {
        w.u64(self);
    }
    fn read(r: &mut PositionReader<'_>) -> Result<Self, PageError> {
        Ok(r.u64()?)
    }
}

impl Part for u32 {
    const MIN: Self = 0;
    const MAX: Self = u32::MAX;
    fn write(self, w: &mut PositionWriter) {
        w.u64(u64::from(self));
    }
    fn read(r: &mut PositionReader<'_>) -> Result<Self, PageError> {
        u32::try_from(r.u64()?).map_err(|_| PageError::BadPosition)
    }
}

/// A listing position: block, then the two key parts after it.
pub(crate) type Position<A, B> = (u64, A, B);

/// A position as page-token bytes.
pub(crate) fn write_position<A: Part, B: Part>((block, a, b): Position<A, B>) -> Vec<u8> {
    let mut w = PositionWriter::new();
    w.u64(block);
    a.write(&mut w);
    b.write(&mut w);
    w.into_bytes()
}

/// Page-token bytes back to a position.
pub(crate) fn read_position<A: Part, B: Part>(bytes: &[u8]) -> Result<Position<A, B>, PageError> {
    let mut r = PositionReader::new(bytes);
    let block = r.u64()?;
    let a = A::read(&mut r)?;
    let b = B::read(&mut r)?;
    r.finish()?;
    Ok((block, a, b))
}

/// Entries of table `T`, key and value.
pub(crate) type Entries<T> = Vec<(<T as Table>::Key, <T as Table>::Value)>;

/// Up to `take` entries of `T` under `(chain, address)` with a block in `range`, newest first,
/// strictly past `from` (a position this listing wrote) when given.
pub(crate) fn newest_first<T, A, B>(
    view: &impl ReadView,
    chain: u64,
    address: Addr,
    range: BlockRange,
    from: Option<&[u8]>,
    take: usize,
) -> Result<Entries<T>, PageError>
where
    T: Table<Key = (u64, Addr, u64, A, B)>,
    A: Part,
    B: Part,
{
    let low = (chain, address, range.start.unwrap_or(0), A::MIN, B::MIN);
    let high = match (from, range.end) {
        (Some(bytes), _) => {
            let (block, a, b) = read_position::<A, B>(bytes)?;
            if !range.contains(block) {
                return Err(PageError::BadPosition);
            }
            Bound::Excluded((chain, address, block, a, b))
        }
        (None, Some(end)) => Bound::Excluded((chain, address, end, A::MIN, B::MIN)),
        (None, None) => Bound::Included((chain, address, u64::MAX, A::MAX, B::MAX)),
    };
    if range.end.is_some_and(|end| end <= low.2) {
        return Ok(Vec::new());
    }
    view.scan::<T, _>((Bound::Included(low), high), Direction::Reverse)?
        .take(take)
        .map(|e| e.map_err(PageError::from))
        .collect()
}
