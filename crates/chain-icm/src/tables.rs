//! The ICM tables. Each side of a message is written only by the chain it happened on (the
//! source chain: send, fee additions, receipt; the destination chain: delivery, execution), so
//! two chains' derivers never write the same key; a message is joined by id when read. The
//! listing indexes hold one entry per side, told apart by [`side`].

use snowline_store::{Linear, table};

use crate::rows::{
    ExecutionRow, FeeRow, IndexEntry, ReceiptRow, ReceivedRow, SentRow, TxMessage, Word,
};

/// Which chain wrote a listing entry.
pub mod side {
    /// The source chain, at the send.
    pub const SOURCE: u8 = 0;
    /// The destination chain, at the delivery.
    pub const DESTINATION: u8 = 1;
}

/// What a party of [`IcmByParty`] is.
pub mod party {
    /// A blockchain id.
    pub const CHAIN: u8 = 0;
    /// An address, left-padded to 32 bytes.
    pub const ADDRESS: u8 = 1;
}

/// A party's role in [`IcmByParty`].
pub mod role {
    /// Either end: the source or destination chain, the sender or recipient address.
    pub const EITHER: u8 = 0;
    /// The source chain, or the sender (`from`).
    pub const SOURCE: u8 = 1;
    /// The destination chain, or the recipient (`to`).
    pub const DESTINATION: u8 = 2;
}

table! {
    /// The ICM tables, for composing the indexer's schema.
    pub fn tables();

    /// `message id -> SentRow`: the first `SendCrossChainMessage` (a re-send keeps it).
    pub IcmSent: "icm_sent" (PointLookup), Word => Linear<SentRow>;

    /// `message id -> FeeRow`: the fee after the last `AddFeeAmount`.
    pub IcmFees: "icm_fees" (PointLookup), Word => Linear<FeeRow>;

    /// `message id -> ReceiptRow`: the `ReceiptReceived` on the source chain.
    pub IcmReceipts: "icm_receipts" (PointLookup), Word => Linear<ReceiptRow>;

    /// `message id -> ReceivedRow`: the `ReceiveCrossChainMessage` on the destination chain.
    pub IcmReceived: "icm_received" (PointLookup), Word => Linear<ReceivedRow>;

    /// `message id -> ExecutionRow`: the last execution outcome on the destination chain.
    pub IcmExecutions: "icm_executions" (PointLookup), Word => Linear<ExecutionRow>;

    /// `(timestamp, message id, side) -> IndexEntry`: every message, by time (listed newest
    /// first with a reverse scan).
    pub IcmOrder: "icm_order", (u64, Word, u8) => Linear<IndexEntry>;

    /// `(party kind, party, role, timestamp, message id, side) -> IndexEntry`: the messages of
    /// a chain or an address in a role, by time.
    pub IcmByParty: "icm_by_party", (u8, Word, u8, u64, Word, u8) => Linear<IndexEntry>;

    /// `(EVM chain id, tx hash, log index) -> TxMessage`: the messages a transaction sent or
    /// delivered (a deployment's `teleporterMessageInfo`).
    pub IcmByTx: "icm_by_tx", (u64, Word, u64) => Linear<TxMessage>;

    /// `EVM chain id -> blockchain id`: each chain's own id, configured or read from its
    /// messenger's `BlockchainIDInitialized`.
    pub IcmChains: "icm_chains" (PointLookup), u64 => Word;

    /// `(interval, shape), fixed ends, bucket start, grouped ends, writer -> messages`: the
    /// metrics' message counts, kept at ingest (`crate::counts`). `writer` is the EVM chain id
    /// of the deriver that owns the row; a count is the sum over the few writers.
    pub IcmCounts: "icm_counts", (CountShape, Pair, u64, Pair, u64) => i64;

    /// `message id -> delivery time`: a delivery counted at its own time (its send was not
    /// indexed when it was written), written by the destination chain; the send, when it comes,
    /// moves the count to its own time.
    pub IcmCountedDeliveries: "icm_counted_deliveries" (PointLookup), Word => u64;
}

/// An interval's code and a shape (`crate::metrics::counts::shape`) in an [`IcmCounts`] key.
pub type CountShape = [u8; 2];

/// A source and a destination blockchain id, side by side (zeros where the shape has none).
pub type Pair = [u8; 64];
