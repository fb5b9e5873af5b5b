//! Handing a finished batch's overlay over to its landing generation (the rows a deriver keeps
//! readable until the batch is written: write-behind, `docs/node-index.md`).

/// Moves everything in `current` into `landing`, leaving `current` empty. When `landing` is
/// empty (always, as `committed` comes before the next `finish`) the two change places, which
/// costs nothing per row and keeps both allocations; otherwise the entries are merged, the
/// current batch's winning. `is_empty` is the collection's own.
pub(crate) fn hand_over<C>(current: &mut C, landing: &mut C, is_empty: impl Fn(&C) -> bool)
where
    C: Default + IntoIterator + Extend<<C as IntoIterator>::Item>,
{
    if is_empty(landing) {
        std::mem::swap(current, landing);
    } else {
        landing.extend(std::mem::take(current));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn hand_over_swaps_into_an_empty_landing_and_merges_otherwise() {
        let mut current = HashMap::from([(1, 'a'), (2, 'b')]);
        let mut landing = HashMap::new();
        hand_over(&mut current, &mut landing, HashMap::is_empty);
        assert!(current.is_empty());
        assert_eq!(landing, HashMap::from([(1, 'a'), (2, 'b')]));

        let mut current = HashMap::from([(2, 'c'), (3, 'd')]);
        hand_over(&mut current, &mut landing, HashMap::is_empty);
        assert!(current.is_empty());
        assert_eq!(landing, HashMap::from([(1, 'a'), (2, 'c'), (3, 'd')]));
    }
}
