//! NFT metadata, fetched off the ingest's path: the deriver queues a token whose URI is new
//! (`ev_nft_queue`, in the block's batch); [`run`] takes the queue in bounded rounds, fetches
//! each token's document through the outbound client (`http`, `https`, `ipfs://` through the
//! operator's gateway, `data:` decoded; [`locate`]) and writes each result with the removal of
//! its queue entry in one batch (`ev_nft_metadata`), so a restart resumes where it stopped.
//! [`MetadataQueue::reindex`] queues a token again. `docs/evm-indexing.md`, "NFT metadata".

mod fetcher;
mod locate;
mod queue;

pub use fetcher::{FetchConfig, run};
pub use locate::{Locating, Location, locate, token_uri};
pub use queue::{MetadataQueue, Reindex};
