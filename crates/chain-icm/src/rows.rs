//! The values of the ICM tables, stored in the linear codec (`store::Linear`), fields in
//! declaration order. Addresses are 20 bytes, amounts and ids 32 bytes big-endian; a Teleporter
//! message is kept as its canonical ABI encoding (what the Warp payload carries).

use snowline_types::codec::{CodecError, Decode, Encode, Reader, Writer};

/// A 32-byte word in a key (a message id, a blockchain id, an address left-padded).
pub type Word = [u8; 32];

/// A 20-byte address.
pub type Addr = [u8; 20];

/// The transaction that emitted one of a message's events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxAt {
    /// The EVM chain id.
    pub chain: u64,
    /// Block number.
    pub block: u64,
    /// Block timestamp (seconds).
    pub timestamp: u64,
    /// Transaction hash.
    pub tx_hash: Word,
    /// Its sender.
    pub from: Addr,
    /// Its receipt's `gasUsed`.
    pub gas_used: u64,
    /// The event's log index in the block.
    pub log_index: u64,
}

impl Encode for TxAt {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.chain);
        w.u64(self.block);
        w.u64(self.timestamp);
        w.raw(&self.tx_hash);
        w.raw(&self.from);
        w.u64(self.gas_used);
        w.u64(self.log_index);
    }
}

impl Decode for TxAt {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            chain: r.u64()?,
            block: r.u64()?,
            timestamp: r.u64()?,
            tx_hash: r.array()?,
            from: r.array()?,
            gas_used: r.u64()?,
            log_index: r.u64()?,
        })
    }
}

/// A fee: the ERC-20 token and the amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fee {
    /// `feeTokenAddress`.
    pub token: Addr,
    /// `amount`, big-endian.
    pub amount: Word,
}

impl Encode for Fee {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.token);
        w.raw(&self.amount);
    }
}

impl Decode for Fee {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            token: r.array()?,
            amount: r.array()?,
        })
    }
}

/// A message's send, on its source chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentRow {
    /// Where.
    pub tx: TxAt,
    /// The source (this chain's) blockchain id.
    pub source: Word,
    /// `destinationBlockchainID`.
    pub destination: Word,
    /// The fee offered at the send.
    pub fee: Fee,
    /// `abi.encode(TeleporterMessage)`.
    pub message: Vec<u8>,
}

impl Encode for SentRow {
    fn encode(&self, w: &mut Writer) {
        self.tx.encode(w);
        w.raw(&self.source);
        w.raw(&self.destination);
        self.fee.encode(w);
        w.bytes(&self.message);
    }
}

impl Decode for SentRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx: TxAt::decode(r)?,
            source: r.array()?,
            destination: r.array()?,
            fee: Fee::decode(r)?,
            message: r.bytes()?.to_vec(),
        })
    }
}

/// The fee after an `AddFeeAmount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeRow {
    /// Where.
    pub tx: TxAt,
    /// The fee after the addition.
    pub fee: Fee,
}

impl Encode for FeeRow {
    fn encode(&self, w: &mut Writer) {
        self.tx.encode(w);
        self.fee.encode(w);
    }
}

impl Decode for FeeRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx: TxAt::decode(r)?,
            fee: Fee::decode(r)?,
        })
    }
}

/// A `ReceiptReceived` on the source chain: the message was delivered and its fee is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptRow {
    /// Where.
    pub tx: TxAt,
    /// Who is paid the fee.
    pub relayer_reward_address: Addr,
    /// The fee paid.
    pub fee: Fee,
}

impl Encode for ReceiptRow {
    fn encode(&self, w: &mut Writer) {
        self.tx.encode(w);
        w.raw(&self.relayer_reward_address);
        self.fee.encode(w);
    }
}

impl Decode for ReceiptRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx: TxAt::decode(r)?,
            relayer_reward_address: r.array()?,
            fee: Fee::decode(r)?,
        })
    }
}

/// A message's delivery, on its destination chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedRow {
    /// Where (`from` is the deliverer).
    pub tx: TxAt,
    /// `sourceBlockchainID`.
    pub source: Word,
    /// The destination (this chain's) blockchain id.
    pub destination: Word,
    /// Who may redeem the relayer fee.
    pub reward_redeemer: Addr,
    /// `abi.encode(TeleporterMessage)`.
    pub message: Vec<u8>,
}

impl Encode for ReceivedRow {
    fn encode(&self, w: &mut Writer) {
        self.tx.encode(w);
        w.raw(&self.source);
        w.raw(&self.destination);
        w.raw(&self.reward_redeemer);
        w.bytes(&self.message);
    }
}

impl Decode for ReceivedRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx: TxAt::decode(r)?,
            source: r.array()?,
            destination: r.array()?,
            reward_redeemer: r.array()?,
            message: r.bytes()?.to_vec(),
        })
    }
}

/// The last execution outcome of a delivered message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecutionRow {
    /// Where.
    pub tx: TxAt,
    /// `MessageExecuted` (true) or `MessageExecutionFailed` (false).
    pub executed: bool,
}

impl Encode for ExecutionRow {
    fn encode(&self, w: &mut Writer) {
        self.tx.encode(w);
        w.bool(self.executed);
    }
}

impl Decode for ExecutionRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx: TxAt::decode(r)?,
            executed: r.bool()?,
        })
    }
}

/// What a listing filters on, kept in every index entry so a page is filtered without reading
/// the messages it skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexEntry {
    /// The source blockchain id.
    pub source: Word,
    /// The destination blockchain id.
    pub destination: Word,
    /// `originSenderAddress`.
    pub from: Addr,
    /// `destinationAddress`.
    pub to: Addr,
}

impl Encode for IndexEntry {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.source);
        w.raw(&self.destination);
        w.raw(&self.from);
        w.raw(&self.to);
    }
}

impl Decode for IndexEntry {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            source: r.array()?,
            destination: r.array()?,
            from: r.array()?,
            to: r.array()?,
        })
    }
}

/// A message a transaction sent or delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxMessage {
    /// The message id.
    pub id: Word,
    /// Which side the transaction is (`tables::side`).
    pub side: u8,
}

impl Encode for TxMessage {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.id);
        w.u8(self.side);
    }
}

impl Decode for TxMessage {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            id: r.array()?,
            side: r.u8()?,
        })
    }
}
