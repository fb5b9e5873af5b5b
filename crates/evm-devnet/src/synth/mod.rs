//! A synthetic EVM chain, generated from a seed on the fly: any block, with its full txs,
//! receipts, logs and `callTracer` traces, is a function of the seed and its number alone (O(1)
//! work and memory a block; nothing of the chain is kept), so benchmarks can index chains of
//! tens of millions of txs that no recording or anvil could serve. [`serve_synth`] answers it
//! as a JSON-RPC node in the forms anvil gives (`evm-synth`).
//!
//! Each tx is one of: a native transfer, an ERC-20 transfer or mint, an ERC-721 mint or
//! transfer, an ERC-1155 single transfer or batch mint, a contract creation, a CREATE2 through a
//! factory, a value split into internal calls, a reverted token transfer, or an ICM send through
//! TeleporterMessenger v1. Accounts and tokens are drawn from Zipf distributions, so a few hot
//! accounts take part in a large share of the txs. What each tx moved is kept in its
//! [`SynthTx`] (parties, [`Moved`] tokens), the model tests count from, independent of the JSON.
//!
//! Not modelled: balances and nonces are not conserved (a transfer's sender need not hold what
//! it sends, a tx's nonce is its position in the chain), and an ERC-721 transfer moves an id its
//! sender may never have received; the index sums holdings from the logs as they are.

mod render;
mod rpc;
pub mod zipf;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use alloy_primitives::{Address, B256, Bytes, U256, keccak256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};

use crate::contracts::{Erc20Preset, Erc721Preset, Erc1155Preset, FactoryCalls};
use crate::icm::{
    ITeleporterMessenger, IWarpMessenger, TELEPORTER_V1, TeleporterFeeInfo, TeleporterMessage,
    TeleporterMessageInput, blockchain_id, message_id,
};
use zipf::{Rng, Zipf};

pub use rpc::{LocalSynth, serve_synth, spawn_synth};

/// The Warp precompile, which TeleporterMessenger calls to send.
pub const WARP_PRECOMPILE: Address = Address::new([
    0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05,
]);

/// The shape of a synthetic chain.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthConfig {
    /// What every draw derives from.
    pub seed: u64,
    /// `eth_chainId`.
    pub chain_id: u64,
    /// The head block (`eth_blockNumber`); block 0 is the genesis, with no txs.
    pub blocks: u64,
    /// Txs in every block after the genesis.
    pub txs_per_block: u32,
    /// Accounts (externally owned) drawn from.
    pub accounts: u64,
    /// ERC-20 tokens drawn from.
    pub erc20: u64,
    /// ERC-721 collections drawn from.
    pub erc721: u64,
    /// ERC-1155 collections drawn from.
    pub erc1155: u64,
    /// Factories (CREATE2 children, value splits) drawn from.
    pub factories: u64,
    /// The Zipf exponent of every draw of an account or a token.
    pub zipf: f64,
    /// Block 0's timestamp; each block is 2 s after its parent.
    pub start_timestamp: u64,
}

impl Default for SynthConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            chain_id: crate::scenario::C_CHAIN_ID,
            blocks: 1_000,
            txs_per_block: 50,
            accounts: 1_000_000,
            erc20: 1_000,
            erc721: 200,
            erc1155: 100,
            factories: 8,
            zipf: 1.1,
            start_timestamp: 1_700_000_000,
        }
    }
}

impl SynthConfig {
    /// Txs in blocks `0..=blocks`.
    pub fn total_txs(&self) -> u64 {
        self.blocks * u64::from(self.txs_per_block)
    }
}

/// A token standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Standard {
    /// ERC-20.
    Erc20,
    /// ERC-721.
    Erc721,
    /// ERC-1155.
    Erc1155,
}

/// What a contract address of the chain is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// A token of a standard, by its index among them.
    Token(Standard, u64),
    /// A factory (no ERC-165, nothing to name).
    Factory,
    /// TeleporterMessenger v1 or the Warp precompile.
    Icm,
}

/// What kind of tx.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxKind {
    /// Value from one account to another.
    Native,
    /// `transfer(to, amount)` on an ERC-20.
    Erc20Transfer,
    /// `mint(to, amount)` on an ERC-20.
    Erc20Mint,
    /// `mint(to)` on an ERC-721.
    Erc721Mint,
    /// `transferFrom(from, to, id)` on an ERC-721.
    Erc721Transfer,
    /// `safeTransferFrom` of one id on an ERC-1155.
    Erc1155Transfer,
    /// `mintBatch` of three ids on an ERC-1155.
    Erc1155MintBatch,
    /// A creation tx (`to` null).
    Create,
    /// `create2(salt)` on a factory: a CREATE2 frame.
    FactoryCreate,
    /// `split(to[])` with value on a factory: value-moving internal calls.
    Split,
    /// An ERC-20 `transfer` that reverts.
    Revert,
    /// `sendCrossChainMessage` on TeleporterMessenger v1.
    IcmSend,
}

/// A log as emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthLog {
    /// Emitter.
    pub address: Address,
    /// Topics.
    pub topics: Vec<B256>,
    /// Data.
    pub data: Vec<u8>,
}

/// One `callTracer` frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// `CALL`, `STATICCALL`, `CREATE`, `CREATE2`.
    pub kind: &'static str,
    /// Caller.
    pub from: Address,
    /// Callee or created contract.
    pub to: Address,
    /// Value (`None` for `STATICCALL`).
    pub value: Option<U256>,
    /// Gas given.
    pub gas: u64,
    /// Gas used.
    pub gas_used: u64,
    /// Input (init code for creations).
    pub input: Vec<u8>,
    /// Output (runtime code for creations), when any.
    pub output: Option<Vec<u8>>,
    /// The revert reason, when the frame reverted.
    pub revert: Option<&'static str>,
    /// Nested frames.
    pub calls: Vec<Frame>,
}

/// One token movement a tx made (the model tests count from).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    /// The token contract.
    pub token: Address,
    /// Its standard.
    pub standard: Standard,
    /// Sender (zero: a mint).
    pub from: Address,
    /// Recipient.
    pub to: Address,
    /// Token id (zero for ERC-20).
    pub id: U256,
    /// Amount (1 for ERC-721).
    pub value: U256,
}

/// One synthetic tx with its receipt's and trace's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthTx {
    /// What it is.
    pub kind: TxKind,
    /// Hash: random bytes, the last eight its position in the chain (so a hash finds its tx).
    pub hash: B256,
    /// Its position in the chain (`(block - 1) × txs_per_block + index`), also its nonce.
    pub ordinal: u64,
    /// Sender.
    pub from: Address,
    /// Recipient (`None`: a creation).
    pub to: Option<Address>,
    /// Value, wei.
    pub value: U256,
    /// Calldata (init code for a creation).
    pub input: Vec<u8>,
    /// Gas limit.
    pub gas: u64,
    /// Gas used.
    pub gas_used: u64,
    /// Whether it succeeded.
    pub success: bool,
    /// The contract a creation tx made.
    pub created: Option<Address>,
    /// Its logs.
    pub logs: Vec<SynthLog>,
    /// Its call tree.
    pub trace: Frame,
    /// The tokens it moved.
    pub moved: Vec<Moved>,
}

impl SynthTx {
    /// The accounts the tx names as a native tx: sender, recipient, created contract.
    pub fn native_parties(&self) -> impl Iterator<Item = Address> + '_ {
        [Some(self.from), self.to, self.created]
            .into_iter()
            .flatten()
    }
}

/// One synthetic block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthBlock {
    /// Height.
    pub number: u64,
    /// Hash: random bytes, the last eight the height (so a hash finds its block).
    pub hash: B256,
    /// The parent's hash (zero for the genesis).
    pub parent: B256,
    /// Unix seconds.
    pub timestamp: u64,
    /// Its txs.
    pub txs: Vec<SynthTx>,
}

impl SynthBlock {
    /// Gas used by its txs.
    pub fn gas_used(&self) -> u64 {
        self.txs.iter().map(|t| t.gas_used).sum()
    }
}

/// The base fee of every block (25 gwei) and every tx's tip (1 gwei).
pub const BASE_FEE: u64 = 25_000_000_000;
/// Every tx's priority fee.
pub const TIP: u64 = 1_000_000_000;
/// Every tx's fee cap.
pub const MAX_FEE: u64 = 100_000_000_000;
/// The block gas limit (at least; a block of many txs gets what they use).
pub const GAS_LIMIT: u64 = 30_000_000;

/// A tiny contract's init code (returns a 10-byte runtime) and that runtime.
const INIT_CODE: [u8; 22] = [
    0x60, 0x0a, 0x60, 0x0c, 0x60, 0x00, 0x39, 0x60, 0x0a, 0x60, 0x00, 0xf3, 0x60, 0x2a, 0x60, 0x00,
    0x52, 0x60, 0x20, 0x60, 0x00, 0xf3,
];
const RUNTIME: [u8; 10] = [0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3];

/// The synthetic chain of one [`SynthConfig`].
#[derive(Debug)]
pub struct Synth {
    config: SynthConfig,
    accounts: Zipf,
    tokens: [Zipf; 3],
    factories: Zipf,
    /// Every contract address the chain names beyond the created ones.
    contracts: HashMap<Address, Contract>,
    /// This chain's blockchain id (the ICM sends' source).
    blockchain_id: B256,
    /// The addresses of the hottest accounts (the draws fall mostly on them).
    hot: Vec<Address>,
    /// Every token's address, by standard.
    token_addresses: [Vec<Address>; 3],
    /// The last blocks generated: a node is asked a block's body, receipts and traces in turn.
    recent: Mutex<VecDeque<Arc<SynthBlock>>>,
}

/// Accounts whose address is computed once.
const HOT_ACCOUNTS: u64 = 1 << 16;
/// Blocks [`Synth`] keeps generated.
const RECENT_BLOCKS: usize = 64;

/// `keccak256(tag ‖ parts as 8 bytes each)`.
fn digest(tag: &[u8], parts: &[u64]) -> B256 {
    let mut buf = Vec::with_capacity(tag.len() + 8 * parts.len());
    buf.extend_from_slice(tag);
    for p in parts {
        buf.extend_from_slice(&p.to_be_bytes());
    }
    keccak256(&buf)
}

/// `digest` with its last eight bytes replaced by `n`.
fn numbered(tag: &[u8], parts: &[u64], n: u64) -> B256 {
    let mut h = digest(tag, parts);
    h.0[24..].copy_from_slice(&n.to_be_bytes());
    h
}

fn token_tag(standard: Standard) -> &'static [u8] {
    match standard {
        Standard::Erc20 => b"erc20",
        Standard::Erc721 => b"erc721",
        Standard::Erc1155 => b"erc1155",
    }
}

fn address_of(tag: &[u8], seed: u64, k: u64) -> Address {
    Address::from_slice(&digest(tag, &[seed, k]).0[12..])
}

fn amount(rng: &mut Rng) -> U256 {
    U256::from(rng.below(1_000_000) + 1) * U256::from(10u64).pow(U256::from(15u8))
}

impl Synth {
    /// The chain `config` describes.
    pub fn new(config: SynthConfig) -> Self {
        let z = config.zipf;
        let mut contracts = HashMap::new();
        let seed = config.seed;
        let mut token_addresses: [Vec<Address>; 3] = Default::default();
        for (standard, n) in [
            (Standard::Erc20, config.erc20),
            (Standard::Erc721, config.erc721),
            (Standard::Erc1155, config.erc1155),
        ] {
            for k in 0..n.max(1) {
                let a = address_of(token_tag(standard), seed, k);
                contracts.insert(a, Contract::Token(standard, k));
                token_addresses[standard as usize].push(a);
            }
        }
        for k in 0..config.factories.max(1) {
            contracts.insert(address_of(b"factory", seed, k), Contract::Factory);
        }
        contracts.insert(TELEPORTER_V1, Contract::Icm);
        contracts.insert(WARP_PRECOMPILE, Contract::Icm);
        let hot = (0..config.accounts.clamp(1, HOT_ACCOUNTS))
            .map(|r| address_of(b"account", seed, r))
            .collect();
        Self {
            hot,
            token_addresses,
            recent: Mutex::new(VecDeque::with_capacity(RECENT_BLOCKS)),
            accounts: Zipf::new(config.accounts, z),
            tokens: [
                Zipf::new(config.erc20, z),
                Zipf::new(config.erc721, z),
                Zipf::new(config.erc1155, z),
            ],
            factories: Zipf::new(config.factories, z),
            contracts,
            blockchain_id: blockchain_id(config.chain_id),
            config,
        }
    }

    /// Its configuration.
    pub fn config(&self) -> &SynthConfig {
        &self.config
    }

    /// The head block.
    pub fn head(&self) -> u64 {
        self.config.blocks
    }

    /// The account of Zipf rank `rank` (0 is the hottest).
    pub fn account(&self, rank: u64) -> Address {
        match usize::try_from(rank).ok().and_then(|r| self.hot.get(r)) {
            Some(a) => *a,
            None => address_of(b"account", self.config.seed, rank),
        }
    }

    /// The `k`th token of `standard` (0 is the most used).
    pub fn token(&self, standard: Standard, k: u64) -> Address {
        let known = usize::try_from(k)
            .ok()
            .and_then(|k| self.token_addresses[standard as usize].get(k));
        match known {
            Some(a) => *a,
            None => address_of(token_tag(standard), self.config.seed, k),
        }
    }

    /// What `a` is, if one of the chain's named contracts.
    pub fn contract(&self, a: &Address) -> Option<Contract> {
        self.contracts.get(a).copied()
    }

    /// This chain's blockchain id, the source of its ICM sends.
    pub fn blockchain_id(&self) -> B256 {
        self.blockchain_id
    }

    /// The hash of block `n`.
    pub fn block_hash(&self, n: u64) -> B256 {
        numbered(b"block", &[self.config.seed, n], n)
    }

    /// The block a hash names, if it is one of the chain's.
    pub fn block_of_hash(&self, hash: &B256) -> Option<u64> {
        let n = u64::from_be_bytes(hash.0[24..].try_into().ok()?);
        (n <= self.head() && self.block_hash(n) == *hash).then_some(n)
    }

    /// The block and index of the tx a hash names, if it is one of the chain's.
    pub fn tx_of_hash(&self, hash: &B256) -> Option<(u64, u32)> {
        let ordinal = u64::from_be_bytes(hash.0[24..].try_into().ok()?);
        let per = u64::from(self.config.txs_per_block.max(1));
        let (n, i) = (ordinal / per + 1, (ordinal % per) as u32);
        (n <= self.head() && self.tx_hash(n, i) == *hash).then_some((n, i))
    }

    fn tx_hash(&self, n: u64, i: u32) -> B256 {
        numbered(
            b"tx",
            &[self.config.seed, n, u64::from(i)],
            self.ordinal(n, i),
        )
    }

    fn ordinal(&self, n: u64, i: u32) -> u64 {
        (n - 1) * u64::from(self.config.txs_per_block) + u64::from(i)
    }

    /// Block `n`, `None` past the head.
    pub fn block(&self, n: u64) -> Option<SynthBlock> {
        if n > self.head() {
            return None;
        }
        let txs = if n == 0 {
            Vec::new()
        } else {
            (0..self.config.txs_per_block)
                .map(|i| self.tx(n, i))
                .collect()
        };
        Some(SynthBlock {
            number: n,
            hash: self.block_hash(n),
            parent: if n == 0 {
                B256::ZERO
            } else {
                self.block_hash(n - 1)
            },
            timestamp: self.config.start_timestamp + 2 * n,
            txs,
        })
    }

    /// Block `n` as [`Synth::block`] makes it, kept among the last few asked.
    pub fn block_shared(&self, n: u64) -> Option<Arc<SynthBlock>> {
        let found = self
            .recent
            .lock()
            .ok()
            .and_then(|r| r.iter().find(|b| b.number == n).cloned());
        if found.is_some() {
            return found;
        }
        let b = Arc::new(self.block(n)?);
        if let Ok(mut recent) = self.recent.lock() {
            if recent.len() == RECENT_BLOCKS {
                recent.pop_front();
            }
            recent.push_back(Arc::clone(&b));
        }
        Some(b)
    }

    /// Tx `i` of block `n` (n ≥ 1).
    pub fn tx(&self, n: u64, i: u32) -> SynthTx {
        let mut rng = Rng::of(&[self.config.seed, n, u64::from(i)]);
        // Block 1's first tx is an ICM send, which initializes the messenger's blockchain id.
        let kind = if n == 1 && i == 0 {
            TxKind::IcmSend
        } else {
            pick_kind(&mut rng)
        };
        let from = self.account(self.accounts.draw(&mut rng));
        let mut tx = SynthTx {
            kind,
            hash: self.tx_hash(n, i),
            ordinal: self.ordinal(n, i),
            from,
            to: None,
            value: U256::ZERO,
            input: Vec::new(),
            gas: 300_000,
            gas_used: 0,
            success: true,
            created: None,
            logs: Vec::new(),
            trace: Frame {
                kind: "CALL",
                from,
                to: Address::ZERO,
                value: Some(U256::ZERO),
                gas: 0,
                gas_used: 0,
                input: Vec::new(),
                output: None,
                revert: None,
                calls: Vec::new(),
            },
            moved: Vec::new(),
        };
        self.fill(&mut tx, &mut rng, n == 1 && i == 0);
        tx.trace.from = tx.from;
        tx.trace.to = tx.to.or(tx.created).unwrap_or_default();
        tx.trace.value = Some(tx.value);
        tx.trace.input = tx.input.clone();
        // The root frame's gas is the limit less the intrinsic gas, as anvil reports it.
        tx.trace.gas = tx.gas - 21_000;
        tx.trace.gas_used = tx.gas_used;
        tx
    }

    fn account_draw(&self, rng: &mut Rng) -> Address {
        self.account(self.accounts.draw(rng))
    }

    fn token_draw(&self, standard: Standard, rng: &mut Rng) -> Address {
        let z = &self.tokens[standard as usize];
        self.token(standard, z.draw(rng))
    }

    fn fill(&self, tx: &mut SynthTx, rng: &mut Rng, first: bool) {
        let transfer_sig = keccak256("Transfer(address,address,uint256)");
        let word = |a: Address| a.into_word();
        match tx.kind {
            TxKind::Native => {
                tx.to = Some(self.account_draw(rng));
                tx.value = amount(rng);
                tx.gas = 21_000;
                tx.gas_used = 21_000;
            }
            TxKind::Erc20Transfer | TxKind::Erc20Mint | TxKind::Revert => {
                let token = self.token_draw(Standard::Erc20, rng);
                let to = self.account_draw(rng);
                let value = amount(rng);
                tx.to = Some(token);
                let mint = tx.kind == TxKind::Erc20Mint;
                tx.input = if mint {
                    Erc20Preset::mintCall { to, amount: value }.abi_encode()
                } else {
                    Erc20Preset::transferCall { to, amount: value }.abi_encode()
                };
                tx.gas = 100_000;
                if tx.kind == TxKind::Revert {
                    tx.success = false;
                    tx.gas_used = 24_520;
                    tx.trace.revert = Some("ERC20: transfer amount exceeds balance");
                    tx.trace.output = Some(revert_data("ERC20: transfer amount exceeds balance"));
                    return;
                }
                let sender = if mint { Address::ZERO } else { tx.from };
                tx.gas_used = if mint { 53_690 } else { 51_810 };
                tx.trace.output = Some(U256::from(1u8).to_be_bytes::<32>().to_vec());
                tx.logs.push(SynthLog {
                    address: token,
                    topics: vec![transfer_sig, word(sender), word(to)],
                    data: value.to_be_bytes::<32>().to_vec(),
                });
                tx.moved.push(Moved {
                    token,
                    standard: Standard::Erc20,
                    from: sender,
                    to,
                    id: U256::ZERO,
                    value,
                });
            }
            TxKind::Erc721Mint | TxKind::Erc721Transfer => {
                let token = self.token_draw(Standard::Erc721, rng);
                let to = self.account_draw(rng);
                let mint = tx.kind == TxKind::Erc721Mint;
                // A minted id is the tx's ordinal, so ids never repeat.
                let id = U256::from(if mint {
                    tx.ordinal
                } else {
                    rng.below(tx.ordinal + 1)
                });
                let sender = if mint { Address::ZERO } else { tx.from };
                tx.to = Some(token);
                tx.input = if mint {
                    Erc721Preset::mintCall { to }.abi_encode()
                } else {
                    Erc721Preset::transferFromCall {
                        from: tx.from,
                        to,
                        tokenId: id,
                    }
                    .abi_encode()
                };
                tx.gas = 150_000;
                tx.gas_used = if mint { 94_380 } else { 58_912 };
                tx.logs.push(SynthLog {
                    address: token,
                    topics: vec![transfer_sig, word(sender), word(to), B256::from(id)],
                    data: Vec::new(),
                });
                tx.moved.push(Moved {
                    token,
                    standard: Standard::Erc721,
                    from: sender,
                    to,
                    id,
                    value: U256::from(1u8),
                });
            }
            TxKind::Erc1155Transfer | TxKind::Erc1155MintBatch => {
                let token = self.token_draw(Standard::Erc1155, rng);
                let to = self.account_draw(rng);
                tx.to = Some(token);
                tx.gas = 200_000;
                if tx.kind == TxKind::Erc1155Transfer {
                    let (id, value) = (U256::from(rng.below(64)), U256::from(rng.below(100) + 1));
                    tx.input = Erc1155Preset::safeTransferFromCall {
                        from: tx.from,
                        to,
                        id,
                        amount: value,
                        data: Bytes::new(),
                    }
                    .abi_encode();
                    tx.gas_used = 57_140;
                    tx.logs.push(SynthLog {
                        address: token,
                        topics: vec![
                            keccak256("TransferSingle(address,address,address,uint256,uint256)"),
                            word(tx.from),
                            word(tx.from),
                            word(to),
                        ],
                        data: (id, value).abi_encode(),
                    });
                    tx.moved.push(Moved {
                        token,
                        standard: Standard::Erc1155,
                        from: tx.from,
                        to,
                        id,
                        value,
                    });
                } else {
                    let ids: Vec<U256> = (0..3).map(|_| U256::from(rng.below(64))).collect();
                    let values: Vec<U256> =
                        (0..3).map(|_| U256::from(rng.below(100) + 1)).collect();
                    tx.input = Erc1155Preset::mintBatchCall {
                        to,
                        ids: ids.clone(),
                        amounts: values.clone(),
                        data: Bytes::new(),
                    }
                    .abi_encode();
                    tx.gas_used = 118_215;
                    tx.logs.push(SynthLog {
                        address: token,
                        topics: vec![
                            keccak256("TransferBatch(address,address,address,uint256[],uint256[])"),
                            word(tx.from),
                            word(Address::ZERO),
                            word(to),
                        ],
                        data: (ids.clone(), values.clone()).abi_encode_params(),
                    });
                    for (id, value) in ids.into_iter().zip(values) {
                        tx.moved.push(Moved {
                            token,
                            standard: Standard::Erc1155,
                            from: Address::ZERO,
                            to,
                            id,
                            value,
                        });
                    }
                }
            }
            TxKind::Create => {
                let created = tx.from.create(tx.ordinal);
                tx.input = INIT_CODE.to_vec();
                tx.gas = 100_000;
                tx.gas_used = 55_174;
                tx.created = Some(created);
                tx.trace.kind = "CREATE";
                tx.trace.output = Some(RUNTIME.to_vec());
            }
            TxKind::FactoryCreate => {
                let factory = self.factory_draw(rng);
                let salt = B256::from(U256::from(tx.ordinal));
                let child = factory.create2(salt, keccak256(INIT_CODE));
                tx.to = Some(factory);
                tx.input = FactoryCalls::create2Call { salt }.abi_encode();
                tx.gas = 200_000;
                tx.gas_used = 88_310;
                tx.trace.output = Some(word(child).to_vec());
                tx.trace.calls.push(Frame {
                    kind: "CREATE2",
                    from: factory,
                    to: child,
                    value: Some(U256::ZERO),
                    gas: 150_000,
                    gas_used: 33_420,
                    input: INIT_CODE.to_vec(),
                    output: Some(RUNTIME.to_vec()),
                    revert: None,
                    calls: Vec::new(),
                });
            }
            TxKind::Split => {
                let factory = self.factory_draw(rng);
                let to: Vec<Address> = (0..2 + rng.below(2))
                    .map(|_| self.account_draw(rng))
                    .collect();
                let each = amount(rng);
                tx.to = Some(factory);
                tx.value = each * U256::from(to.len());
                tx.input = FactoryCalls::splitCall { to: to.clone() }.abi_encode();
                tx.gas = 150_000;
                tx.gas_used = 40_000 + 9_000 * to.len() as u64;
                for a in to {
                    tx.trace.calls.push(Frame {
                        kind: "CALL",
                        from: factory,
                        to: a,
                        value: Some(each),
                        gas: 2_300,
                        gas_used: 0,
                        input: Vec::new(),
                        output: None,
                        revert: None,
                        calls: Vec::new(),
                    });
                }
            }
            TxKind::IcmSend => self.icm_send(tx, rng, first),
        }
    }

    fn factory_draw(&self, rng: &mut Rng) -> Address {
        address_of(b"factory", self.config.seed, self.factories.draw(rng))
    }

    /// A `sendCrossChainMessage` with no fee: the messenger's `SendCrossChainMessage` log (id by
    /// the message-id rule, nonce the tx's ordinal + 1) and the Warp precompile's
    /// `SendWarpMessage`; `first` also initializes the messenger's blockchain id.
    fn icm_send(&self, tx: &mut SynthTx, rng: &mut Rng, first: bool) {
        let destination = digest(b"synth destination", &[rng.below(4)]);
        let nonce = U256::from(tx.ordinal + 1);
        let id = message_id(self.blockchain_id, destination, nonce);
        let destination_address = self.account_draw(rng);
        let payload = Bytes::from(format!("synthetic ICM message {}", tx.ordinal).into_bytes());
        let message = TeleporterMessage {
            messageNonce: nonce,
            originSenderAddress: tx.from,
            destinationBlockchainID: destination,
            destinationAddress: destination_address,
            requiredGasLimit: U256::from(200_000u32),
            allowedRelayerAddresses: Vec::new(),
            receipts: Vec::new(),
            message: payload.clone(),
        };
        let fee = TeleporterFeeInfo {
            feeTokenAddress: Address::ZERO,
            amount: U256::ZERO,
        };
        tx.to = Some(TELEPORTER_V1);
        tx.input = ITeleporterMessenger::sendCrossChainMessageCall {
            messageInput: TeleporterMessageInput {
                destinationBlockchainID: destination,
                destinationAddress: destination_address,
                feeInfo: fee.clone(),
                requiredGasLimit: U256::from(200_000u32),
                allowedRelayerAddresses: Vec::new(),
                message: payload,
            },
        }
        .abi_encode();
        tx.gas = 1_500_000;
        tx.gas_used = 120_000;
        tx.trace.output = Some(id.to_vec());
        if first {
            tx.logs.push(SynthLog {
                address: TELEPORTER_V1,
                topics: vec![
                    ITeleporterMessenger::BlockchainIDInitialized::SIGNATURE_HASH,
                    self.blockchain_id,
                ],
                data: Vec::new(),
            });
        }
        let warp_payload = message.abi_encode();
        let warp_id = keccak256(&warp_payload);
        tx.logs.push(SynthLog {
            address: TELEPORTER_V1,
            topics: vec![
                ITeleporterMessenger::SendCrossChainMessage::SIGNATURE_HASH,
                id,
                destination,
            ],
            data: ITeleporterMessenger::SendCrossChainMessage {
                messageID: id,
                destinationBlockchainID: destination,
                message,
                feeInfo: fee,
            }
            .encode_data(),
        });
        tx.logs.push(SynthLog {
            address: WARP_PRECOMPILE,
            topics: vec![
                IWarpMessenger::SendWarpMessage::SIGNATURE_HASH,
                TELEPORTER_V1.into_word(),
                warp_id,
            ],
            data: (Bytes::from(warp_payload.clone()),).abi_encode_params(),
        });
        tx.trace.calls.push(Frame {
            kind: "STATICCALL",
            from: TELEPORTER_V1,
            to: WARP_PRECOMPILE,
            value: None,
            gas: 1_400_000,
            gas_used: 2_246,
            input: vec![0x42, 0x13, 0xcf, 0x78],
            output: Some(self.blockchain_id.to_vec()),
            revert: None,
            calls: Vec::new(),
        });
        let mut send = vec![0xee, 0x5b, 0x48, 0xeb];
        send.extend((Bytes::from(warp_payload),).abi_encode_params());
        tx.trace.calls.push(Frame {
            kind: "CALL",
            from: TELEPORTER_V1,
            to: WARP_PRECOMPILE,
            value: Some(U256::ZERO),
            gas: 1_300_000,
            gas_used: 11_085,
            input: send,
            output: Some(warp_id.to_vec()),
            revert: None,
            calls: Vec::new(),
        });
    }
}

/// Solidity's `Error(string)` revert data.
fn revert_data(reason: &str) -> Vec<u8> {
    let mut out = vec![0x08, 0xc3, 0x79, 0xa0];
    out.extend((reason.to_owned(),).abi_encode_params());
    out
}

/// A tx kind, by weight (percent).
fn pick_kind(rng: &mut Rng) -> TxKind {
    const WEIGHTS: [(TxKind, u64); 12] = [
        (TxKind::Native, 35),
        (TxKind::Erc20Transfer, 25),
        (TxKind::Erc20Mint, 5),
        (TxKind::Erc721Mint, 5),
        (TxKind::Erc721Transfer, 5),
        (TxKind::Erc1155Transfer, 5),
        (TxKind::Erc1155MintBatch, 2),
        (TxKind::Create, 1),
        (TxKind::FactoryCreate, 3),
        (TxKind::Split, 7),
        (TxKind::Revert, 5),
        (TxKind::IcmSend, 2),
    ];
    let mut r = rng.below(100);
    for (kind, w) in WEIGHTS {
        if r < w {
            return kind;
        }
        r -= w;
    }
    TxKind::Native
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Synth {
        Synth::new(SynthConfig {
            blocks: 40,
            txs_per_block: 25,
            accounts: 10_000,
            ..SynthConfig::default()
        })
    }

    #[test]
    fn blocks_are_a_function_of_seed_and_number() {
        let s = small();
        assert_eq!(s.block(7), small().block(7));
        assert!(s.block(41).is_none());
        let b = s.block(7).unwrap();
        assert_eq!(b.parent, s.block(6).unwrap().hash);
        assert_eq!(b.txs.len(), 25);
        assert_eq!(s.block_of_hash(&b.hash), Some(7));
        assert_eq!(s.tx_of_hash(&b.txs[3].hash), Some((7, 3)));
        assert_eq!(s.tx_of_hash(&B256::repeat_byte(1)), None);
        let other = Synth::new(SynthConfig {
            seed: 2,
            ..s.config().clone()
        });
        assert_ne!(other.block(7).unwrap().hash, b.hash);
    }

    #[test]
    fn every_kind_appears_and_hot_accounts_dominate() {
        let s = small();
        let mut kinds = std::collections::HashSet::new();
        let mut hot = 0;
        let total = s.config().total_txs();
        for n in 1..=s.head() {
            for tx in s.block(n).unwrap().txs {
                kinds.insert(tx.kind);
                if tx.native_parties().any(|a| a == s.account(0)) {
                    hot += 1;
                }
                // A reverted tx moves nothing and logs nothing.
                if !tx.success {
                    assert!(tx.logs.is_empty() && tx.moved.is_empty());
                }
            }
        }
        assert_eq!(kinds.len(), 12, "{kinds:?}");
        assert!(hot * 20 > total, "hot account in {hot} of {total} txs");
    }
}
