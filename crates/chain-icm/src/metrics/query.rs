//! What a read of the ICM counts asks for and gets: the filter, the grouping, the time range,
//! and each count with its label. The counter rows' layout (`crate::counts`) and the reads
//! (`crate::metrics`) both speak it.

use snowline_types::evm::B256;

use crate::rows::IndexEntry;

/// Which end of a message the counts are split by (`groupBy`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IcmGroup {
    /// One count per bucket over every message kept.
    #[default]
    None,
    /// One count per bucket and source blockchain.
    Source,
    /// One count per bucket and destination blockchain.
    Destination,
    /// One count per bucket and (source, destination) pair.
    Pair,
}

/// Which messages are counted; every filter given must hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcmFilter {
    /// The source blockchain id.
    pub source: Option<B256>,
    /// The destination blockchain id.
    pub destination: Option<B256>,
}

impl IcmFilter {
    pub(crate) fn keeps(&self, e: &IndexEntry) -> bool {
        self.source.is_none_or(|s| s.0 == e.source)
            && self.destination.is_none_or(|d| d.0 == e.destination)
    }
}

/// A series read: messages at `[from, to]` (Unix seconds, both inclusive), bucketed, grouped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcmCountQuery {
    /// The first second counted.
    pub from: u64,
    /// The last second counted.
    pub to: u64,
    /// Which messages.
    pub filter: IcmFilter,
    /// How each bucket is split.
    pub group: IcmGroup,
}

/// The label of a count: its source and destination, each the group's, else the filter's, else
/// `None` (every chain).
pub type IcmLabel = (Option<B256>, Option<B256>);

/// One count of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IcmCount {
    /// The bucket's start.
    pub start: u64,
    /// The source blockchain (the group's or the filter's; `None`: every source).
    pub source: Option<B256>,
    /// The destination blockchain (the group's or the filter's; `None`: every destination).
    pub destination: Option<B256>,
    /// Messages sent in the bucket.
    pub messages: u64,
}

impl IcmCount {
    /// Where the count sorts within its bucket.
    pub fn label(&self) -> IcmLabel {
        (self.source, self.destination)
    }
}
