//! One page over several sources that are read separately (say, two chains' indexes): each gives
//! a [`FilteredPage`] read strictly past the same position, and the merge serves nothing past
//! what every unfinished source has examined, so paging the merge visits every item of every
//! source exactly once, in order.

use crate::filtered::FilteredPage;
use crate::params::SortOrder;

/// Merges `pages`, each read from its own source in `order` strictly past the same position and
/// holding at most `page_size` items, into one page of at most `page_size` items.
///
/// A source whose `next` is set may hold more past it, unread, so nothing past the earliest such
/// `next` (the frontier) is served: it comes again on the next page. The merged `next` is the
/// last item served when items were left over, else the frontier (`None` once every source is
/// exhausted). Items at equal positions come out once, the lowest-numbered page's winning.
pub fn merge_pages<P, R>(
    pages: Vec<FilteredPage<P, R>>,
    page_size: usize,
    order: SortOrder,
) -> FilteredPage<P, R>
where
    P: Ord + Clone,
{
    let page_size = page_size.max(1);
    let before = |a: &P, b: &P| match order {
        SortOrder::Asc => a < b,
        SortOrder::Desc => a > b,
    };
    let frontier = pages
        .iter()
        .filter_map(|p| p.next.clone())
        .reduce(|a, b| if before(&b, &a) { b } else { a });
    let mut items: Vec<(usize, P, R)> = pages
        .into_iter()
        .enumerate()
        .flat_map(|(source, page)| {
            page.items
                .into_iter()
                .map(move |(position, row)| (source, position, row))
        })
        .filter(|(_, position, _)| frontier.as_ref().is_none_or(|f| !before(f, position)))
        .collect();
    items.sort_by(|a, b| {
        let by_position = match order {
            SortOrder::Asc => a.1.cmp(&b.1),
            SortOrder::Desc => b.1.cmp(&a.1),
        };
        by_position.then(a.0.cmp(&b.0))
    });
    items.dedup_by(|later, kept| later.1 == kept.1);
    let left_over = items.len() > page_size;
    items.truncate(page_size);
    let next = if left_over {
        items.last().map(|(_, position, _)| position.clone())
    } else {
        frontier
    };
    FilteredPage {
        items: items
            .into_iter()
            .map(|(_, position, row)| (position, row))
            .collect(),
        next,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::filtered::{FilterLimits, filtered_page};

    type Never = std::convert::Infallible;

    /// One source's page as a chain index would read it: its positions strictly past `from` in
    /// `order`, kept when `keep` says so, within `budget` examined.
    fn source_page(
        positions: &[u64],
        from: Option<u64>,
        order: SortOrder,
        page_size: usize,
        budget: usize,
        keep: &dyn Fn(u64) -> bool,
    ) -> FilteredPage<u64, u64> {
        let mut sorted: Vec<u64> = positions.to_vec();
        if order == SortOrder::Desc {
            sorted.reverse();
        }
        let past = sorted.into_iter().filter(move |p| match (from, order) {
            (None, _) => true,
            (Some(f), SortOrder::Asc) => *p > f,
            (Some(f), SortOrder::Desc) => *p < f,
        });
        let limits = FilterLimits {
            page_size,
            max_examined: budget,
        };
        let Ok(page) = filtered_page(
            past.map(Ok::<u64, Never>),
            limits,
            |chunk| Ok(chunk.iter().map(|p| p * 10).collect()),
            |_, row| keep(*row / 10),
            |_| false,
        );
        page
    }

    /// Pages through the merge of `sources` and returns what it served, in order.
    fn page_through(
        sources: &[Vec<u64>],
        order: SortOrder,
        page_size: usize,
        budget: usize,
        keep: &dyn Fn(u64) -> bool,
    ) -> Vec<u64> {
        let mut out = Vec::new();
        let mut from = None;
        for _ in 0..10_000 {
            let pages = sources
                .iter()
                .map(|s| source_page(s, from, order, page_size, budget, keep))
                .collect();
            let page = merge_pages(pages, page_size, order);
            assert!(page.items.len() <= page_size);
            for (position, row) in &page.items {
                assert_eq!(*row, position * 10, "each item keeps its row");
            }
            out.extend(page.items.iter().map(|(p, _)| *p));
            match page.next {
                Some(next) => from = Some(next),
                None => return out,
            }
        }
        panic!("paging does not end");
    }

    #[test]
    fn paging_the_merge_serves_the_sorted_union_of_matches_once() {
        // Sources that interleave, overlap (a shared position is served once), lie apart, or
        // are empty; the expected answer is the union, filtered and sorted, derived directly.
        let sources: [Vec<Vec<u64>>; 5] = [
            vec![(0..60).step_by(2).collect(), (1..60).step_by(2).collect()],
            vec![(0..40).collect(), (20..90).step_by(3).collect()],
            vec![(0..10).collect(), (100..130).collect(), vec![]],
            vec![vec![], vec![]],
            vec![(0..200).filter(|x| x % 7 == 0).collect(), vec![5, 6, 7, 8]],
        ];
        let filters: [(&str, &dyn Fn(u64) -> bool); 3] = [
            ("all", &|_| true),
            ("every third", &|x| x % 3 == 0),
            ("past 100", &|x| x > 100),
        ];
        for s in &sources {
            for (name, keep) in filters {
                let mut want: Vec<u64> = s
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|x| keep(*x))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                for order in [SortOrder::Asc, SortOrder::Desc] {
                    if order == SortOrder::Desc {
                        want.reverse();
                    }
                    for page_size in [1, 2, 5, 100] {
                        for budget in [1, 3, 16, 10_000] {
                            let got = page_through(s, order, page_size, budget, keep);
                            assert_eq!(
                                got, want,
                                "{s:?} {name} {order:?} page {page_size} budget {budget}"
                            );
                        }
                    }
                    if order == SortOrder::Desc {
                        want.reverse();
                    }
                }
            }
        }
    }

    #[test]
    fn nothing_past_an_unfinished_source_is_served() {
        // Source 0 stopped early at 4 (its budget spent); source 1 read up to 9. Serving 5..9
        // now would skip whatever source 0 holds at 5..9.
        let pages = vec![
            FilteredPage {
                items: vec![(1, 'a')],
                next: Some(4),
            },
            FilteredPage {
                items: vec![(2, 'b'), (6, 'c'), (9, 'd')],
                next: Some(9),
            },
        ];
        let page = merge_pages(pages, 10, SortOrder::Asc);
        assert_eq!(page.items, [(1, 'a'), (2, 'b')]);
        assert_eq!(page.next, Some(4));
    }

    #[test]
    fn left_over_items_end_the_page_at_the_last_served() {
        let pages = vec![
            FilteredPage {
                items: vec![(9, 'a'), (5, 'b')],
                next: None,
            },
            FilteredPage {
                items: vec![(7, 'c'), (5, 'd')],
                next: None,
            },
        ];
        let page = merge_pages(pages, 2, SortOrder::Desc);
        assert_eq!(page.items, [(9, 'a'), (7, 'c')]);
        assert_eq!(page.next, Some(7));
        // Equal positions: the lowest-numbered page's item.
        let pages = vec![
            FilteredPage {
                items: vec![(5, 'b')],
                next: None,
            },
            FilteredPage {
                items: vec![(5, 'd')],
                next: None,
            },
        ];
        let page = merge_pages(pages, 2, SortOrder::Desc);
        assert_eq!(page.items, [(5, 'b')]);
        assert_eq!(page.next, None);
    }
}
