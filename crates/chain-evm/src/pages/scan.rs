//! The scan the block-ordered listings share: the entries of one `(chain, address)` within a
//! block range, newest first, resumed strictly past a position of the last two key parts.

use std::ops::Bound;

use snowline_query::params::BlockRange;
use snowline_query::{Keyset, decode_position};
use snowline_store::{Direction, KeyCodec, ReadView, Table};

use super::PageError;
use crate::tables::Addr;

/// A key part after the block: a log index (`u64`) or a tx index, frame or sub-index (`u32`).
pub(crate) trait Part: KeyCodec + Keyset + Copy + Ord {
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
}

impl Part for u64 {
    const MIN: Self = 0;
    const MAX: Self = u64::MAX;
}

impl Part for u32 {
    const MIN: Self = 0;
    const MAX: Self = u32::MAX;
}

/// A listing position: block, then the two key parts after it.
pub(crate) type Position<A, B> = (u64, A, B);

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
            let (block, a, b): Position<A, B> =
                decode_position(bytes).ok_or(PageError::BadPosition)?;
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
