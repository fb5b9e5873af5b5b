//! One keyset page over a sorted stream of positions whose rows are fetched in chunks and
//! filtered: the page stops after `page_size` kept rows, at the end of the stream, or once an
//! examination budget is spent, so a selective filter costs a bounded amount per page and paging
//! still visits every match exactly once.

/// Rows examined (kept or filtered out) for one page at most, in every listing: a page that
/// reaches it before filling ends early with a position after the last row examined, so a
/// selective filter costs a bounded amount per page and paging still visits every match exactly
/// once.
pub const MAX_EXAMINED: usize = 10_000;

/// What [`filtered_page`] needs besides the positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilterLimits {
    /// Rows per page (at least 1).
    pub page_size: usize,
    /// Rows examined (kept or not) per page at most; a page that reaches it before filling ends
    /// early, with a position after the last row examined.
    pub max_examined: usize,
}

impl FilterLimits {
    /// `page_size` rows per page, within the budget every listing shares ([`MAX_EXAMINED`]).
    pub fn page(page_size: usize) -> Self {
        Self {
            page_size,
            max_examined: MAX_EXAMINED,
        }
    }
}

/// A filtered page: the rows kept, each with its position, and where the next page starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilteredPage<P, R> {
    /// The kept rows, in stream order.
    pub items: Vec<(P, R)>,
    /// The position to resume strictly after, when more may follow: the last row served on a
    /// full page, the last row examined when the budget ran out.
    pub next: Option<P>,
}

/// Reads one page from `positions` (sorted, each once, already past the caller's resume point).
/// Positions are taken in chunks; `fetch` turns a chunk into its rows (one batched lookup);
/// `keep` filters them. `ends` marks the first position past which nothing can match (say,
/// below a minimum in a descending order), which ends the stream there.
pub fn filtered_page<P, R, E>(
    positions: impl Iterator<Item = Result<P, E>>,
    limits: FilterLimits,
    mut fetch: impl FnMut(&[P]) -> Result<Vec<R>, E>,
    mut keep: impl FnMut(&P, &R) -> bool,
    mut ends: impl FnMut(&P) -> bool,
) -> Result<FilteredPage<P, R>, E>
where
    P: Clone,
{
    let page_size = limits.page_size.max(1);
    let mut positions = positions.fuse();
    let mut kept: Vec<(P, R)> = Vec::with_capacity(page_size.min(256) + 1);
    let mut examined = 0usize;
    let mut last_examined = None;
    let mut exhausted = false;
    'fill: while kept.len() <= page_size && examined < limits.max_examined {
        let want = (page_size + 1 - kept.len()).clamp(16, 256);
        let mut chunk = Vec::with_capacity(want);
        for p in positions.by_ref().take(want) {
            let p = p?;
            if ends(&p) {
                exhausted = true;
                break;
            }
            chunk.push(p);
        }
        if chunk.len() < want {
            exhausted = true;
        }
        let rows = fetch(&chunk)?;
        for (p, row) in chunk.into_iter().zip(rows) {
            examined += 1;
            last_examined = Some(p.clone());
            if keep(&p, &row) {
                kept.push((p, row));
                if kept.len() > page_size {
                    break 'fill;
                }
            }
        }
        if exhausted {
            break;
        }
    }
    if kept.len() > page_size {
        kept.truncate(page_size);
        let next = kept.last().map(|(p, _)| p.clone());
        return Ok(FilteredPage { items: kept, next });
    }
    // Not filled: nothing more matches, or the budget ran out first.
    let next = if exhausted { None } else { last_examined };
    Ok(FilteredPage { items: kept, next })
}

#[cfg(test)]
mod tests {
    use super::*;

    type Never = std::convert::Infallible;

    fn page(
        from: u64,
        n: u64,
        page_size: usize,
        max_examined: usize,
        keep: impl Fn(u64) -> bool,
    ) -> FilteredPage<u64, u64> {
        let limits = FilterLimits {
            page_size,
            max_examined,
        };
        let positions = (from..n).map(Ok::<u64, Never>);
        let Ok(page) = filtered_page(
            positions,
            limits,
            |chunk| Ok(chunk.iter().map(|p| p * 10).collect()),
            |_, row| keep(*row / 10),
            |_| false,
        );
        page
    }

    /// Pages through `0..n` and returns every item served, in order.
    fn all(n: u64, page_size: usize, max_examined: usize, keep: impl Fn(u64) -> bool) -> Vec<u64> {
        let mut out = Vec::new();
        let mut from = 0;
        let mut pages = 0;
        loop {
            let p = page(from, n, page_size, max_examined, &keep);
            out.extend(p.items.iter().map(|(pos, _)| *pos));
            pages += 1;
            assert!(pages <= n + 2, "paging does not end");
            match p.next {
                Some(next) => from = next + 1,
                None => return out,
            }
        }
    }

    #[test]
    fn every_match_exactly_once_whatever_the_budget() {
        for n in [0, 1, 5, 17, 300] {
            for page_size in [1, 3, 10, 100] {
                for budget in [1, 7, 64, 10_000] {
                    let got = all(n, page_size, budget, |x| x % 3 == 0);
                    let want: Vec<u64> = (0..n).filter(|x| x % 3 == 0).collect();
                    assert_eq!(got, want, "n {n} page {page_size} budget {budget}");
                }
            }
        }
    }

    #[test]
    fn a_full_page_points_at_its_last_item() {
        let p = page(0, 100, 4, 10_000, |_| true);
        assert_eq!(
            p.items.iter().map(|(p, r)| (*p, *r)).collect::<Vec<_>>(),
            [(0, 0), (1, 10), (2, 20), (3, 30)]
        );
        assert_eq!(p.next, Some(3));
    }

    #[test]
    fn the_last_page_has_no_next() {
        let p = page(0, 4, 4, 10_000, |_| true);
        assert_eq!(p.items.len(), 4);
        assert_eq!(p.next, None);
    }

    #[test]
    fn a_spent_budget_ends_the_page_after_the_last_examined() {
        let p = page(0, 1000, 10, 16, |x| x > 500);
        assert!(p.items.is_empty());
        assert_eq!(p.next, Some(15));
    }

    #[test]
    fn ends_cuts_the_stream() {
        let limits = FilterLimits {
            page_size: 10,
            max_examined: 1000,
        };
        let Ok(p) = filtered_page(
            (0..100u64).map(Ok::<u64, Never>),
            limits,
            |chunk| Ok(chunk.to_vec()),
            |_, _| true,
            |p| *p >= 3,
        );
        assert_eq!(
            p.items.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(p.next, None);
    }

    #[test]
    fn errors_pass_through() {
        let limits = FilterLimits {
            page_size: 10,
            max_examined: 1000,
        };
        let positions = [Ok(1u64), Err("broken")].into_iter();
        let r = filtered_page(
            positions,
            limits,
            |c| Ok(c.to_vec()),
            |_, _| true,
            |_| false,
        );
        assert_eq!(r.err(), Some("broken"));
        let r = filtered_page(
            (0..5u64).map(Ok),
            limits,
            |_| Err::<Vec<u64>, _>("fetch"),
            |_, _| true,
            |_| false,
        );
        assert_eq!(r.err(), Some("fetch"));
    }
}
