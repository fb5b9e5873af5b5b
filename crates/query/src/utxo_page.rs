//! The UTXO listing every chain room serves (`GET .../utxos` of the X-Chain, the P-Chain and the
//! C-Chain's atomic memory): each address's order of `(sort value, UTXO id)` (by creation time
//! or by amount) is scanned from the page's position, the orders are merged (a UTXO several of
//! the addresses own comes out once), the UTXOs are read in chunks and kept by the room's filter
//! and the minimum amount. A room gives its scans and its row reads; the rules of the listing
//! are here.

use snowline_types::Id;

use crate::filtered::FilteredPage;
use crate::params::SortOrder;
use crate::scans::merged_page;

/// A place in a listing ordered by a `u64` (a creation time, an amount), then an id: a UTXO's,
/// a reward's.
pub type SortPosition = (u64, Id);

/// What a UTXO listing asks of the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtxoListing {
    /// UTXOs per page.
    pub page_size: usize,
    /// Only UTXOs of at least this amount.
    pub min_amount: u64,
    /// Ordered by amount (else by creation time), then UTXO id.
    pub by_amount: bool,
    /// Ascending or descending.
    pub sort: SortOrder,
}

impl UtxoListing {
    /// Where the scans start: strictly past `from`; with no `from`, ascending by amount with a
    /// minimum starts at the minimum rather than filtering up to it.
    pub fn start(&self, from: Option<SortPosition>) -> Option<SortPosition> {
        from.or_else(|| {
            (self.by_amount && self.sort == SortOrder::Asc && self.min_amount > 0)
                .then(|| (self.min_amount - 1, Id([0xff; 32])))
        })
    }

    /// Whether nothing at or past `position` can match: descending by amount, below the minimum.
    fn ends(&self, (sort, _): &SortPosition) -> bool {
        self.by_amount && self.sort == SortOrder::Desc && *sort < self.min_amount
    }
}

/// One page of the listing: up to `page_size` UTXOs strictly past `from` that `keep` accepts and
/// whose `amount` is at least the minimum, with the position to resume from when more may
/// follow. `scans` opens each address's order strictly past the position it is given (sorted in
/// the listing's order); `fetch` reads the rows at a chunk of positions (one batched lookup).
pub fn utxo_page<R, E, S>(
    listing: &UtxoListing,
    from: Option<SortPosition>,
    scans: impl FnOnce(Option<SortPosition>) -> Result<Vec<S>, E>,
    fetch: impl FnMut(&[SortPosition]) -> Result<Vec<R>, E>,
    keep: impl Fn(&R) -> bool,
    amount: impl Fn(&R) -> u64,
) -> Result<FilteredPage<SortPosition, R>, E>
where
    S: Iterator<Item = Result<SortPosition, E>>,
{
    let scans = scans(listing.start(from))?;
    merged_page(
        scans,
        listing.sort,
        listing.page_size,
        fetch,
        |_, r| keep(r) && amount(r) >= listing.min_amount,
        |p| listing.ends(p),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    type Never = std::convert::Infallible;

    /// Two owners' orders of (amount, id); id byte `i` holds amount `amounts[i]`.
    fn page(
        listing: &UtxoListing,
        amounts: &[u64],
        owners: [&[u8]; 2],
        from: Option<SortPosition>,
    ) -> FilteredPage<SortPosition, u64> {
        let order = |ids: &[u8], start: Option<SortPosition>| {
            let mut v: Vec<SortPosition> = ids
                .iter()
                .map(|i| (amounts[*i as usize], Id([*i; 32])))
                .collect();
            v.sort_unstable();
            if listing.sort == SortOrder::Desc {
                v.reverse();
            }
            v.into_iter()
                .filter(move |p| {
                    start.is_none_or(|s| match listing.sort {
                        SortOrder::Asc => *p > s,
                        SortOrder::Desc => *p < s,
                    })
                })
                .map(Ok::<_, Never>)
                .collect::<Vec<_>>()
                .into_iter()
        };
        let Ok(page) = utxo_page(
            listing,
            from,
            |start| Ok(owners.iter().map(|ids| order(ids, start)).collect()),
            |chunk| Ok(chunk.iter().map(|(amount, _)| *amount).collect()),
            |_| true,
            |amount| *amount,
        );
        page
    }

    fn amounts_of(page: &FilteredPage<SortPosition, u64>) -> Vec<u64> {
        page.items.iter().map(|(_, a)| *a).collect()
    }

    #[test]
    fn ascending_by_amount_starts_at_the_minimum_and_serves_a_shared_utxo_once() {
        let amounts = [5, 1, 9, 7, 3];
        let listing = UtxoListing {
            page_size: 10,
            min_amount: 4,
            by_amount: true,
            sort: SortOrder::Asc,
        };
        let p = page(&listing, &amounts, [&[0, 1, 2], &[2, 3, 4]], None);
        assert_eq!(amounts_of(&p), [5, 7, 9]);
        assert_eq!(p.next, None);
        assert_eq!(listing.start(None), Some((3, Id([0xff; 32]))));
    }

    #[test]
    fn descending_by_amount_ends_below_the_minimum_and_resumes_past_the_position() {
        let amounts = [5, 1, 9, 7, 3];
        let listing = UtxoListing {
            page_size: 2,
            min_amount: 4,
            by_amount: true,
            sort: SortOrder::Desc,
        };
        let first = page(&listing, &amounts, [&[0, 1, 2], &[3, 4]], None);
        assert_eq!(amounts_of(&first), [9, 7]);
        let second = page(&listing, &amounts, [&[0, 1, 2], &[3, 4]], first.next);
        assert_eq!(amounts_of(&second), [5]);
        assert_eq!(second.next, None);
    }

    #[test]
    fn by_time_the_minimum_filters() {
        let amounts = [5, 1, 9];
        let listing = UtxoListing {
            page_size: 10,
            min_amount: 4,
            by_amount: false,
            sort: SortOrder::Asc,
        };
        assert_eq!(listing.start(None), None);
        let p = page(&listing, &amounts, [&[0, 1], &[2]], None);
        assert_eq!(amounts_of(&p), [5, 9]);
    }
}
