//! [`EvmChain`]: turns read blocks, with what [`enrich`](crate::enrich) read for them, into the
//! EVM tables' rows, in batches that hold whole blocks and the cursor after them (so a crash at
//! any moment, then a restart, gives the index a clean run gives); and [`sync`], the follower
//! that reads a node from the cursor to its tip and keeps polling, parsing and enriching the
//! next batches while one is written.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use snowline_derive::{DeriveError, PendingRows, Staging, StagingParts, drop_batch, write_batch};
use snowline_store::{Linear, ReadView, Store, Table, WriteBatch};
use snowline_types::evm::{Address, CallKind, TokenTransferKind, TransferLog, U256};

use crate::enrich::{Enrichment, Known, plan};
use crate::error::EvmError;
use crate::genesis::{Genesis, GenesisOrigin};
use crate::holdings::{Holdings, Movement};
use crate::hook::{BlockHook, BlockHooks};
use crate::parse::{Block, Tx, parse_batch};
use crate::rows::{
    AddressTransfer, AddressTxRow, BlockRow, ContractRow, CursorRow, InternalRow, Roles, TokenRow,
    TransferKind, TxKey, TxParts, TxRow, TxTransfer,
};
use crate::source::{EvmSource, FetchedBlock, SourceError};
use crate::status::SyncStatus;
use crate::tables::*;
use crate::token_cache::TokenCache;

/// How [`sync`] follows a node.
#[derive(Debug, Clone)]
pub struct SyncConfig {
    /// Pause between looks at the tip once caught up.
    pub poll: Duration,
    /// Stop once this block is derived (`None`: follow forever).
    pub stop_after: Option<u64>,
    /// The first block to index when the store has none of the chain (later starts keep the
    /// cursor): 0 for the whole chain.
    pub start: u64,
    /// Where to report progress.
    pub status: Option<Arc<SyncStatus>>,
    /// The chain's genesis allocation (no block names the accounts it funds), applied at
    /// block 0.
    pub genesis: Genesis,
    /// What other rooms derive from each block, in the same batches.
    pub hooks: BlockHooks,
    /// The readers' cache of token rows, cleared once a batch that changed one is written.
    pub tokens: Option<Arc<TokenCache>>,
}

impl Default for SyncConfig {
    fn default() -> Self {
        Self {
            poll: Duration::from_secs(1),
            stop_after: None,
            start: 0,
            status: None,
            genesis: Genesis::Unknown,
            hooks: BlockHooks::new(),
            tokens: None,
        }
    }
}

/// The deriver of one EVM chain: the cursor and the rows a batch changes more than once.
#[derive(Debug)]
pub struct EvmChain {
    chain: u64,
    /// The first block, when the store has no cursor yet.
    start: u64,
    /// The cursor after the staged blocks.
    staged: Option<CursorRow>,
    /// The cursor the store holds.
    written: Option<CursorRow>,
    owners: PendingRows<EvErc721Owner>,
    by_owner: PendingRows<EvErc721ByOwner>,
    tokens: PendingRows<EvTokens>,
    /// Token balances summed from the transfer logs.
    holdings: Holdings,
    /// Where block 0's genesis allocation came from, when it is known.
    genesis: Option<GenesisOrigin>,
    /// Other rooms' derivers, given each block after its own rows.
    hooks: Vec<Box<dyn BlockHook>>,
    /// The addresses of the tx being derived (kept to reuse its allocation).
    touched: Touched,
    /// The readers' cache of token rows, when they keep one.
    token_cache: Option<Arc<TokenCache>>,
    /// Whether the staged batch changed a token row.
    tokens_staged: bool,
    /// Whether a sealed, unwritten batch changed one.
    tokens_sealed: bool,
}

/// The 20 bytes of an address.
fn a20(a: &Address) -> Addr {
    a.0.0
}

/// A word's 32 bytes, big-endian.
fn w32(v: &U256) -> Word {
    v.to_be_bytes::<32>()
}

impl EvmChain {
    /// The deriver of chain `chain`, from where `store` stands (from block `start` when the
    /// store has none of the chain).
    pub fn open(store: &Store, chain: u64, start: u64) -> Result<Self, EvmError> {
        let written = store.get::<EvCursor>(&chain)?.map(|l| l.0);
        Ok(Self {
            chain,
            start,
            staged: written,
            written,
            owners: PendingRows::default(),
            by_owner: PendingRows::default(),
            tokens: PendingRows::default(),
            holdings: Holdings::default(),
            genesis: None,
            hooks: Vec::new(),
            touched: Touched::default(),
            token_cache: None,
            tokens_staged: false,
            tokens_sealed: false,
        })
    }

    /// Gives every block, once its own rows are staged, to `hooks` too (same batches).
    pub fn with_hooks(mut self, hooks: Vec<Box<dyn BlockHook>>) -> Self {
        self.hooks = hooks;
        self
    }

    /// Clears `cache` each time a batch that changed a token row is written.
    pub fn with_token_cache(mut self, cache: Option<Arc<TokenCache>>) -> Self {
        self.token_cache = cache;
        self
    }

    /// Whether one of the hooks needs the next blocks read with every log.
    pub fn wants_logs(&self) -> bool {
        self.hooks.iter().any(|h| h.wants_logs())
    }

    /// Records with block 0 that its genesis allocation is known, and from where.
    pub fn set_genesis(&mut self, origin: GenesisOrigin) {
        self.genesis = Some(origin);
    }

    /// The chain id.
    pub fn chain(&self) -> u64 {
        self.chain
    }

    /// The next block to derive.
    pub fn next(&self) -> u64 {
        self.staged.map_or(self.start, |c| c.next)
    }

    /// Stages `block`'s rows into `batch`; on an error nothing of the block is kept.
    pub fn apply(
        &mut self,
        store: &Store,
        block: &Block,
        enr: &Enrichment,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        let c = self.chain;
        let expected = self.next();
        if block.number != expected {
            return Err(EvmError::OutOfOrder {
                expected,
                found: block.number,
            });
        }
        if let Some(cur) = self.staged.filter(|c| c.last_hash != block.parent) {
            return Err(EvmError::ParentMismatch {
                number: block.number,
                expected: cur.last_hash,
                found: block.parent,
            });
        }
        let n = block.number;
        let ts = block.timestamp;
        let mut fees = U256::ZERO;
        for (i, tx) in block.txs.iter().enumerate() {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            fees =
                fees.saturating_add(U256::from(tx.gas_used).saturating_mul(tx.effective_gas_price));
            self.apply_tx(store, block, index, tx, batch)?;
        }
        self.holdings.end_block(store, n, batch)?;
        let cumulative = self.staged.map_or(0, |c| c.cumulative_txs) + block.txs.len() as u64;
        let row = BlockRow {
            hash: block.hash,
            parent: block.parent,
            timestamp: ts,
            miner: block.miner,
            tx_count: u32::try_from(block.txs.len()).unwrap_or(u32::MAX),
            gas_used: block.gas_used,
            gas_limit: block.gas_limit,
            base_fee: block.base_fee,
            block_gas_cost: block.block_gas_cost,
            fees_spent: fees,
            cumulative_txs: cumulative,
        };
        batch.put::<EvBlocks>(&(c, n), &Linear(row));
        batch.put::<EvBlockHashes>(&(c, block.hash.0), &n);
        if let (0, Some(origin)) = (n, self.genesis) {
            batch.put::<EvGenesis>(&c, &origin.code());
        }

        for (a, p) in &enr.probes {
            let key = (c, a20(a));
            let mut row = self.token(store, &key)?.unwrap_or_default();
            row.probes.interfaces = *p;
            row.first_block = n;
            let stored = self.token_stored(store, &key)?;
            self.tokens.put(key, Linear(row), stored);
            self.tokens_staged = true;
        }
        for (a, names) in &enr.names {
            let key = (c, a20(a));
            let mut row = self.token(store, &key)?.unwrap_or(TokenRow {
                first_block: n,
                ..TokenRow::default()
            });
            row.named = true;
            row.name = names.name.clone();
            row.symbol = names.symbol.clone();
            row.probes.erc20 = names.erc20;
            let stored = self.token_stored(store, &key)?;
            self.tokens.put(key, Linear(row), stored);
            self.tokens_staged = true;
        }
        for (a, id, uri) in &enr.uris {
            if let Some(uri) = uri {
                let key = (c, a20(a), w32(id));
                // A token with a new URI is queued for its metadata (a duplicate of an unwritten
                // batch's entry only fetches it twice).
                if store.get::<EvNftUris>(&key)?.as_deref() != Some(uri.as_str()) {
                    batch.put::<EvNftQueue>(&(c, n, key.1, key.2), &());
                }
                batch.put::<EvNftUris>(&key, uri);
            }
        }
        for (a, balance) in &enr.balances {
            batch.put::<EvNative>(&(c, a20(a), n), &w32(balance));
        }
        for hook in &mut self.hooks {
            hook.block(store, c, block, batch)?;
        }
        let traced = block.txs.iter().all(|tx| tx.internals.is_some());
        self.staged = Some(CursorRow {
            first: self.staged.map_or(n, |c| c.first),
            next: n + 1,
            last_hash: block.hash,
            cumulative_txs: cumulative,
            untraced_from: self
                .staged
                .and_then(|c| c.untraced_from)
                .or((!traced).then_some(n)),
        });
        Ok(())
    }

    fn token(&self, store: &Store, key: &(u64, Addr)) -> Result<Option<TokenRow>, EvmError> {
        Ok(match self.tokens.get(key) {
            Some((v, _)) => v.map(|l| l.0.clone()),
            None => store.get::<EvTokens>(key)?.map(|l| l.0),
        })
    }

    fn token_stored(&self, store: &Store, key: &(u64, Addr)) -> Result<bool, EvmError> {
        Ok(match self.tokens.get(key) {
            Some((_, stored)) => stored,
            None => store.get::<EvTokens>(key)?.is_some(),
        })
    }

    fn apply_tx(
        &mut self,
        store: &Store,
        block: &Block,
        index: u32,
        tx: &Tx,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        let (c, n, ts) = (self.chain, block.number, block.timestamp);
        let hash = tx.hash.0;
        let created = if tx.status == Some(false) {
            None
        } else {
            tx.contract_address
        };
        let row = TxRow {
            hash: tx.hash,
            block: n,
            block_hash: block.hash,
            timestamp: ts,
            index,
            from: tx.from,
            to: tx.to,
            value: tx.value,
            gas_limit: tx.gas,
            gas_used: tx.gas_used,
            effective_gas_price: tx.effective_gas_price,
            gas_price: tx.gas_price,
            max_fee: tx.max_fee,
            max_priority_fee: tx.max_priority_fee,
            nonce: tx.nonce,
            tx_type: u8::try_from(tx.tx_type).unwrap_or(u8::MAX),
            status: tx.status,
            input: tx.input.clone(),
            created,
        };
        batch.put::<EvTxs>(&(c, n, index), &Linear(row));
        batch.put::<EvTxHashes>(&(c, hash), &Linear(TxKey { block: n, index }));
        let mut touched = std::mem::take(&mut self.touched);
        for a in [Some(tx.from), tx.to, created].into_iter().flatten() {
            touched.add(a, Roles::NATIVE);
        }

        let mut parts = TxParts {
            messenger_logs: u32::try_from(tx.messenger_logs.len()).unwrap_or(u32::MAX),
            ..TxParts::default()
        };
        for (emitter, log_index, log) in &tx.transfers {
            let operator = match log {
                TransferLog::Erc1155 { operator, .. } => Some(*operator),
                _ => None,
            };
            for (sub, t) in log.transfers(*emitter, *log_index).into_iter().enumerate() {
                let sub = u32::try_from(sub).unwrap_or(u32::MAX);
                let (kind, value, token_id) = match t.kind {
                    TokenTransferKind::Erc20 { value } => (TransferKind::Erc20, value, U256::ZERO),
                    TokenTransferKind::Erc721 { token_id } => {
                        (TransferKind::Erc721, U256::from(1u8), token_id)
                    }
                    TokenTransferKind::Erc1155 { token_id, value } => {
                        (TransferKind::Erc1155, value, token_id)
                    }
                };
                let moved = TxTransfer {
                    token: *emitter,
                    log_index: *log_index,
                    kind,
                    from: t.from,
                    to: t.to,
                    value,
                    token_id,
                    operator,
                };
                let token = a20(emitter);
                let row = moved.row_in(tx.hash, index, ts, block.hash);
                batch.put::<EvTransfersByToken>(&(c, token, n, *log_index, sub), &Linear(row));
                parts.transfers.push(moved);
                let by_address = Linear(AddressTransfer {
                    token: *emitter,
                    kind,
                });
                for a in [t.from, t.to] {
                    batch.put::<EvTransfersByAddress>(
                        &(c, a20(&a), n, *log_index, sub),
                        &by_address,
                    );
                    touched.add(a, Roles::of_transfer(kind));
                }
                let movement = Movement {
                    kind,
                    token,
                    id: w32(&token_id),
                    from: a20(&t.from),
                    to: a20(&t.to),
                    value,
                };
                self.holdings.apply(store, c, &movement, batch)?;
                if kind == TransferKind::Erc721 {
                    self.move_nft(store, token, w32(&token_id), a20(&t.to))?;
                }
            }
        }

        for (i, f) in tx.internals.iter().flatten().enumerate() {
            let frame = u32::try_from(i).unwrap_or(u32::MAX);
            let row = InternalRow {
                tx_hash: tx.hash,
                block: n,
                timestamp: ts,
                tx_index: index,
                frame,
                depth: f.depth,
                kind: f.kind,
                from: f.from,
                to: f.to,
                value: f.value,
                gas_limit: f.gas_limit,
                gas_used: f.gas_used,
                reverted: f.reverted,
            };
            for a in [Some(f.from), f.to].into_iter().flatten() {
                batch.put::<EvInternalByAddress>(&(c, a20(&a), n, index, frame), &());
                touched.add(a, Roles::INTERNAL);
            }
            parts.internals.push(row);
            let nested_create =
                f.depth > 0 && matches!(f.kind, CallKind::Create | CallKind::Create2);
            if let (true, false, Some(to)) = (nested_create, f.reverted, f.to) {
                self.contract(batch, tx, block, index, frame, to, Some(f.from));
            }
        }
        if !parts.is_empty() {
            batch.put::<EvTxParts>(&(c, n, index), &Linear(parts));
        }
        if let Some(addr) = created {
            self.contract(batch, tx, block, index, 0, addr, None);
        }
        for (a, roles) in touched.sorted() {
            batch
                .put::<EvTxsByAddress>(&(c, *a, n, index), &Linear(AddressTxRow { roles: *roles }));
        }
        touched.0.clear();
        self.touched = touched;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn contract(
        &self,
        batch: &mut WriteBatch,
        tx: &Tx,
        block: &Block,
        tx_index: u32,
        frame: u32,
        addr: Address,
        factory: Option<Address>,
    ) {
        let c = self.chain;
        let row = ContractRow {
            deployer: tx.from,
            deployer_contract: factory,
            tx_hash: tx.hash,
            block: block.number,
            timestamp: block.timestamp,
            tx_index,
            frame,
        };
        batch.put::<EvContracts>(&(c, a20(&addr)), &Linear(row));
        for d in [Some(tx.from), factory].into_iter().flatten() {
            batch.put::<EvContractsByDeployer>(
                &(c, a20(&d), block.number, tx_index, frame),
                &a20(&addr),
            );
        }
    }

    /// Moves an ERC-721 token to `to` (the zero address: burnt, no owner).
    fn move_nft(
        &mut self,
        store: &Store,
        contract: Addr,
        id: Word,
        to: Addr,
    ) -> Result<(), EvmError> {
        let c = self.chain;
        let key = (c, contract, id);
        let (prev, stored) = match self.owners.get(&key) {
            Some((v, stored)) => (v.copied(), stored),
            None => {
                let v = store.get::<EvErc721Owner>(&key)?;
                (v, v.is_some())
            }
        };
        if let Some(prev) = prev {
            let k = (c, prev, contract, id);
            let stored = match self.by_owner.get(&k) {
                Some((_, stored)) => stored,
                None => store.get::<EvErc721ByOwner>(&k)?.is_some(),
            };
            self.by_owner.delete(k, stored);
        }
        if to == [0u8; 20] {
            self.owners.delete(key, stored);
        } else {
            self.owners.put(key, to, stored);
            let k = (c, to, contract, id);
            let stored = match self.by_owner.get(&k) {
                Some((_, stored)) => stored,
                None => store.get::<EvErc721ByOwner>(&k)?.is_some(),
            };
            self.by_owner.put(k, (), stored);
        }
        Ok(())
    }
}

/// The addresses one tx touches, each with the parts it played (an address named several
/// times gets one index entry).
#[derive(Debug, Default)]
struct Touched(Vec<(Addr, Roles)>);

impl Touched {
    fn add(&mut self, a: Address, roles: Roles) {
        self.0.push((a20(&a), roles));
    }

    /// Each address once, in order, with every role it played.
    fn sorted(&mut self) -> &[(Addr, Roles)] {
        let v = &mut self.0;
        v.sort_unstable_by_key(|(a, _)| *a);
        let mut kept = 0;
        for i in 0..v.len() {
            let (a, r) = v[i];
            if kept > 0 && v[kept - 1].0 == a {
                v[kept - 1].1 = v[kept - 1].1.with(r);
            } else {
                v[kept] = (a, r);
                kept += 1;
            }
        }
        v.truncate(kept);
        v
    }
}

impl StagingParts for EvmChain {
    /// The unwritten rows the batch protocol drives together.
    fn parts(&mut self) -> impl Staging + '_ {
        [
            &mut self.owners as &mut dyn Staging,
            &mut self.by_owner,
            &mut self.tokens,
            &mut self.holdings,
        ]
    }

    /// After the rows: the hooks' rows, then the cursor after the batch's blocks.
    fn finish_own(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
        for hook in &mut self.hooks {
            hook.finish(batch, view)?;
        }
        if let Some(cur) = self.staged {
            batch.put::<EvCursor>(&self.chain, &Linear(cur));
        }
        Ok(())
    }

    fn seal_own(&mut self) {
        self.hooks.iter_mut().for_each(|h| h.seal());
        self.tokens_sealed |= std::mem::take(&mut self.tokens_staged);
    }

    /// The written batch's token rows are in the store now: the readers' copies go.
    fn committed_own(&mut self) {
        self.hooks.iter_mut().for_each(|h| h.committed());
        self.written = self.staged;
        if std::mem::take(&mut self.tokens_sealed) {
            self.token_cache.iter().for_each(|c| c.invalidate());
        }
    }

    fn discard_own(&mut self) {
        self.hooks.iter_mut().for_each(|h| h.discard());
        self.staged = self.written;
        // Nothing of them was written; clearing anyway costs only a refill.
        if std::mem::take(&mut self.tokens_sealed) | std::mem::take(&mut self.tokens_staged) {
            self.token_cache.iter().for_each(|c| c.invalidate());
        }
    }
}

/// Derives `blocks` (read and enriched) as one batch: all of them with the cursor, or nothing.
pub fn write_blocks(
    store: &Store,
    chain: &mut EvmChain,
    blocks: &[Block],
    enrichments: &[Enrichment],
) -> Result<(), EvmError> {
    let mut batch = WriteBatch::new();
    for (b, e) in blocks.iter().zip(enrichments) {
        if let Err(err) = chain.apply(store, b, e, &mut batch) {
            drop_batch(chain, &mut batch);
            return Err(err);
        }
    }
    write_batch(store, chain, &mut batch)?;
    Ok(())
}

/// Follows the node `source` serves into `store`: from the cursor to the tip, a batch of whole
/// blocks at a time, then polls for more every `config.poll`. Returns the next block once
/// `config.stop_after` is derived; otherwise runs until an error.
pub async fn sync(
    store: &Store,
    source: &Arc<EvmSource>,
    config: &SyncConfig,
) -> Result<u64, EvmError> {
    let chain_id = source.chain_id().await?;
    let mut chain = EvmChain::open(store, chain_id, config.start)?
        .with_hooks(config.hooks.open(store, chain_id)?)
        .with_token_cache(config.tokens.clone());
    loop {
        let next = chain.next();
        if config.stop_after.is_some_and(|s| next > s) {
            return Ok(next);
        }
        let tip = source.tip().await?;
        let end = config.stop_after.map_or(tip, |s| s.min(tip));
        if let Some(status) = &config.status {
            status.tip(tip);
            status.indexed(next);
            if next > tip {
                status.caught_up();
            }
        }
        if next > end {
            tokio::time::sleep(config.poll).await;
            continue;
        }
        let stream = source.stream(next, end);
        // Far behind the node (a first sync, a node back after a while): compactions wait
        // for more files until this round ends.
        let _backlog = if end - next >= BACKLOG_BLOCKS {
            Some(store.backlog(BACKLOG_TABLES)?)
        } else {
            None
        };
        pipeline(store, source, config, &mut chain, stream).await?;
    }
}

/// Blocks behind the node from which a round of indexing holds the store's backlog mode.
const BACKLOG_BLOCKS: u64 = 1_000;

/// The tables backlog mode is for: those keyed by address, token or hash, whose compactions
/// wrote 93% of a 10M-tx ingest's compaction bytes (docs/benchmarks.md, "The 10M-tx run of
/// keys in chain order"); tables keyed in chain order move down without rewrites anyway.
const BACKLOG_TABLES: &[&str] = &[
    EvTransfersByToken::NAME,
    EvNative::NAME,
    EvTxHashes::NAME,
    EvTxsByAddress::NAME,
    EvHoldingLog::NAME,
    EvTransfersByAddress::NAME,
    EvHoldingHistory::NAME,
    EvHolders::NAME,
    EvInternalByAddress::NAME,
    EvHoldings::NAME,
    EvHoldingSnapshots::NAME,
];

/// How many batches each stage of [`pipeline`] runs ahead of the next.
const AHEAD: usize = 4;

/// Blocks read, parsed and enriched, ready to be written.
type Ready = Result<(Vec<Block>, Vec<Enrichment>), EvmError>;

fn joined<T>(r: Result<T, tokio::task::JoinError>, what: &str) -> Result<T, EvmError> {
    r.map_err(|e| EvmError::Answer(format!("{what} task failed: {e}")))
}

/// Derives the batches `stream` reads, in order, each written whole with the cursor after it
/// by this task alone (the single writer): while one batch is derived and written, the next ones
/// are parsed (each on a thread of its own) and their balances and token calls fetched, up to
/// [`AHEAD`] batches per stage. Planning the calls goes in block order, against the contracts
/// that batches planned but not yet written describe; an address is forgotten once every batch
/// that looked at it is written (the store describes it then). The first error ends the
/// stream: the batches before it are written, none after.
async fn pipeline(
    store: &Store,
    source: &Arc<EvmSource>,
    config: &SyncConfig,
    chain: &mut EvmChain,
    mut stream: mpsc::Receiver<Result<Vec<FetchedBlock>, SourceError>>,
) -> Result<(), EvmError> {
    let chain_id = chain.chain();
    let written = AtomicU64::new(0);
    let written = &written;
    // A hook that starts wanting logs (a webhook given `includeLogs`) gets them from the
    // batches parsed after the next write.
    let wants_logs = AtomicBool::new(chain.wants_logs());
    let wants_logs = &wants_logs;
    let (parsed_tx, mut parsed_rx) =
        mpsc::channel::<JoinHandle<Result<Vec<Block>, EvmError>>>(AHEAD);
    let (ready_tx, mut ready_rx) = mpsc::channel::<JoinHandle<Ready>>(AHEAD);
    let parsing = async move {
        while let Some(fetched) = stream.recv().await {
            // Whether the hooks want logs, as the batches written so far left them.
            let keep_logs = wants_logs.load(Ordering::Acquire);
            let task = match fetched {
                Ok(f) => tokio::spawn(parse_batch(f, keep_logs)),
                Err(e) => tokio::spawn(async move { Err(EvmError::from(e)) }),
            };
            if parsed_tx.send(task).await.is_err() {
                break;
            }
        }
    };
    let planning = async move {
        let mut known = Known::default();
        while let Some(task) = parsed_rx.recv().await {
            known.forget_written(written.load(Ordering::Acquire));
            let planned = joined(task.await, "parsing").and_then(|parsed| {
                let blocks = parsed?;
                let planned = plan(&blocks, &mut known, store, chain_id)?;
                Ok((blocks, planned))
            });
            let ready = match planned {
                Ok((blocks, planned)) => {
                    let source = Arc::clone(source);
                    tokio::spawn(async move { Ok((blocks, planned.fetch(source).await?)) })
                }
                Err(e) => tokio::spawn(async move { Err(e) }),
            };
            if ready_tx.send(ready).await.is_err() {
                break;
            }
        }
    };
    let writing = async move {
        let mut count = 0u64;
        while let Some(task) = ready_rx.recv().await {
            let (blocks, mut enrichments) = joined(task.await, "enrichment")??;
            if blocks.first().is_some_and(|b| b.number == 0) {
                if let Some((origin, funded)) = config.genesis.balances(source, chain_id).await? {
                    // An account block 0 touched has the node's answer already.
                    let known: std::collections::BTreeSet<Address> =
                        enrichments[0].balances.iter().map(|(a, _)| *a).collect();
                    enrichments[0]
                        .balances
                        .extend(funded.into_iter().filter(|(a, _)| !known.contains(a)));
                    chain.set_genesis(origin);
                }
            }
            write_blocks(store, chain, &blocks, &enrichments)?;
            count += 1;
            written.store(count, Ordering::Release);
            wants_logs.store(chain.wants_logs(), Ordering::Release);
            if let Some(status) = &config.status {
                status.indexed(chain.next());
            }
            tracing::debug!(chain = chain_id, next = chain.next(), "EVM blocks derived");
        }
        Ok(())
    };
    let ((), (), result) = tokio::join!(parsing, planning, writing);
    result
}

/// [`sync`] forever (until an error).
pub async fn run(store: &Store, source: &Arc<EvmSource>, poll: Duration) -> Result<(), EvmError> {
    sync(
        store,
        source,
        &SyncConfig {
            poll,
            ..SyncConfig::default()
        },
    )
    .await
    .map(|_| ())
}
