//! The metrics tables: buckets of every interval, when each address was last active (which keeps
//! the distinct counts exact), the cursor; each key starts with the EVM chain id. The page tokens
//! live in a store of their own (the API's, writable where the index is opened read-only).

use snowline_store::{Linear, table};

use crate::rows::{Bucket, LastSeen, MetricsCursor, TokenRow};

/// A 20-byte address in a key.
pub type Addr = [u8; 20];

/// What an address did in a block: bits of a `u8`.
pub mod seen {
    /// Sent or received a tx or a token transfer.
    pub const ACTIVE: u8 = 1;
    /// Sent a tx or a token transfer.
    pub const SENDER: u8 = 2;
    /// Ran a contract creation that stayed.
    pub const DEPLOYER: u8 = 4;
}

table! {
    /// The derived metrics tables, for composing the indexer's schema.
    pub fn tables();

    /// `(chain, interval code, bucket start) -> Bucket`: each bucket with a block in it.
    pub CmBuckets: "cm_buckets", (u64, u8, u64) => Bucket;

    /// `(chain, address) -> LastSeen`: when each address was last active, a sender, a deployer.
    /// Block times never go back, so an address is new to a bucket exactly when it was last
    /// seen before the bucket's start, and new to the chain when it has no row.
    pub CmAddresses: "cm_addresses" (PointLookup), (u64, Addr) => Linear<LastSeen>;

    /// `chain -> MetricsCursor`: the next block and the running totals.
    pub CmCursor: "cm_cursor", u64 => Linear<MetricsCursor>;
}

table! {
    /// The page-token tables, for the API's own small store.
    pub fn token_tables();

    /// `UUID -> TokenRow`: what each page token stands for.
    pub CmPageTokens: "cm_page_tokens" (PointLookup), [u8; 16] => Linear<TokenRow>;

    /// `(expiry, UUID) -> ()`: tokens by expiry, for pruning.
    pub CmTokenExpiry: "cm_token_expiry", (u64, [u8; 16]) => ();
}
