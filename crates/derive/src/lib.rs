//! The derive kit: what every chain's indexer shares to turn accepted containers (or blocks) into
//! rows in crash-safe batches.
//!
//! - [`Derive`] hooks with their off-thread [`Prepare`], dispatched by index path (a pair of
//!   hooks is a hook: each sees only the containers of its own paths);
//! - the batch protocol ([`Staging`]: stage, finish, seal, write, settle) that a cursor and the
//!   hooks follow together, so every batch holds whole containers with the cursor after them; a
//!   deriver lists its parts once ([`StagingParts`]) and the kit drives them;
//! - the generations of unwritten state ([`Overlay`], [`Versions`], [`PendingRows`]) that let a
//!   hook derive the next batch while the previous one is written ([`WriteBehind`]);
//! - the shared-memory rule ([`atomic`]) every room that keeps atomic UTXOs derives exports and
//!   imports by, in any arrival order of the chains' containers.
//! - the [`Journal`] a deriver tells a hook after it what it did to UTXOs;
//! - [`DeriveError`], what a hook or a batch write fails with.
//!
//! Nothing here knows containers beyond the hook signature, and nothing here depends on the
//! container index: a follower of EVM blocks keeps its cursor and rows in the same batches with
//! only this crate, the store and the types. See `docs/node-index.md`.

pub mod atomic;
mod behind;
mod error;
mod hook;
pub mod journal;
mod overlay;
mod pending;
mod staging;
mod total;

pub use behind::WriteBehind;
pub use error::DeriveError;
pub use hook::{Derive, Dispatched, NoDerive, Prepare};
pub use journal::{Journal, Note, UtxoNote};
pub use overlay::{Overlay, OverlayCollection, Versions};
pub use pending::PendingRows;
pub use staging::{Staging, StagingParts, drop_batch, seal_batch, settle, write_batch};
pub use total::AssetTotal;
