//! What a block's rows need beyond the block itself, read from the node at that block: the
//! native balance of every address the block touched (`eth_getBalance`: atomic imports change
//! balances without an EVM tx, so balances are read, never summed) and the `eth_call`s that
//! describe tokens and contracts seen for the first time, and NFT URIs of the ids that moved.
//!
//! The calls have exactly the form the devnet's recorder writes (`docs/evm-devnet.md`), so a
//! recording answers them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Value, json};
use snowline_jsonrpc_client::{ClientError, RawResult};
use snowline_types::evm::{
    Address, Bytes, CallKind, Erc20Answers, HexStr, InterfaceClaims, PROBED_INTERFACES, TokenCall,
    TransferLog, U256, decode_bool, decode_decimals, decode_text, decode_u256,
};

use snowline_store::{ReadView, Store};

use crate::error::EvmError;
use crate::parse::Block;
use crate::source::EvmSource;
use crate::tables::EvTokens;

/// Calls per JSON-RPC batch.
const CALLS_PER_BATCH: usize = 512;
/// JSON-RPC batches of calls in flight at once.
const CHUNKS_IN_FLIGHT: usize = 4;

/// The contracts described by blocks not yet written: probed for interfaces, and asked their
/// names. Those of written blocks are in `ev_tokens`, looked up one by one (a chain may have
/// millions of contracts, too many to hold in memory): each [`plan`] is a batch, and an address
/// is forgotten once every batch that looked at it is written ([`Known::forget_written`]), when
/// the store describes it.
#[derive(Debug, Default, Clone)]
pub struct Known {
    /// Asked `supportsInterface`.
    pub probed: FxHashSet<Address>,
    /// Asked `name()` / `symbol()`.
    pub named: FxHashSet<Address>,
    /// The last batch that looked at each address held.
    last: FxHashMap<Address, u64>,
    /// The addresses each unforgotten batch looked at, oldest batch first.
    batches: VecDeque<(u64, Vec<Address>)>,
    /// The next batch's number (batches are numbered from 0, in planning order).
    next: u64,
}

impl Known {
    /// Adds what the store says of `a` (its `ev_tokens` row: probed, and maybe named), once.
    fn learn(
        &mut self,
        store: &Store,
        chain: u64,
        a: &Address,
        looked: &mut FxHashSet<Address>,
    ) -> Result<(), EvmError> {
        if !looked.insert(*a) || self.probed.contains(a) {
            return Ok(());
        }
        if let Some(row) = store.get::<EvTokens>(&(chain, a.0.0))? {
            self.probe(*a);
            if row.0.named {
                self.name(*a);
            }
        }
        Ok(())
    }

    /// Notes that the batch being planned looked at `a`.
    fn touch(&mut self, a: Address) {
        let batch = self.next;
        if self.last.insert(a, batch) != Some(batch) {
            if let Some((_, list)) = self.batches.back_mut().filter(|(b, _)| *b == batch) {
                list.push(a);
            } else {
                self.batches.push_back((batch, vec![a]));
            }
        }
    }

    fn probe(&mut self, a: Address) {
        self.probed.insert(a);
        self.touch(a);
    }

    /// Whether `a` was not named yet (and is now).
    fn name(&mut self, a: Address) -> bool {
        self.touch(a);
        self.named.insert(a)
    }

    /// Forgets every address whose batches are all written: the first `written` batches
    /// planned are (the store describes their contracts now).
    pub fn forget_written(&mut self, written: u64) {
        while self.batches.front().is_some_and(|(b, _)| *b < written) {
            let Some((batch, list)) = self.batches.pop_front() else {
                break;
            };
            for a in list {
                if self.last.get(&a) == Some(&batch) {
                    self.last.remove(&a);
                    self.probed.remove(&a);
                    self.named.remove(&a);
                }
            }
        }
    }
}

/// A token's names, asked once.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names {
    /// `name()`.
    pub name: Option<String>,
    /// `symbol()`.
    pub symbol: Option<String>,
    /// `decimals()` and `totalSupply()`, asked of ERC-20 `Transfer` emitters only.
    pub erc20: Option<Erc20Answers>,
}

/// What one block's rows need from the node.
#[derive(Debug, Clone, Default)]
pub struct Enrichment {
    /// Balance after the block of each touched address.
    pub balances: Vec<(Address, U256)>,
    /// New contracts' `supportsInterface` answers.
    pub probes: Vec<(Address, InterfaceClaims)>,
    /// Names of tokens first seen transferring.
    pub names: Vec<(Address, Names)>,
    /// `tokenURI` / `uri` of each NFT id moved (`None`: the call failed).
    pub uris: Vec<(Address, U256, Option<String>)>,
}

/// A JSON-RPC call: method and params.
type Call = (&'static str, Value);

/// Where an answer goes.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Balance(usize, Address),
    Probe(usize, Address, [u8; 4]),
    Name(usize, Address),
    Symbol(usize, Address),
    Decimals(usize, Address),
    TotalSupply(usize, Address),
    Uri(usize, Address, U256),
}

/// The token standard a log's shape says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Erc20,
    Erc721,
    Erc1155,
}

fn hex_quantity(n: u64) -> String {
    format!("{n:#x}")
}

fn addr_hex(a: &Address) -> String {
    format!("{a:#x}")
}

fn eth_call(to: &Address, call: TokenCall, tag: &str) -> Call {
    let data = Bytes::from(call.calldata()).to_string();
    ("eth_call", json!([{"to": addr_hex(to), "data": data}, tag]))
}

/// Every address a block touched: txs' senders and recipients, every frame's ends, created
/// contracts, log emitters.
pub fn touched(block: &Block) -> BTreeSet<Address> {
    let mut out = BTreeSet::new();
    for tx in &block.txs {
        out.insert(tx.from);
        out.extend(tx.to);
        out.extend(tx.contract_address);
        out.extend(tx.frame_ends.iter().copied());
        out.extend(tx.emitters.iter().copied());
    }
    out
}

/// Contracts created in the block (by the tx or by a frame that did not fail).
fn created(block: &Block) -> BTreeSet<Address> {
    let mut out = BTreeSet::new();
    for tx in &block.txs {
        out.extend(tx.contract_address);
        for f in tx.internals.iter().flatten() {
            if matches!(f.kind, CallKind::Create | CallKind::Create2) && !f.reverted {
                out.extend(f.to);
            }
        }
    }
    out
}

/// The token emitters of a block, with the shape of their first transfer and the NFT ids moved.
fn token_events(block: &Block) -> BTreeMap<Address, (Shape, BTreeSet<U256>)> {
    let mut out: BTreeMap<Address, (Shape, BTreeSet<U256>)> = BTreeMap::new();
    for tx in &block.txs {
        for (emitter, _, log) in &tx.transfers {
            let (shape, ids): (Shape, Vec<U256>) = match log {
                TransferLog::Erc20 { .. } => (Shape::Erc20, Vec::new()),
                TransferLog::Erc721 { token_id, .. } => (Shape::Erc721, vec![*token_id]),
                TransferLog::Erc1155 { amounts, .. } => {
                    (Shape::Erc1155, amounts.iter().map(|(id, _)| *id).collect())
                }
            };
            out.entry(*emitter)
                .or_insert((shape, BTreeSet::new()))
                .1
                .extend(ids);
        }
    }
    out
}

/// The calls some blocks' rows need, planned: run them with [`Planned::fetch`].
#[derive(Debug, Clone)]
pub struct Planned {
    calls: Vec<Call>,
    slots: Vec<Slot>,
    /// The blocks' numbers, in order.
    numbers: Vec<u64>,
}

/// The calls `blocks`' rows need, in block order; `known` learns the contracts they describe
/// (and the chain's `ev_tokens` in `store` says which are already described). Each plan is the
/// next batch of `known`'s; planning must go in block order, and the plans' calls can then run
/// in any order, several at a time.
pub fn plan(
    blocks: &[Block],
    known: &mut Known,
    store: &Store,
    chain: u64,
) -> Result<Planned, EvmError> {
    let (mut calls, mut slots) = (Vec::new(), Vec::new());
    let mut looked = FxHashSet::default();
    for (i, block) in blocks.iter().enumerate() {
        let tag = hex_quantity(block.number);
        for a in touched(block) {
            calls.push(("eth_getBalance", json!([addr_hex(&a), tag])));
            slots.push(Slot::Balance(i, a));
        }
        let tokens = token_events(block);
        let seen: BTreeSet<Address> = created(block)
            .into_iter()
            .chain(tokens.keys().copied())
            .collect();
        for a in &seen {
            known.learn(store, chain, a, &mut looked)?;
        }
        let fresh: BTreeSet<Address> = seen
            .into_iter()
            .filter(|a| !known.probed.contains(a))
            .collect();
        for a in fresh {
            for id in PROBED_INTERFACES {
                calls.push(eth_call(&a, TokenCall::SupportsInterface(id), &tag));
                slots.push(Slot::Probe(i, a, id));
            }
            known.probe(a);
        }
        for (a, (shape, ids)) in &tokens {
            if *shape != Shape::Erc1155 && known.name(*a) {
                calls.push(eth_call(a, TokenCall::Name, &tag));
                slots.push(Slot::Name(i, *a));
                calls.push(eth_call(a, TokenCall::Symbol, &tag));
                slots.push(Slot::Symbol(i, *a));
                if *shape == Shape::Erc20 {
                    calls.push(eth_call(a, TokenCall::Decimals, &tag));
                    slots.push(Slot::Decimals(i, *a));
                    calls.push(eth_call(a, TokenCall::TotalSupply, &tag));
                    slots.push(Slot::TotalSupply(i, *a));
                }
            }
            for id in ids {
                let call = match shape {
                    Shape::Erc20 => continue,
                    Shape::Erc721 => TokenCall::TokenUri(*id),
                    Shape::Erc1155 => TokenCall::Uri(*id),
                };
                calls.push(eth_call(a, call, &tag));
                slots.push(Slot::Uri(i, *a, *id));
            }
        }
    }
    known.next += 1;
    Ok(Planned {
        calls,
        slots,
        numbers: blocks.iter().map(|b| b.number).collect(),
    })
}

/// The bytes an `eth_call` returned; `None` when it failed (reverted) or answered no hex.
fn returned(answer: &Result<RawResult, ClientError>) -> Option<Vec<u8>> {
    let raw = answer.as_ref().ok()?;
    let text: String = serde_json::from_str(raw.json()).ok()?;
    HexStr::new(text).decode()
}

fn balance(answer: Result<RawResult, ClientError>, what: &str) -> Result<U256, EvmError> {
    let raw = answer.map_err(|e| EvmError::Answer(format!("{what}: {e}")))?;
    serde_json::from_str::<U256>(raw.json())
        .map_err(|e| EvmError::Answer(format!("{what}: {e}: {}", raw.json())))
}

/// Reads what `blocks` need from `source`, one [`Enrichment`] per block (`known` and the
/// chain's `ev_tokens` in `store` say which contracts are already described): [`plan`], then
/// [`Planned::fetch`].
pub async fn enrich(
    source: &Arc<EvmSource>,
    blocks: &[Block],
    known: &mut Known,
    store: &Store,
    chain: u64,
) -> Result<Vec<Enrichment>, EvmError> {
    plan(blocks, known, store, chain)?
        .fetch(Arc::clone(source))
        .await
}

impl Planned {
    /// Runs the planned calls on `source`, in JSON-RPC batches of at most 512 calls, four at a
    /// time: one [`Enrichment`] per block planned.
    pub async fn fetch(self, source: Arc<EvmSource>) -> Result<Vec<Enrichment>, EvmError> {
        let Planned {
            calls,
            slots,
            numbers,
            ..
        } = self;
        let Some(first) = numbers.first().copied() else {
            return Ok(Vec::new());
        };
        let chunks: Vec<Vec<Call>> = calls.chunks(CALLS_PER_BATCH).map(<[_]>::to_vec).collect();
        let mut answers = Vec::with_capacity(calls.len());
        for wave in chunks.chunks(CHUNKS_IN_FLIGHT) {
            let tasks: Vec<_> = wave
                .iter()
                .cloned()
                .map(|chunk| {
                    let source = Arc::clone(&source);
                    let what = format!("{} calls for blocks from {first}", chunk.len());
                    tokio::spawn(async move { source.calls(&what, &chunk).await })
                })
                .collect();
            for task in tasks {
                let done = task
                    .await
                    .map_err(|e| EvmError::Answer(format!("enrichment task failed: {e}")))?;
                answers.extend(done?);
            }
        }
        if answers.len() != slots.len() {
            return Err(EvmError::Answer(format!(
                "{} answers to {} calls",
                answers.len(),
                slots.len()
            )));
        }
        assemble(&numbers, slots, answers)
    }
}

/// Each block's [`Enrichment`] from the answers to its planned calls.
fn assemble(
    numbers: &[u64],
    slots: Vec<Slot>,
    answers: Vec<Result<RawResult, ClientError>>,
) -> Result<Vec<Enrichment>, EvmError> {
    let mut out = vec![Enrichment::default(); numbers.len()];
    let mut probes: BTreeMap<(usize, Address), InterfaceClaims> = BTreeMap::new();
    let mut names: BTreeMap<(usize, Address), Names> = BTreeMap::new();
    for (slot, answer) in slots.into_iter().zip(answers) {
        match slot {
            Slot::Balance(i, a) => {
                let what = format!("eth_getBalance {a} at block {}", numbers[i]);
                out[i].balances.push((a, balance(answer, &what)?));
            }
            Slot::Probe(i, a, id) => {
                let said = returned(&answer).and_then(|r| decode_bool(&r));
                probes.entry((i, a)).or_default().set(id, said);
            }
            Slot::Name(i, a) => {
                names.entry((i, a)).or_default().name =
                    returned(&answer).and_then(|r| decode_text(&r));
            }
            Slot::Symbol(i, a) => {
                names.entry((i, a)).or_default().symbol =
                    returned(&answer).and_then(|r| decode_text(&r));
            }
            Slot::Decimals(i, a) => {
                let erc20 = names
                    .entry((i, a))
                    .or_default()
                    .erc20
                    .get_or_insert_default();
                erc20.decimals = returned(&answer).and_then(|r| decode_decimals(&r));
            }
            Slot::TotalSupply(i, a) => {
                let erc20 = names
                    .entry((i, a))
                    .or_default()
                    .erc20
                    .get_or_insert_default();
                erc20.total_supply = returned(&answer).and_then(|r| decode_u256(&r));
            }
            Slot::Uri(i, a, id) => {
                let uri = returned(&answer).and_then(|r| decode_text(&r));
                out[i].uris.push((a, id, uri));
            }
        }
    }
    for ((i, a), p) in probes {
        out[i].probes.push((a, p));
    }
    for ((i, a), n) in names {
        out[i].names.push((a, n));
    }
    Ok(out)
}

/// The genesis balances of `accounts` (a chain's genesis allocations, which no block names):
/// `eth_getBalance [address, "0x0"]` each.
pub async fn genesis_balances(
    source: &Arc<EvmSource>,
    accounts: &[Address],
) -> Result<Vec<(Address, U256)>, EvmError> {
    let tag = hex_quantity(0);
    let calls: Vec<Call> = accounts
        .iter()
        .map(|a| ("eth_getBalance", json!([addr_hex(a), tag])))
        .collect();
    let answers = source.calls("genesis balances", &calls).await?;
    accounts
        .iter()
        .zip(answers)
        .map(|(a, answer)| {
            Ok((
                *a,
                balance(answer, &format!("eth_getBalance {a} at genesis"))?,
            ))
        })
        .collect()
}
