//! The scan the block-ordered listings share: the entries of one `(chain, address)` within a
//! block range, newest first (or oldest first), resumed strictly past a position of the key
//! parts after the chain and address.

use std::ops::Bound;

use snowline_query::params::BlockRange;
use snowline_query::{Keyset, SortOrder, decode_position};
use snowline_store::{Direction, KeyCodec, ReadView, Table};

use super::EvmReadError;
use crate::tables::{
    Addr, EvContractsByDeployer, EvInternalByAddress, EvTransfersByAddress, EvTransfersByToken,
    EvTxsByAddress,
};

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

impl<A: Part, B: Part> Part for (A, B) {
    const MIN: Self = (A::MIN, B::MIN);
    const MAX: Self = (A::MAX, B::MAX);
}

/// A table keyed `(chain, address, block, rest...)`: one address's entries in block order.
pub(crate) trait AddressOrder: Table {
    /// The key parts after the block.
    type Rest: Part;
    /// The key of `(chain, address, block, rest)`.
    fn key(chain: u64, address: Addr, block: u64, rest: Self::Rest) -> Self::Key;
}

macro_rules! address_order {
    ($($t:ty: $a:ty $(, $b:ty)?;)+) => {$(
        impl AddressOrder for $t {
            type Rest = address_order!(@rest $a $(, $b)?);
            #[allow(non_snake_case, unused_parens)]
            fn key(chain: u64, address: Addr, block: u64, rest: Self::Rest) -> Self::Key {
                address_order!(@key chain, address, block, rest, $a $(, $b)?)
            }
        }
    )+};
    (@rest $a:ty) => { $a };
    (@rest $a:ty, $b:ty) => { ($a, $b) };
    (@key $c:ident, $ad:ident, $bl:ident, $r:ident, $a:ty) => { ($c, $ad, $bl, $r) };
    (@key $c:ident, $ad:ident, $bl:ident, $r:ident, $a:ty, $b:ty) => { ($c, $ad, $bl, $r.0, $r.1) };
}

address_order! {
    EvTxsByAddress: u32;
    EvTransfersByAddress: u64, u32;
    EvTransfersByToken: u64, u32;
    EvInternalByAddress: u32, u32;
    EvContractsByDeployer: u32, u32;
}

/// One entry of table `T` read by a scan, or why the scan failed.
pub(crate) type Entry<T> = Result<(<T as Table>::Key, <T as Table>::Value), EvmReadError>;

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
) -> Result<Entries<T>, EvmReadError>
where
    T: AddressOrder<Rest = (A, B)>,
    A: Part,
    B: Part,
{
    in_order::<T>(view, chain, address, range, SortOrder::Desc, from)?
        .take(take)
        .collect()
}

/// The entries of `T` under `(chain, address)` with a block in `range`, in `order` (newest
/// first for [`SortOrder::Desc`]), strictly past `from` (a position `(block, rest...)` this
/// listing wrote) when given; read lazily, so a page pulls only what it serves or filters out.
pub(crate) fn in_order<'v, T: AddressOrder + 'v>(
    view: &'v impl ReadView,
    chain: u64,
    address: Addr,
    range: BlockRange,
    order: SortOrder,
    from: Option<&[u8]>,
) -> Result<impl Iterator<Item = Entry<T>> + 'v, EvmReadError> {
    let after = from
        .map(|bytes| {
            let (block, rest): (u64, T::Rest) =
                decode_position(bytes).ok_or(EvmReadError::BadPosition)?;
            if range.contains(block) {
                Ok(T::key(chain, address, block, rest))
            } else {
                Err(EvmReadError::BadPosition)
            }
        })
        .transpose()?;
    let start = range.start.unwrap_or(0);
    let first = T::key(chain, address, start, T::Rest::MIN);
    let end = match range.end {
        Some(end) => Bound::Excluded(T::key(chain, address, end, T::Rest::MIN)),
        None => Bound::Included(T::key(chain, address, u64::MAX, T::Rest::MAX)),
    };
    let (low, high, dir) = match (order, after) {
        (SortOrder::Desc, Some(p)) => (
            Bound::Included(first),
            Bound::Excluded(p),
            Direction::Reverse,
        ),
        (SortOrder::Desc, None) => (Bound::Included(first), end, Direction::Reverse),
        (SortOrder::Asc, Some(p)) => (Bound::Excluded(p), end, Direction::Forward),
        (SortOrder::Asc, None) => (Bound::Included(first), end, Direction::Forward),
    };
    let scan = if range.end.is_some_and(|end| end <= start) {
        None
    } else {
        Some(view.scan::<T, _>((low, high), dir)?)
    };
    Ok(scan
        .into_iter()
        .flatten()
        .map(|e| e.map_err(EvmReadError::from)))
}
