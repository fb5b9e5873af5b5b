//! One page of results and the position to resume after it.

/// A page: the items served and, when more exist, the position of the last one (to be sealed in
/// a `nextPageToken`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The items, at most the page size.
    pub items: Vec<T>,
    /// The position of the last item served when at least one more item follows; `None` on the
    /// last page.
    pub next: Option<Vec<u8>>,
}

/// Takes one page of `page_size` items (at least 1) from `iter`: it pulls `page_size + 1` items
/// to learn whether more exist, and never more, so a page costs what `page_size + 1` items of
/// `iter` cost at any depth.
pub fn take_page<I, T, P>(iter: I, page_size: u32, position_of: P) -> Page<T>
where
    I: IntoIterator<Item = T>,
    P: Fn(&T) -> Vec<u8>,
{
    let size = usize::try_from(page_size.max(1)).unwrap_or(usize::MAX);
    let mut items: Vec<T> = iter.into_iter().take(size.saturating_add(1)).collect();
    let more = items.len() > size;
    items.truncate(size);
    let next = if more {
        items.last().map(position_of)
    } else {
        None
    };
    Page { items, next }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(x: &u64) -> Vec<u8> {
        x.to_be_bytes().to_vec()
    }

    #[test]
    fn full_page_with_more_has_next() {
        let page = take_page(1..=5u64, 2, pos);
        assert_eq!(page.items, [1, 2]);
        assert_eq!(page.next, Some(pos(&2)));
    }

    #[test]
    fn exact_last_page_has_no_next() {
        let page = take_page(1..=4u64, 4, pos);
        assert_eq!(page.items, [1, 2, 3, 4]);
        assert_eq!(page.next, None);
        assert_eq!(take_page(std::iter::empty::<u64>(), 3, pos).next, None);
    }

    #[test]
    fn pulls_one_more_than_the_page_and_no_more() {
        let mut pulled = 0;
        let iter = (0..100u64).inspect(|_| pulled += 1);
        let page = take_page(iter, 10, pos);
        assert_eq!(page.items.len(), 10);
        assert_eq!(pulled, 11);
    }

    #[test]
    fn zero_page_size_serves_one() {
        let page = take_page(1..=3u64, 0, pos);
        assert_eq!(page.items, [1]);
        assert_eq!(page.next, Some(pos(&1)));
    }
}
