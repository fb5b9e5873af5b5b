//! The values of the EVM tables: a block, a transaction, a token transfer, an internal
//! transaction, a contract's creation, a token's metadata, the follower's cursor. Each is stored
//! in the linear codec (`store::Linear`), fields in declaration order; addresses are their 20
//! bytes, hashes their 32, amounts 32 bytes big-endian.

use snowline_store::row::{bad_code, get_opt, get_string, put_opt};
use snowline_types::codec::{CodecError, Decode, Encode, Reader, Writer};
use snowline_types::evm::nft_metadata::InlineMetadata;
use snowline_types::evm::{
    Address, B256, CallKind, ContractProbes, Erc20Answers, InterfaceClaims, U256,
};
use snowline_types::rest::evm::{ErcType, NftMetadata, NftTokenMetadataStatus};

fn put_u256(w: &mut Writer, v: &U256) {
    w.raw(&v.to_be_bytes::<32>());
}

fn get_u256(r: &mut Reader<'_>) -> Result<U256, CodecError> {
    r.array::<32>().map(U256::from_be_bytes)
}

fn put_addr(w: &mut Writer, a: &Address) {
    w.raw(a.as_slice());
}

fn get_addr(r: &mut Reader<'_>) -> Result<Address, CodecError> {
    r.array::<20>().map(Address::from)
}

fn put_hash(w: &mut Writer, h: &B256) {
    w.raw(h.as_slice());
}

fn get_hash(r: &mut Reader<'_>) -> Result<B256, CodecError> {
    r.array::<32>().map(B256::from)
}

/// An optional bool as one byte: 0 absent, 1 false, 2 true.
fn put_opt_bool(w: &mut Writer, v: Option<bool>) {
    w.u8(match v {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    });
}

fn get_opt_bool(r: &mut Reader<'_>, what: &'static str) -> Result<Option<bool>, CodecError> {
    match r.u8()? {
        0 => Ok(None),
        1 => Ok(Some(false)),
        2 => Ok(Some(true)),
        c => Err(bad_code(what, c)),
    }
}

/// One block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRow {
    /// Block hash.
    pub hash: B256,
    /// Parent's hash.
    pub parent: B256,
    /// Unix seconds.
    pub timestamp: u64,
    /// Fee recipient.
    pub miner: Address,
    /// Transactions in the block.
    pub tx_count: u32,
    /// Gas used.
    pub gas_used: u64,
    /// Gas limit.
    pub gas_limit: u64,
    /// EIP-1559 base fee, wei (absent before London / Apricot Phase 3).
    pub base_fee: Option<U256>,
    /// coreth / subnet-evm block gas cost.
    pub block_gas_cost: Option<U256>,
    /// Σ gasUsed × effectiveGasPrice over the block's txs, wei.
    pub fees_spent: U256,
    /// Transactions in this block and every block before it.
    pub cumulative_txs: u64,
}

impl Encode for BlockRow {
    fn encode(&self, w: &mut Writer) {
        put_hash(w, &self.hash);
        put_hash(w, &self.parent);
        w.u64(self.timestamp);
        put_addr(w, &self.miner);
        w.u32(self.tx_count);
        w.u64(self.gas_used);
        w.u64(self.gas_limit);
        put_opt(w, &self.base_fee, put_u256);
        put_opt(w, &self.block_gas_cost, put_u256);
        put_u256(w, &self.fees_spent);
        w.u64(self.cumulative_txs);
    }
}

impl Decode for BlockRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            hash: get_hash(r)?,
            parent: get_hash(r)?,
            timestamp: r.u64()?,
            miner: get_addr(r)?,
            tx_count: r.u32()?,
            gas_used: r.u64()?,
            gas_limit: r.u64()?,
            base_fee: get_opt(r, get_u256)?,
            block_gas_cost: get_opt(r, get_u256)?,
            fees_spent: get_u256(r)?,
            cumulative_txs: r.u64()?,
        })
    }
}

/// One transaction with its receipt's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRow {
    /// The tx's hash.
    pub hash: B256,
    /// Block height.
    pub block: u64,
    /// Block hash.
    pub block_hash: B256,
    /// Block time, Unix seconds.
    pub timestamp: u64,
    /// Position in the block.
    pub index: u32,
    /// Sender.
    pub from: Address,
    /// Recipient; `None` for a creation.
    pub to: Option<Address>,
    /// Value sent, wei.
    pub value: U256,
    /// Gas limit.
    pub gas_limit: u64,
    /// Gas used (receipt).
    pub gas_used: u64,
    /// Price paid per gas (receipt's `effectiveGasPrice`, else the tx's `gasPrice`).
    pub effective_gas_price: U256,
    /// The tx's `gasPrice` as the node rendered it.
    pub gas_price: Option<U256>,
    /// EIP-1559 fee cap.
    pub max_fee: Option<U256>,
    /// EIP-1559 tip cap.
    pub max_priority_fee: Option<U256>,
    /// Sender's nonce.
    pub nonce: u64,
    /// EIP-2718 type.
    pub tx_type: u8,
    /// `Some(true)` succeeded, `Some(false)` failed, `None` a pre-Byzantium receipt.
    pub status: Option<bool>,
    /// Calldata (init code for a creation).
    pub input: Vec<u8>,
    /// The contract a creation tx made.
    pub created: Option<Address>,
}

impl Encode for TxRow {
    fn encode(&self, w: &mut Writer) {
        put_hash(w, &self.hash);
        w.u64(self.block);
        put_hash(w, &self.block_hash);
        w.u64(self.timestamp);
        w.u32(self.index);
        put_addr(w, &self.from);
        put_opt(w, &self.to, put_addr);
        put_u256(w, &self.value);
        w.u64(self.gas_limit);
        w.u64(self.gas_used);
        put_u256(w, &self.effective_gas_price);
        put_opt(w, &self.gas_price, put_u256);
        put_opt(w, &self.max_fee, put_u256);
        put_opt(w, &self.max_priority_fee, put_u256);
        w.u64(self.nonce);
        w.u8(self.tx_type);
        put_opt_bool(w, self.status);
        w.bytes(&self.input);
        put_opt(w, &self.created, put_addr);
    }
}

impl Decode for TxRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            hash: get_hash(r)?,
            block: r.u64()?,
            block_hash: get_hash(r)?,
            timestamp: r.u64()?,
            index: r.u32()?,
            from: get_addr(r)?,
            to: get_opt(r, get_addr)?,
            value: get_u256(r)?,
            gas_limit: r.u64()?,
            gas_used: r.u64()?,
            effective_gas_price: get_u256(r)?,
            gas_price: get_opt(r, get_u256)?,
            max_fee: get_opt(r, get_u256)?,
            max_priority_fee: get_opt(r, get_u256)?,
            nonce: r.u64()?,
            tx_type: r.u8()?,
            status: get_opt_bool(r, "EVM tx status")?,
            input: r.bytes()?.to_vec(),
            created: get_opt(r, get_addr)?,
        })
    }
}

/// Where a tx's row is in `ev_txs`: its block and its index in the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TxKey {
    /// Block height.
    pub block: u64,
    /// Position in the block.
    pub index: u32,
}

impl Encode for TxKey {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.block);
        w.u32(self.index);
    }
}

impl Decode for TxKey {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            block: r.u64()?,
            index: r.u32()?,
        })
    }
}

/// The token standard of a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TransferKind {
    /// ERC-20 `Transfer`.
    Erc20,
    /// ERC-721 `Transfer`.
    Erc721,
    /// ERC-1155 `TransferSingle` / `TransferBatch`.
    Erc1155,
}

impl TransferKind {
    /// The stable one-byte code (the ERC's number's last two digits; never renumber).
    pub const fn code(self) -> u8 {
        match self {
            Self::Erc20 => 20,
            Self::Erc721 => 21,
            Self::Erc1155 => 55,
        }
    }

    /// The kind of `code`.
    pub fn from_code(code: u8) -> Result<Self, CodecError> {
        [Self::Erc20, Self::Erc721, Self::Erc1155]
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or_else(|| bad_code("EVM transfer kind", code))
    }
}

/// One token transfer (an ERC-1155 batch log gives one per id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferRow {
    /// The standard.
    pub kind: TransferKind,
    /// Sender (zero: a mint).
    pub from: Address,
    /// Recipient (zero: a burn).
    pub to: Address,
    /// Amount (1 for ERC-721).
    pub value: U256,
    /// Token id (ERC-721, ERC-1155; zero for ERC-20).
    pub token_id: U256,
    /// ERC-1155 operator.
    pub operator: Option<Address>,
    /// The tx.
    pub tx_hash: B256,
    /// The tx's position in its block.
    pub tx_index: u32,
    /// Block time, Unix seconds.
    pub timestamp: u64,
    /// Block hash.
    pub block_hash: B256,
}

impl Encode for TransferRow {
    fn encode(&self, w: &mut Writer) {
        w.u8(self.kind.code());
        put_addr(w, &self.from);
        put_addr(w, &self.to);
        put_u256(w, &self.value);
        put_u256(w, &self.token_id);
        put_opt(w, &self.operator, put_addr);
        put_hash(w, &self.tx_hash);
        w.u32(self.tx_index);
        w.u64(self.timestamp);
        put_hash(w, &self.block_hash);
    }
}

impl Decode for TransferRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            kind: TransferKind::from_code(r.u8()?)?,
            from: get_addr(r)?,
            to: get_addr(r)?,
            value: get_u256(r)?,
            token_id: get_u256(r)?,
            operator: get_opt(r, get_addr)?,
            tx_hash: get_hash(r)?,
            tx_index: r.u32()?,
            timestamp: r.u64()?,
            block_hash: get_hash(r)?,
        })
    }
}

/// One token transfer of a tx, as the tx's parts keep it: the token, where its log is, and the
/// transfer; the tx's own fields (hash, position, block) complete it into a [`TransferRow`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxTransfer {
    /// The token contract (the log's emitter).
    pub token: Address,
    /// The log's index in the block.
    pub log_index: u64,
    /// The standard.
    pub kind: TransferKind,
    /// Sender (zero: a mint).
    pub from: Address,
    /// Recipient (zero: a burn).
    pub to: Address,
    /// Amount (1 for ERC-721).
    pub value: U256,
    /// Token id (ERC-721, ERC-1155; zero for ERC-20).
    pub token_id: U256,
    /// ERC-1155 operator.
    pub operator: Option<Address>,
}

impl TxTransfer {
    /// The transfer as the token's listing stores it, in tx `hash` described by `tx`.
    pub fn row(&self, hash: B256, tx: &TxRow) -> TransferRow {
        self.row_in(hash, tx.index, tx.timestamp, tx.block_hash)
    }

    /// The transfer as the token's listing stores it, in tx `tx_hash` at position `tx_index` of
    /// the block of hash `block_hash` and time `timestamp`.
    pub fn row_in(
        &self,
        tx_hash: B256,
        tx_index: u32,
        timestamp: u64,
        block_hash: B256,
    ) -> TransferRow {
        TransferRow {
            kind: self.kind,
            from: self.from,
            to: self.to,
            value: self.value,
            token_id: self.token_id,
            operator: self.operator,
            tx_hash,
            tx_index,
            timestamp,
            block_hash,
        }
    }
}

impl Encode for TxTransfer {
    fn encode(&self, w: &mut Writer) {
        put_addr(w, &self.token);
        w.u64(self.log_index);
        w.u8(self.kind.code());
        put_addr(w, &self.from);
        put_addr(w, &self.to);
        put_u256(w, &self.value);
        put_u256(w, &self.token_id);
        put_opt(w, &self.operator, put_addr);
    }
}

impl Decode for TxTransfer {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            token: get_addr(r)?,
            log_index: r.u64()?,
            kind: TransferKind::from_code(r.u8()?)?,
            from: get_addr(r)?,
            to: get_addr(r)?,
            value: get_u256(r)?,
            token_id: get_u256(r)?,
            operator: get_opt(r, get_addr)?,
        })
    }
}

/// What a tx did beyond its own fields, kept in one row so that its detail and an address's
/// history read it with one lookup: its token transfers (log order, an ERC-1155 batch's ids in
/// order), its listed internal txs (depth-first), and how many TeleporterMessenger logs it
/// emitted (none: no ICM message to look up). A tx with none of these has no row.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TxParts {
    /// The token transfers.
    pub transfers: Vec<TxTransfer>,
    /// The listed internal txs.
    pub internals: Vec<InternalRow>,
    /// TeleporterMessenger logs emitted.
    pub messenger_logs: u32,
}

impl TxParts {
    /// Whether there is nothing to keep.
    pub fn is_empty(&self) -> bool {
        self.transfers.is_empty() && self.internals.is_empty() && self.messenger_logs == 0
    }
}

/// The fewest bytes a [`TxTransfer`] and an [`InternalRow`] encode to (count checks).
const TX_TRANSFER_MIN: usize = 20 + 8 + 1 + 20 + 20 + 32 + 32 + 1;
const INTERNAL_ROW_MIN: usize = 32 + 8 + 8 + 4 + 4 + 4 + 1 + 20 + 1 + 32 + 8 + 8 + 1;

impl Encode for TxParts {
    fn encode(&self, w: &mut Writer) {
        self.transfers.encode(w);
        self.internals.encode(w);
        w.u32(self.messenger_logs);
    }
}

impl Decode for TxParts {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let n = r.count(TX_TRANSFER_MIN, "tx transfers")?;
        let transfers = (0..n)
            .map(|_| TxTransfer::decode(r))
            .collect::<Result<_, _>>()?;
        let n = r.count(INTERNAL_ROW_MIN, "internal txs")?;
        let internals = (0..n)
            .map(|_| InternalRow::decode(r))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            transfers,
            internals,
            messenger_logs: r.u32()?,
        })
    }
}

/// What parts an address plays in a tx, as bits ([`Roles::NATIVE`], ...): which of the Data
/// API's per-address listings show the tx.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Roles(pub u8);

impl Roles {
    /// The tx's sender, recipient or created contract.
    pub const NATIVE: Roles = Roles(1);
    /// Sender or recipient of one of its ERC-20 transfers.
    pub const ERC20: Roles = Roles(2);
    /// Sender or recipient of one of its ERC-721 transfers.
    pub const ERC721: Roles = Roles(4);
    /// Sender or recipient of one of its ERC-1155 transfers.
    pub const ERC1155: Roles = Roles(8);
    /// Caller or callee of one of its internal transactions (the listed frames).
    pub const INTERNAL: Roles = Roles(16);

    /// The role of a party to a transfer of `kind`.
    pub const fn of_transfer(kind: TransferKind) -> Roles {
        match kind {
            TransferKind::Erc20 => Self::ERC20,
            TransferKind::Erc721 => Self::ERC721,
            TransferKind::Erc1155 => Self::ERC1155,
        }
    }

    /// Both sets of roles.
    pub const fn with(self, other: Roles) -> Roles {
        Roles(self.0 | other.0)
    }

    /// Whether every role of `other` is among these.
    pub const fn contains(self, other: Roles) -> bool {
        self.0 & other.0 == other.0
    }
}

/// One tx an address took part in (the value of the address-to-tx index, whose key says which
/// tx: its block and index, the key of its row in `ev_txs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressTxRow {
    /// What the address did in it.
    pub roles: Roles,
}

impl Encode for AddressTxRow {
    fn encode(&self, w: &mut Writer) {
        w.u8(self.roles.0);
    }
}

impl Decode for AddressTxRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            roles: Roles(r.u8()?),
        })
    }
}

/// One transfer an address sent or received: the token and its standard (the rest of the
/// transfer is in the token's row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressTransfer {
    /// The token contract.
    pub token: Address,
    /// The standard.
    pub kind: TransferKind,
}

impl Encode for AddressTransfer {
    fn encode(&self, w: &mut Writer) {
        put_addr(w, &self.token);
        w.u8(self.kind.code());
    }
}

impl Decode for AddressTransfer {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            token: get_addr(r)?,
            kind: TransferKind::from_code(r.u8()?)?,
        })
    }
}

/// The stable one-byte code of a frame's opcode (never renumber).
pub const fn call_kind_code(kind: CallKind) -> u8 {
    match kind {
        CallKind::Call => 0,
        CallKind::CallCode => 1,
        CallKind::StaticCall => 2,
        CallKind::DelegateCall => 3,
        CallKind::Create => 4,
        CallKind::Create2 => 5,
        CallKind::SelfDestruct => 6,
        CallKind::Other => 7,
    }
}

/// The opcode of `code`.
pub fn call_kind_from_code(code: u8) -> Result<CallKind, CodecError> {
    [
        CallKind::Call,
        CallKind::CallCode,
        CallKind::StaticCall,
        CallKind::DelegateCall,
        CallKind::Create,
        CallKind::Create2,
        CallKind::SelfDestruct,
        CallKind::Other,
    ]
    .into_iter()
    .find(|k| call_kind_code(*k) == code)
    .ok_or_else(|| bad_code("EVM call kind", code))
}

/// One internal transaction: a listed frame of a tx's call tree (value-carrying `CALL` /
/// `CALLCODE`, every `CREATE` / `CREATE2`), the root frame (depth 0) included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalRow {
    /// The tx.
    pub tx_hash: B256,
    /// Block height.
    pub block: u64,
    /// Block time, Unix seconds.
    pub timestamp: u64,
    /// The tx's position in its block.
    pub tx_index: u32,
    /// Position among the tx's listed frames (depth-first order).
    pub frame: u32,
    /// Depth in the call tree (0: the tx's own call or creation).
    pub depth: u32,
    /// The frame's opcode.
    pub kind: CallKind,
    /// Caller.
    pub from: Address,
    /// Callee or created contract; `None` when a creation failed.
    pub to: Option<Address>,
    /// Value moved, wei.
    pub value: U256,
    /// Gas given to the frame.
    pub gas_limit: u64,
    /// Gas used by the frame.
    pub gas_used: u64,
    /// Whether the frame or one above it failed.
    pub reverted: bool,
}

impl Encode for InternalRow {
    fn encode(&self, w: &mut Writer) {
        put_hash(w, &self.tx_hash);
        w.u64(self.block);
        w.u64(self.timestamp);
        w.u32(self.tx_index);
        w.u32(self.frame);
        w.u32(self.depth);
        w.u8(call_kind_code(self.kind));
        put_addr(w, &self.from);
        put_opt(w, &self.to, put_addr);
        put_u256(w, &self.value);
        w.u64(self.gas_limit);
        w.u64(self.gas_used);
        w.bool(self.reverted);
    }
}

impl Decode for InternalRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx_hash: get_hash(r)?,
            block: r.u64()?,
            timestamp: r.u64()?,
            tx_index: r.u32()?,
            frame: r.u32()?,
            depth: r.u32()?,
            kind: call_kind_from_code(r.u8()?)?,
            from: get_addr(r)?,
            to: get_opt(r, get_addr)?,
            value: get_u256(r)?,
            gas_limit: r.u64()?,
            gas_used: r.u64()?,
            reverted: r.bool()?,
        })
    }
}

/// How a contract came to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractRow {
    /// The sender of the creating tx (an externally owned account).
    pub deployer: Address,
    /// The contract whose `CREATE` / `CREATE2` made it, when not the tx itself (a factory).
    pub deployer_contract: Option<Address>,
    /// The creating tx.
    pub tx_hash: B256,
    /// Block height.
    pub block: u64,
    /// Block time, Unix seconds.
    pub timestamp: u64,
    /// The tx's position in its block.
    pub tx_index: u32,
    /// The creating frame's position among the tx's listed frames (0: the tx itself).
    pub frame: u32,
}

impl Encode for ContractRow {
    fn encode(&self, w: &mut Writer) {
        put_addr(w, &self.deployer);
        put_opt(w, &self.deployer_contract, put_addr);
        put_hash(w, &self.tx_hash);
        w.u64(self.block);
        w.u64(self.timestamp);
        w.u32(self.tx_index);
        w.u32(self.frame);
    }
}

impl Decode for ContractRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            deployer: get_addr(r)?,
            deployer_contract: get_opt(r, get_addr)?,
            tx_hash: get_hash(r)?,
            block: r.u64()?,
            timestamp: r.u64()?,
            tx_index: r.u32()?,
            frame: r.u32()?,
        })
    }
}

/// What `eth_call`s told of a contract, read the first time it was created or emitted a token
/// event (interfaces) and the first time it emitted an ERC-20 / ERC-721 `Transfer` (names, and
/// the ERC-20 answers after an ERC-20 `Transfer`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TokenRow {
    /// The detection answers: `supportsInterface` claims, ERC-20 `decimals()` / `totalSupply()`.
    pub probes: ContractProbes,
    /// Whether `name()` / `symbol()` were asked (they are asked once).
    pub named: bool,
    /// `name()`.
    pub name: Option<String>,
    /// `symbol()`.
    pub symbol: Option<String>,
    /// The block of the first probes.
    pub first_block: u64,
}

impl TokenRow {
    /// The contract's ERC type, by [`ContractProbes::erc_type`].
    pub fn erc_type(&self) -> ErcType {
        self.probes.erc_type()
    }
}

fn put_erc20(w: &mut Writer, e: &Erc20Answers) {
    put_opt(w, &e.decimals, |w, d| w.u8(*d));
    put_opt(w, &e.total_supply, put_u256);
}

fn get_erc20(r: &mut Reader<'_>) -> Result<Erc20Answers, CodecError> {
    Ok(Erc20Answers {
        decimals: get_opt(r, |r| r.u8())?,
        total_supply: get_opt(r, get_u256)?,
    })
}

impl Encode for TokenRow {
    fn encode(&self, w: &mut Writer) {
        let i = &self.probes.interfaces;
        put_opt_bool(w, i.erc165);
        put_opt_bool(w, i.invalid_id);
        put_opt_bool(w, i.erc721);
        put_opt_bool(w, i.erc1155);
        put_opt(w, &self.probes.erc20, put_erc20);
        w.bool(self.named);
        put_opt(w, &self.name, |w, s| w.str(s));
        put_opt(w, &self.symbol, |w, s| w.str(s));
        w.u64(self.first_block);
    }
}

impl Decode for TokenRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let interfaces = InterfaceClaims {
            erc165: get_opt_bool(r, "ERC-165 probe")?,
            invalid_id: get_opt_bool(r, "0xffffffff probe")?,
            erc721: get_opt_bool(r, "ERC-721 probe")?,
            erc1155: get_opt_bool(r, "ERC-1155 probe")?,
        };
        Ok(Self {
            probes: ContractProbes {
                interfaces,
                erc20: get_opt(r, get_erc20)?,
            },
            named: r.bool()?,
            name: get_opt(r, get_string)?,
            symbol: get_opt(r, get_string)?,
            first_block: r.u64()?,
        })
    }
}

/// The metadata fetched for one NFT token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetadataRow {
    /// The URI it was fetched from (`{id}` substituted, before any gateway or rewrite).
    pub uri: String,
    /// When, Unix seconds.
    pub fetched_at: u64,
    /// What it said, with its status.
    pub metadata: InlineMetadata,
}

const STATUSES: [NftTokenMetadataStatus; 11] = [
    NftTokenMetadataStatus::Unknown,
    NftTokenMetadataStatus::MissingToken,
    NftTokenMetadataStatus::InvalidTokenUri,
    NftTokenMetadataStatus::InvalidTokenUriScheme,
    NftTokenMetadataStatus::UnreachableTokenUri,
    NftTokenMetadataStatus::ThrottledTokenUri,
    NftTokenMetadataStatus::MetadataContentTooLarge,
    NftTokenMetadataStatus::InvalidMetadata,
    NftTokenMetadataStatus::InvalidMetadataJson,
    NftTokenMetadataStatus::Indexed,
    NftTokenMetadataStatus::Unindexed,
];

impl Encode for MetadataRow {
    fn encode(&self, w: &mut Writer) {
        let m = &self.metadata;
        let code = STATUSES
            .iter()
            .position(|s| *s == m.common.index_status)
            .unwrap_or(0);
        w.u8(u8::try_from(code).unwrap_or(0));
        w.u64(self.fetched_at);
        w.str(&self.uri);
        for text in [
            &m.common.name,
            &m.common.symbol,
            &m.common.image_uri,
            &m.common.description,
            &m.common.animation_uri,
            &m.common.external_url,
            &m.common.background,
            &m.attributes,
            &m.properties,
        ] {
            put_opt(w, text, |w, s| w.str(s));
        }
        put_opt(w, &m.decimals, |w, d| w.u8(*d));
    }
}

impl Decode for MetadataRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let code = r.u8()?;
        let status = *STATUSES
            .get(usize::from(code))
            .ok_or_else(|| bad_code("NFT metadata status", code))?;
        let fetched_at = r.u64()?;
        let uri = get_string(r)?;
        let mut text = || get_opt(r, get_string);
        let common = NftMetadata {
            index_status: status,
            metadata_last_updated_timestamp: Some(fetched_at),
            name: text()?,
            symbol: text()?,
            image_uri: text()?,
            description: text()?,
            animation_uri: text()?,
            external_url: text()?,
            background: text()?,
        };
        let (attributes, properties) = (text()?, text()?);
        Ok(Self {
            uri,
            fetched_at,
            metadata: InlineMetadata {
                common,
                attributes,
                properties,
                decimals: get_opt(r, |r| r.u8())?,
            },
        })
    }
}

/// Where the follower of one chain stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CursorRow {
    /// The first block indexed (the configured start block; 0 for a whole chain).
    pub first: u64,
    /// The next block to derive.
    pub next: u64,
    /// The hash of block `next - 1`, which block `next` must name as its parent.
    pub last_hash: B256,
    /// Transactions in blocks `first..next`.
    pub cumulative_txs: u64,
    /// The first block derived without call traces (the node did not trace it), if any: internal
    /// transactions from there on are not known.
    pub untraced_from: Option<u64>,
}

impl CursorRow {
    /// Whether the internal transactions of every block in `first..end` (all indexed blocks
    /// when `end` is `None`) are known.
    pub fn traced_before(&self, end: Option<u64>) -> bool {
        match (self.untraced_from, end) {
            (None, _) => true,
            (Some(u), Some(end)) => end <= u,
            (Some(_), None) => false,
        }
    }
}

impl Encode for CursorRow {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.first);
        w.u64(self.next);
        put_hash(w, &self.last_hash);
        w.u64(self.cumulative_txs);
        put_opt(w, &self.untraced_from, |w, b| w.u64(*b));
    }
}

impl Decode for CursorRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            first: r.u64()?,
            next: r.u64()?,
            last_hash: get_hash(r)?,
            cumulative_txs: r.u64()?,
            untraced_from: get_opt(r, |r| r.u64())?,
        })
    }
}

/// One token an address held after a block: the [`HoldingSnapshot`] entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldToken {
    /// The token contract.
    pub token: [u8; 20],
    /// The token id (zero for ERC-20).
    pub id: [u8; 32],
    /// The balance, big-endian.
    pub balance: [u8; 32],
}

/// Every token of one kind (standard) with a non-zero balance an address held after a block, by
/// token and id ascending: the start from which its change log (`ev_holding_log`) is replayed to a later
/// block, so all its balances at a past block take one seek and a short scan.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HoldingSnapshot {
    /// The holdings.
    pub held: Vec<HeldToken>,
}

/// The bytes a [`HeldToken`] encodes to.
const HELD_TOKEN_SIZE: usize = 20 + 32 + 32;

impl Encode for HoldingSnapshot {
    fn encode(&self, w: &mut Writer) {
        w.len_u32(self.held.len());
        for h in &self.held {
            w.raw(&h.token);
            w.raw(&h.id);
            w.raw(&h.balance);
        }
    }
}

impl Decode for HoldingSnapshot {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let n = r.count(HELD_TOKEN_SIZE, "held tokens")?;
        let held = (0..n)
            .map(|_| {
                Ok(HeldToken {
                    token: r.array()?,
                    id: r.array()?,
                    balance: r.array()?,
                })
            })
            .collect::<Result<_, CodecError>>()?;
        Ok(Self { held })
    }
}

/// How far an address's change log runs past its last snapshot: the changes written since
/// (`since`) and the size of that snapshot (`size`), which decide when the next one is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HoldingTally {
    /// Change-log rows written after the last snapshot.
    pub since: u32,
    /// Holdings in the last snapshot.
    pub size: u32,
}

impl Encode for HoldingTally {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.since);
        w.u32(self.size);
    }
}

impl Decode for HoldingTally {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            since: r.u32()?,
            size: r.u32()?,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use proptest::prelude::*;
    use snowline_types::codec::{Decode, Encode, Reader, Writer};

    use super::*;

    fn round_trip<T: Encode + Decode + PartialEq + std::fmt::Debug>(v: &T) {
        let mut w = Writer::new();
        v.encode(&mut w);
        let bytes = w.into_bytes();
        let mut r = Reader::new(&bytes);
        assert_eq!(&T::decode(&mut r).unwrap(), v);
        r.finish().unwrap();
    }

    fn decode_any<T: Decode>(bytes: &[u8]) {
        let mut r = Reader::new(bytes);
        let _ = T::decode(&mut r);
    }

    fn addr() -> impl Strategy<Value = Address> {
        any::<[u8; 20]>().prop_map(Address::from)
    }
    fn hash() -> impl Strategy<Value = B256> {
        any::<[u8; 32]>().prop_map(B256::from)
    }
    fn u256() -> impl Strategy<Value = U256> {
        any::<[u8; 32]>().prop_map(U256::from_be_bytes)
    }
    fn kind() -> impl Strategy<Value = CallKind> {
        (0u8..8).prop_map(|c| call_kind_from_code(c).unwrap())
    }

    prop_compose! {
        fn block_row()(hash in hash(), parent in hash(), timestamp: u64, miner in addr(),
            tx_count: u32, gas_used: u64, gas_limit: u64, base_fee in proptest::option::of(u256()),
            block_gas_cost in proptest::option::of(u256()), fees_spent in u256(),
            cumulative_txs: u64) -> BlockRow {
            BlockRow { hash, parent, timestamp, miner, tx_count, gas_used, gas_limit, base_fee,
                block_gas_cost, fees_spent, cumulative_txs }
        }
    }

    prop_compose! {
        fn tx_row()(tx_hash in hash(), block: u64, block_hash in hash(), timestamp: u64, index: u32, from in addr(),
            to in proptest::option::of(addr()), value in u256(), gas_limit: u64, gas_used: u64,
            effective_gas_price in u256(), gas_price in proptest::option::of(u256()),
            max_fee in proptest::option::of(u256()),
            max_priority_fee in proptest::option::of(u256()), nonce: u64, tx_type: u8,
            status: Option<bool>, input in proptest::collection::vec(any::<u8>(), 0..64),
            created in proptest::option::of(addr())) -> TxRow {
            TxRow { hash: tx_hash, block, block_hash, timestamp, index, from, to, value, gas_limit, gas_used,
                effective_gas_price, gas_price, max_fee, max_priority_fee, nonce, tx_type, status,
                input, created }
        }
    }

    prop_compose! {
        fn transfer_row()(kind in prop_oneof![Just(TransferKind::Erc20),
            Just(TransferKind::Erc721), Just(TransferKind::Erc1155)], from in addr(),
            to in addr(), value in u256(), token_id in u256(),
            operator in proptest::option::of(addr()), tx_hash in hash(), tx_index: u32,
            timestamp: u64, block_hash in hash()) -> TransferRow {
            TransferRow { kind, from, to, value, token_id, operator, tx_hash, tx_index, timestamp,
                block_hash }
        }
    }

    prop_compose! {
        fn internal_row()(tx_hash in hash(), block: u64, timestamp: u64, tx_index: u32,
            frame: u32, depth: u32, kind in kind(), from in addr(),
            to in proptest::option::of(addr()), value in u256(), gas_limit: u64, gas_used: u64,
            reverted: bool) -> InternalRow {
            InternalRow { tx_hash, block, timestamp, tx_index, frame, depth, kind, from, to,
                value, gas_limit, gas_used, reverted }
        }
    }

    prop_compose! {
        fn contract_row()(deployer in addr(), deployer_contract in proptest::option::of(addr()),
            tx_hash in hash(), block: u64, timestamp: u64, tx_index: u32, frame: u32)
            -> ContractRow {
            ContractRow { deployer, deployer_contract, tx_hash, block, timestamp, tx_index, frame }
        }
    }

    fn opt_bool() -> impl Strategy<Value = Option<bool>> {
        proptest::option::of(any::<bool>())
    }

    prop_compose! {
        fn token_row()(erc165 in opt_bool(), invalid_id in opt_bool(), erc721 in opt_bool(),
            erc1155 in opt_bool(),
            erc20 in proptest::option::of((proptest::option::of(any::<u8>()),
                proptest::option::of(u256()))),
            named: bool, name: Option<String>, symbol: Option<String>,
            first_block: u64) -> TokenRow {
            let interfaces = InterfaceClaims { erc165, invalid_id, erc721, erc1155 };
            let erc20 = erc20.map(|(decimals, total_supply)| Erc20Answers {
                decimals, total_supply });
            TokenRow { probes: ContractProbes { interfaces, erc20 }, named, name, symbol,
                first_block }
        }
    }

    proptest! {
        #[test]
        fn rows_round_trip(b in block_row(), t in tx_row(), x in transfer_row(),
            i in internal_row(), c in contract_row(), k in token_row(), token in addr(),
            block: u64, next: u64, last_hash in hash(), cumulative_txs: u64,
            untraced_from: Option<u64>) {
            round_trip(&b);
            round_trip(&t);
            round_trip(&x);
            round_trip(&i);
            round_trip(&c);
            round_trip(&k);
            let moved = TxTransfer { token, log_index: block, kind: x.kind, from: x.from, to: x.to,
                value: x.value, token_id: x.token_id, operator: x.operator };
            round_trip(&TxParts { transfers: vec![moved.clone(), moved], internals: vec![i.clone()],
                messenger_logs: next as u32 });
            round_trip(&AddressTxRow { roles: Roles(block as u8) });
            round_trip(&TxKey { block, index: next as u32 });
            round_trip(&AddressTransfer { token, kind: x.kind });
            round_trip(&CursorRow { first: block, next, last_hash, cumulative_txs, untraced_from });
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(
            bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            decode_any::<BlockRow>(&bytes);
            decode_any::<TxRow>(&bytes);
            decode_any::<TransferRow>(&bytes);
            decode_any::<TxParts>(&bytes);
            decode_any::<AddressTxRow>(&bytes);
            decode_any::<AddressTransfer>(&bytes);
            decode_any::<InternalRow>(&bytes);
            decode_any::<ContractRow>(&bytes);
            decode_any::<TokenRow>(&bytes);
            decode_any::<CursorRow>(&bytes);
            decode_any::<MetadataRow>(&bytes);
        }
    }

    #[test]
    fn metadata_rows_round_trip_with_every_status() {
        for (i, status) in STATUSES.iter().enumerate() {
            let full = i % 2 == 0;
            let text = |t: &str| full.then(|| t.to_owned());
            let row = MetadataRow {
                uri: format!("https://example.invalid/{i}"),
                fetched_at: 1_700_000_000 + i as u64,
                metadata: InlineMetadata {
                    common: NftMetadata {
                        index_status: *status,
                        metadata_last_updated_timestamp: Some(1_700_000_000 + i as u64),
                        name: text("n"),
                        symbol: text("s"),
                        image_uri: text("i"),
                        description: text("d"),
                        animation_uri: text("a"),
                        external_url: text("e"),
                        background: text("b"),
                    },
                    attributes: text("[]"),
                    properties: text("{}"),
                    decimals: full.then_some(3),
                },
            };
            round_trip(&row);
        }
        let mut w = Writer::new();
        w.u8(11);
        assert!(MetadataRow::decode(&mut Reader::new(w.as_bytes())).is_err());
    }

    #[test]
    fn codes_are_stable_and_unknown_codes_refused() {
        assert_eq!(TransferKind::from_code(20).unwrap(), TransferKind::Erc20);
        assert!(TransferKind::from_code(0).is_err());
        for c in 0..8 {
            assert_eq!(call_kind_code(call_kind_from_code(c).unwrap()), c);
        }
        assert!(call_kind_from_code(8).is_err());
        let mut w = Writer::new();
        w.u8(3);
        assert!(TxRow::decode(&mut Reader::new(&[0u8; 256])).is_ok());
        assert!(get_opt_bool(&mut Reader::new(w.as_bytes()), "x").is_err());
    }
}
