//! One filtered page over several sorted scans (one per address or node of a listing), each of
//! which can fail midway: the scans are merged (an entry several of them share comes out once),
//! read in chunks and filtered within the shared budget ([`MAX_EXAMINED`](crate::MAX_EXAMINED)). A failed scan ends
//! its stream there; the page then returns that failure rather than a short page.

use std::cell::RefCell;

use crate::filtered::{FilterLimits, FilteredPage, filtered_page};
use crate::merge::merge_sorted;
use crate::params::SortOrder;

/// One page of up to `page_size` rows from `scans` (each sorted in `sort` order of positions,
/// each strictly past the caller's resume point). `fetch`, `keep` and `ends` are
/// [`filtered_page`]'s. The first scan failure, if any, is the page's result.
pub fn merged_page<P, R, E, S>(
    scans: Vec<S>,
    sort: SortOrder,
    page_size: usize,
    fetch: impl FnMut(&[P]) -> Result<Vec<R>, E>,
    keep: impl FnMut(&P, &R) -> bool,
    ends: impl FnMut(&P) -> bool,
) -> Result<FilteredPage<P, R>, E>
where
    P: Ord + Clone,
    S: Iterator<Item = Result<P, E>>,
{
    let failure: RefCell<Option<E>> = RefCell::new(None);
    let sources: Vec<_> = scans
        .into_iter()
        .map(|scan| {
            let failure = &failure;
            scan.map_while(move |r| match r {
                Ok(p) => Some(p),
                Err(e) => {
                    failure.borrow_mut().get_or_insert(e);
                    None
                }
            })
        })
        .collect();
    let positions = merge_sorted(sources, sort, P::clone).map(Ok);
    let page = filtered_page(positions, FilterLimits::page(page_size), fetch, keep, ends);
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filtered::MAX_EXAMINED;

    #[test]
    fn merges_filters_and_serves_a_shared_entry_once() {
        let a = vec![Ok::<u64, &str>(1), Ok(3), Ok(4)];
        let b = vec![Ok(2), Ok(3), Ok(6)];
        let page = merged_page(
            vec![a.into_iter(), b.into_iter()],
            SortOrder::Asc,
            3,
            |chunk: &[u64]| Ok(chunk.to_vec()),
            |_, r| *r != 2,
            |_| false,
        );
        assert_eq!(
            page.map(|p| (
                p.items.into_iter().map(|(p, _)| p).collect::<Vec<_>>(),
                p.next
            )),
            Ok((vec![1, 3, 4], Some(4)))
        );
    }

    #[test]
    fn a_failed_scan_fails_the_page() {
        let a = vec![Ok(1u64), Err("broken"), Ok(5)];
        let b = vec![Ok(2), Ok(3)];
        let page = merged_page(
            vec![a.into_iter(), b.into_iter()],
            SortOrder::Asc,
            10,
            |chunk: &[u64]| Ok(chunk.to_vec()),
            |_, _| true,
            |_| false,
        );
        assert_eq!(page.err(), Some("broken"));
    }

    #[test]
    fn the_budget_is_the_shared_one() {
        let scan = (0..(MAX_EXAMINED as u64 + 50)).map(Ok::<u64, &str>);
        let page = merged_page(
            vec![scan],
            SortOrder::Asc,
            10,
            |chunk: &[u64]| Ok(chunk.to_vec()),
            |_, _| false,
            |_| false,
        );
        let page = page.ok();
        assert_eq!(page.as_ref().map(|p| p.items.len()), Some(0));
        // Ended on the budget (rows are read in chunks): a position to resume from, before the
        // scan's end.
        let next = page.and_then(|p| p.next);
        let budget = MAX_EXAMINED as u64;
        assert!(
            next.is_some_and(|n| n + 1 >= budget && n < budget + 49),
            "{next:?}"
        );
    }
}
