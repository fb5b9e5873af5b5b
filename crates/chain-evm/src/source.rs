//! Reading accepted blocks from an EVM node's JSON-RPC: each block with its full txs, its
//! receipts and its call traces, many blocks per JSON-RPC batch and several batches in flight,
//! retried with backoff. On Avalanche `latest` is final, so every block up to the tip is read
//! once.
//!
//! Nodes differ in what they serve: `eth_getBlockReceipts` (else one
//! `eth_getTransactionReceipt` per tx) and `debug_traceBlockByNumber` with `callTracer` (else
//! `debug_traceTransaction` per tx, else no traces at all). [`EvmSource::capabilities`] learns
//! which once; the answers stay raw JSON text here, parsed by the deriver.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use snowline_jsonrpc_client::{ClientError, RawResult, RpcClient};
use tokio::sync::mpsc;

/// How an [`EvmSource`] batches, pipelines and retries.
#[derive(Debug, Clone)]
pub struct SourceConfig {
    /// Blocks per JSON-RPC batch (each block is up to three calls, more with per-tx fallbacks).
    pub blocks_per_batch: usize,
    /// Batches in flight at once.
    pub in_flight: usize,
    /// First pause after a failed batch; doubled after each further failure.
    pub retry_initial: Duration,
    /// Longest pause between retries.
    pub retry_max: Duration,
    /// Attempts of one batch before giving up.
    pub max_attempts: u32,
    /// Timeout of one batch (tracing a full block can take seconds).
    pub call_timeout: Duration,
}

impl Default for SourceConfig {
    fn default() -> Self {
        Self {
            blocks_per_batch: 8,
            in_flight: 4,
            retry_initial: Duration::from_millis(200),
            retry_max: Duration::from_secs(10),
            max_attempts: 8,
            call_timeout: Duration::from_secs(120),
        }
    }
}

/// Why reading from the node failed.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A call kept failing after every retry.
    #[error("{what}: {source} (after {attempts} attempts)")]
    Call {
        /// The calls that failed.
        what: String,
        /// The last failure.
        source: ClientError,
        /// Attempts made.
        attempts: u32,
    },
    /// The node answered something that is not what was asked.
    #[error("{0}")]
    Answer(String),
    /// The URL is not usable.
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// How a node serves call traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tracing {
    /// `debug_traceBlockByNumber` with `callTracer`: one call per block.
    Block,
    /// `debug_traceTransaction` with `callTracer`: one call per tx.
    PerTx,
    /// No tracing: internal transactions cannot be known.
    None,
}

/// What a node serves beyond the standard methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// `eth_getBlockReceipts` exists (else one receipt call per tx).
    pub block_receipts: bool,
    /// How call traces are read.
    pub tracing: Tracing,
}

/// Answers fetched one per block or one per tx.
#[derive(Debug, Clone)]
pub enum PerBlock {
    /// One answer for the whole block (an array).
    Block(RawResult),
    /// One answer per tx, in tx order.
    PerTx(Vec<RawResult>),
}

/// One block as the node serves it, still raw JSON.
#[derive(Debug, Clone)]
pub struct FetchedBlock {
    /// The block number.
    pub number: u64,
    /// `eth_getBlockByNumber(number, true)`.
    pub block: RawResult,
    /// The receipts.
    pub receipts: PerBlock,
    /// The `callTracer` traces, when the node traces.
    pub traces: Option<PerBlock>,
}

/// The tx hashes of a block, for the per-tx fallbacks.
#[derive(Deserialize)]
struct TxHashes {
    #[serde(default)]
    transactions: Vec<TxHash>,
}

#[derive(Deserialize)]
struct TxHash {
    hash: String,
}

/// A reader of one EVM node.
#[derive(Debug)]
pub struct EvmSource {
    client: RpcClient,
    config: SourceConfig,
    caps: OnceLock<Capabilities>,
}

/// The `callTracer` options every trace call passes.
fn tracer() -> Value {
    json!({"tracer": "callTracer"})
}

fn hex(n: u64) -> String {
    format!("{n:#x}")
}

/// Whether an error says the method does not exist (geth: -32601 "the method X does not
/// exist/is not available"; others word it differently), as opposed to a failure of a call
/// the node does serve.
fn method_missing(e: &ClientError) -> bool {
    match e {
        ClientError::Rpc { code, message, .. } => {
            let m = message.to_ascii_lowercase();
            *code == -32601
                || m.contains("method not found")
                || m.contains("does not exist")
                || m.contains("not available")
                || m.contains("not supported")
        }
        _ => false,
    }
}

/// Reads a `0x` quantity.
fn quantity(raw: &RawResult, what: &str) -> Result<u64, SourceError> {
    let text: String = serde_json::from_str(raw.json())
        .map_err(|e| SourceError::Answer(format!("{what}: {e}: {}", raw.json())))?;
    text.strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| SourceError::Answer(format!("{what}: not a quantity: {text}")))
}

impl EvmSource {
    /// A reader of the node at `url` (`http://host:port/ext/bc/C/rpc`, an anvil, ...).
    pub fn new(url: &str, config: SourceConfig) -> Result<Self, SourceError> {
        let client = RpcClient::new(url)?.with_timeout(config.call_timeout);
        Ok(Self {
            client,
            config,
            caps: OnceLock::new(),
        })
    }

    /// The node's chain id (`eth_chainId`).
    pub async fn chain_id(&self) -> Result<u64, SourceError> {
        let raw = self
            .retry("eth_chainId", || {
                self.client.call_raw("eth_chainId", json!([]))
            })
            .await?;
        quantity(&raw, "eth_chainId")
    }

    /// The number of the node's last accepted block (`eth_blockNumber`).
    pub async fn tip(&self) -> Result<u64, SourceError> {
        let raw = self
            .retry("eth_blockNumber", || {
                self.client.call_raw("eth_blockNumber", json!([]))
            })
            .await?;
        quantity(&raw, "eth_blockNumber")
    }

    /// What the node serves, asked once (at block 0: a missing method fails the same way at
    /// any block, and a node that does serve it may refuse the genesis, which still says so).
    pub async fn capabilities(&self) -> Result<Capabilities, SourceError> {
        if let Some(c) = self.caps.get() {
            return Ok(*c);
        }
        let served = |method: &'static str, params: Value| async move {
            self.retry(method, || async {
                match self.client.call_raw(method, params.clone()).await {
                    Ok(_) => Ok(true),
                    Err(e) if method_missing(&e) => Ok(false),
                    Err(e @ ClientError::Rpc { .. }) => {
                        tracing::debug!(method, error = %e, "probe answered with an error: served");
                        Ok(true)
                    }
                    Err(e) => Err(e),
                }
            })
            .await
        };
        let block_receipts = served("eth_getBlockReceipts", json!([hex(0)])).await?;
        let tracing = if served("debug_traceBlockByNumber", json!([hex(0), tracer()])).await? {
            Tracing::Block
        } else if served(
            "debug_traceTransaction",
            json!([format!("0x{}", "00".repeat(32)), tracer()]),
        )
        .await?
        {
            Tracing::PerTx
        } else {
            Tracing::None
        };
        let caps = Capabilities {
            block_receipts,
            tracing,
        };
        tracing::info!(?caps, "EVM node capabilities");
        Ok(*self.caps.get_or_init(|| caps))
    }

    /// Blocks `from..from + count`, in order, each complete (one batch, retried as a whole).
    pub async fn fetch(&self, from: u64, count: usize) -> Result<Vec<FetchedBlock>, SourceError> {
        let caps = self.capabilities().await?;
        let what = format!("blocks {from}..{}", from.saturating_add(count as u64));
        let numbers: Vec<u64> = (from..).take(count).collect();
        let mut calls: Vec<(&str, Value)> = Vec::with_capacity(count * 3);
        for n in &numbers {
            calls.push(("eth_getBlockByNumber", json!([hex(*n), true])));
            if caps.block_receipts {
                calls.push(("eth_getBlockReceipts", json!([hex(*n)])));
            }
            // Genesis holds no txs, and geth refuses to trace it.
            if caps.tracing == Tracing::Block && *n > 0 {
                calls.push(("debug_traceBlockByNumber", json!([hex(*n), tracer()])));
            }
        }
        let answers = self.batch(&what, &calls).await?;
        let mut out = Vec::with_capacity(count);
        let mut answers = answers.into_iter();
        for n in numbers {
            let mut next = || {
                answers
                    .next()
                    .ok_or_else(|| SourceError::Answer(format!("{what}: short batch")))
            };
            let block = next()?;
            if block.json() == "null" {
                return Err(SourceError::Answer(format!("block {n} is not on the node")));
            }
            let receipts = if caps.block_receipts {
                Some(PerBlock::Block(next()?))
            } else {
                None
            };
            let traces = match caps.tracing {
                Tracing::Block if n > 0 => Some(PerBlock::Block(next()?)),
                Tracing::Block => Some(PerBlock::PerTx(Vec::new())),
                _ => None,
            };
            out.push((n, block, receipts, traces));
        }
        let needs_per_tx = !caps.block_receipts || caps.tracing == Tracing::PerTx;
        let mut fetched = Vec::with_capacity(out.len());
        for (number, block, receipts, traces) in out {
            let (receipts, traces) = if needs_per_tx {
                self.per_tx(number, &block, caps, receipts, traces).await?
            } else {
                (receipts, traces)
            };
            let receipts = receipts
                .ok_or_else(|| SourceError::Answer(format!("block {number}: no receipts")))?;
            fetched.push(FetchedBlock {
                number,
                block,
                receipts,
                traces,
            });
        }
        Ok(fetched)
    }

    /// The per-tx receipts and/or traces of one block, for a node without the block methods.
    async fn per_tx(
        &self,
        number: u64,
        block: &RawResult,
        caps: Capabilities,
        receipts: Option<PerBlock>,
        traces: Option<PerBlock>,
    ) -> Result<(Option<PerBlock>, Option<PerBlock>), SourceError> {
        let hashes: TxHashes = serde_json::from_str(block.json())
            .map_err(|e| SourceError::Answer(format!("block {number}: {e}")))?;
        let mut calls: Vec<(&str, Value)> = Vec::new();
        if !caps.block_receipts {
            calls.extend(
                hashes
                    .transactions
                    .iter()
                    .map(|t| ("eth_getTransactionReceipt", json!([t.hash]))),
            );
        }
        if caps.tracing == Tracing::PerTx {
            calls.extend(
                hashes
                    .transactions
                    .iter()
                    .map(|t| ("debug_traceTransaction", json!([t.hash, tracer()]))),
            );
        }
        let mut answers = self.batch(&format!("block {number}'s txs"), &calls).await?;
        let n = hashes.transactions.len();
        let traces = if caps.tracing == Tracing::PerTx {
            Some(PerBlock::PerTx(answers.split_off(answers.len() - n)))
        } else {
            traces
        };
        let receipts = if caps.block_receipts {
            receipts
        } else {
            Some(PerBlock::PerTx(answers))
        };
        Ok((receipts, traces))
    }

    /// Runs `calls` as one batch until every call succeeds, or the attempts run out.
    async fn batch(
        &self,
        what: &str,
        calls: &[(&str, Value)],
    ) -> Result<Vec<RawResult>, SourceError> {
        self.retry(what, || async {
            self.client
                .call_batch(calls)
                .await?
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
        })
        .await
    }

    /// Runs `calls` as one batch until the node answers each call, retried as a whole; an
    /// answer may be a JSON-RPC error (an `eth_call` that reverts), kept as such.
    pub async fn calls(
        &self,
        what: &str,
        calls: &[(&str, Value)],
    ) -> Result<Vec<Result<RawResult, ClientError>>, SourceError> {
        self.retry(what, || async {
            let mut answers = self.client.call_batch(calls).await?;
            let failed = answers
                .iter()
                .position(|a| matches!(a, Err(e) if !matches!(e, ClientError::Rpc { .. })));
            if let Some(Err(e)) = failed.map(|i| answers.swap_remove(i)) {
                return Err(e);
            }
            Ok(answers)
        })
        .await
    }

    /// Runs `call` until it succeeds, pausing with doubling backoff after each failure.
    async fn retry<T, F, Fut>(&self, what: &str, call: F) -> Result<T, SourceError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, ClientError>>,
    {
        let mut pause = self.config.retry_initial;
        let mut attempt = 1;
        loop {
            match call().await {
                Ok(v) => return Ok(v),
                Err(e) if attempt >= self.config.max_attempts.max(1) => {
                    return Err(SourceError::Call {
                        what: what.to_owned(),
                        source: e,
                        attempts: attempt,
                    });
                }
                Err(e) => {
                    tracing::warn!(what, attempt, error = %e, "EVM node call failed; retrying");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(self.config.retry_max);
                    attempt += 1;
                }
            }
        }
    }

    /// Blocks `from..=to` in order, `blocks_per_batch` at a time with `in_flight` batches
    /// fetched ahead, into a channel that holds at most `in_flight` batches (so a slow reader
    /// holds the fetching back). The first error ends the stream.
    pub fn stream(
        self: &Arc<Self>,
        from: u64,
        to: u64,
    ) -> mpsc::Receiver<Result<Vec<FetchedBlock>, SourceError>> {
        let depth = self.config.in_flight.max(1);
        let (tx, rx) = mpsc::channel(depth);
        let me = Arc::clone(self);
        tokio::spawn(async move {
            let size = me.config.blocks_per_batch.max(1) as u64;
            let mut next = from;
            let mut ahead = VecDeque::new();
            loop {
                while ahead.len() < depth && next <= to {
                    let count = (to - next + 1).min(size);
                    let me = Arc::clone(&me);
                    let start = next;
                    ahead.push_back(tokio::spawn(async move {
                        me.fetch(start, count as usize).await
                    }));
                    next += count;
                }
                let Some(front) = ahead.pop_front() else {
                    break;
                };
                let batch = match front.await {
                    Ok(r) => r,
                    Err(e) => Err(SourceError::Answer(format!("fetch task failed: {e}"))),
                };
                let failed = batch.is_err();
                if tx.send(batch).await.is_err() || failed {
                    break;
                }
            }
            for task in ahead {
                task.abort();
            }
        });
        rx
    }
}
