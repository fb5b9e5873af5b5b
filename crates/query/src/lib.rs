//! Paging for the REST services: opaque authenticated page tokens, keyset positions, request
//! parameter parsing, lazy k-way merges, filtered pages with a bounded cost, the page engine of
//! the listings merged from several keys' scans (the UTXO listing's rules with it), and merges of
//! pages read from separate sources. It knows no store: a room hands it its scans and row reads.
//!
//! No I/O, except [`TokenSecret::generate`] reading the OS random source. A page costs
//! O(pageSize · log k) for a merge of k sources, at any depth: a token carries the last key
//! served, and the next page starts strictly after it. Token format and reasons: `docs/query.md`.
//!
//! One page round trip:
//!
//! ```
//! use snowline_query::{
//!     FilterDigest, SealedPageTokens, PositionReader, PositionWriter, SortOrder, TokenSecret,
//!     merge_sorted, take_page,
//! };
//!
//! let tokens = SealedPageTokens::new(TokenSecret::from_bytes([7; 32]));
//! let digest = FilterDigest::new("example.list").field("sortOrder", "asc").finish();
//! // Two sources sorted by key; key 3 appears in both and is served once.
//! let sources = |after: Option<u64>| {
//!     [vec![1u64, 3, 5], vec![2, 3, 4]]
//!         .into_iter()
//!         .map(move |s| s.into_iter().filter(move |k| after.is_none_or(|a| *k > a)))
//!         .collect::<Vec<_>>()
//! };
//! let position_of = |k: &u64| {
//!     let mut w = PositionWriter::new();
//!     w.u64(*k);
//!     w.into_bytes()
//! };
//!
//! let first = take_page(merge_sorted(sources(None), SortOrder::Asc, |k| *k), 3, position_of);
//! assert_eq!(first.items, [1, 2, 3]);
//! let next_page_token = tokens.encode(&digest, &first.next.unwrap_or_default(), None);
//!
//! // The next request sends the token back with the same filters.
//! let position = tokens.decode(&next_page_token, &digest, 0)?;
//! let mut reader = PositionReader::new(&position);
//! let after = reader.u64()?;
//! reader.finish()?;
//! let second = take_page(merge_sorted(sources(Some(after)), SortOrder::Asc, |k| *k), 3, position_of);
//! assert_eq!(second.items, [4, 5]);
//! assert_eq!(second.next, None);
//! # Ok::<(), snowline_query::QueryError>(())
//! ```

mod digest;
mod error;
mod filtered;
mod keyset;
mod merge;
mod merged_pages;
mod page;
pub mod params;
mod position;
mod scans;
mod secret;
mod token;
mod utxo_page;

pub use digest::{Digest, FilterDigest};
pub use error::{MAX_ECHO_CHARS, ParamError, PositionError, QueryError, TokenError};
pub use filtered::{FilterLimits, FilteredPage, MAX_EXAMINED, filtered_page};
pub use keyset::{Keyset, decode_position, encode_position};
pub use merge::{MergeSorted, merge_sorted, merge_sorted_fallible};
pub use merged_pages::merge_pages;
pub use page::{Page, take_page};
pub use params::SortOrder;
pub use position::{PositionReader, PositionWriter};
pub use scans::merged_page;
pub use secret::TokenSecret;
pub use token::{MAX_POSITION_LEN, MAX_TOKEN_LEN, SealedPageTokens, TAG_LEN, TOKEN_VERSION};
pub use utxo_page::{SortPosition, UtxoListing, utxo_page};
