//! The layout of the metrics' counter rows (`icm_counts`). A message counts in one row per
//! interval and per shape: each end of the message is either summed over (every chain), fixed
//! (a filter: in the key before the bucket start, so a filtered series is one range scan) or
//! grouped (after the bucket start: one row per chain within a bucket). The nine shapes answer
//! every filter × `groupBy` of the timeseries from rows of exactly its labels, so a page costs
//! O(buckets × groups), whatever the messages' number or the pairs' on the network.

use snowline_chain_metrics::Interval;
use snowline_types::evm::B256;

use super::query::{IcmFilter, IcmGroup, IcmLabel};
use crate::rows::Word;
use crate::tables::{CountShape, Pair};

/// How a counter row treats one end of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// Summed over every chain.
    Sum,
    /// One chain, in the key's fixed part.
    Fixed,
    /// Each chain in its own row of a bucket.
    Group,
}

impl End {
    const ALL: [End; 3] = [End::Sum, End::Fixed, End::Group];

    fn code(self) -> u8 {
        match self {
            End::Sum => 0,
            End::Fixed => 1,
            End::Group => 2,
        }
    }
}

/// The treatment of both ends: what a query reads, or one of the rows a message counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    source: End,
    destination: End,
}

impl Shape {
    /// The shape whose rows answer `filter` split by `group`.
    pub(crate) fn of(filter: &IcmFilter, group: IcmGroup) -> Self {
        let end = |fixed: bool, grouped: bool| match (fixed, grouped) {
            (true, _) => End::Fixed,
            (false, true) => End::Group,
            (false, false) => End::Sum,
        };
        Self {
            source: end(
                filter.source.is_some(),
                matches!(group, IcmGroup::Source | IcmGroup::Pair),
            ),
            destination: end(
                filter.destination.is_some(),
                matches!(group, IcmGroup::Destination | IcmGroup::Pair),
            ),
        }
    }

    /// The first key component of this shape's rows at `interval`.
    pub(crate) fn code(self, interval: Interval) -> CountShape {
        [
            interval.code(),
            self.source.code() * 3 + self.destination.code(),
        ]
    }

    /// The key part before the bucket start: the fixed ends' ids.
    pub(crate) fn fixed(self, source: &Word, destination: &Word) -> Pair {
        pair(
            (self.source == End::Fixed).then_some(source),
            (self.destination == End::Fixed).then_some(destination),
        )
    }

    /// The key part after the bucket start: the grouped ends' ids.
    pub(crate) fn grouped(self, source: &Word, destination: &Word) -> Pair {
        pair(
            (self.source == End::Group).then_some(source),
            (self.destination == End::Group).then_some(destination),
        )
    }

    /// The label of a row of this shape read for `filter`: a fixed end is the filter's id, a
    /// grouped one the row's, a summed one every chain (`None`).
    pub(crate) fn label(self, filter: &IcmFilter, grouped: &Pair) -> IcmLabel {
        let end = |e: End, fixed: Option<B256>, id: &[u8]| match e {
            End::Sum => None,
            End::Fixed => fixed,
            End::Group => <[u8; 32]>::try_from(id).ok().map(B256::from),
        };
        (
            end(self.source, filter.source, &grouped[..32]),
            end(self.destination, filter.destination, &grouped[32..]),
        )
    }

    /// The nine shapes a message counts in.
    pub(crate) fn all() -> impl Iterator<Item = Shape> {
        End::ALL.into_iter().flat_map(|source| {
            End::ALL.into_iter().map(move |destination| Shape {
                source,
                destination,
            })
        })
    }
}

fn pair(source: Option<&Word>, destination: Option<&Word>) -> Pair {
    let mut p = [0u8; 64];
    if let Some(s) = source {
        p[..32].copy_from_slice(s);
    }
    if let Some(d) = destination {
        p[32..].copy_from_slice(d);
    }
    p
}
