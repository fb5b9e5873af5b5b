//! The streaming generator: vertices with their txs, the stop vertex, then proposervm-wrapped
//! standard blocks, as [`ContainerRecord`]s in acceptance order.

use std::collections::VecDeque;

use snowline_types::Id;
use snowline_types::avm::{ParsedTx, StandardBlock, XGenesisState};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;
use snowline_types::proposervm::{Block, Epoch};
use snowline_types::vertex::Vertex;

use crate::atomic::{self, AtomicUtxo};
use crate::cchain::{CChain, CParams};
use crate::config::DevnetConfig;
use crate::error::DevnetError;
use crate::genesis::XGenesis;
use crate::keys::KeyRing;
use crate::pchain::{PChain, PParams};
use crate::rng::DetRng;
use crate::wallet::{Kind, Wallet};

const NANOS: i64 = 1_000_000_000;
/// Tx bytes per vertex kept well under the 1 MiB vertex limit.
const MAX_VERTEX_TX_BYTES: usize = 900_000;
/// Tx bytes per block kept under the 256 KiB block limit (room for the header and wrapper).
const MAX_BLOCK_TX_BYTES: usize = 240_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Vertex(u32),
    Stop,
    Block(u64),
    Done,
}

/// Counts of what has been generated so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DevnetStats {
    /// Txs (in vertices and blocks).
    pub txs: u64,
    /// Vertices, the stop vertex included.
    pub vertices: u64,
    /// Blocks (in `X/block`; the linear genesis block is not counted).
    pub blocks: u64,
    /// P-Chain txs (reward proposals included).
    pub p_txs: u64,
    /// P-Chain blocks (`P/block`: standard, proposal and option blocks).
    pub p_blocks: u64,
    /// C-Chain blocks (`C/block`, the opening exports included).
    pub c_blocks: u64,
    /// C-Chain atomic txs.
    pub c_txs: u64,
}

/// A deterministic devnet: iterate it for its containers in acceptance order.
pub struct Devnet {
    cfg: DevnetConfig,
    genesis: XGenesis,
    atomic: Vec<AtomicUtxo>,
    wallet: Wallet,
    rng: DetRng,
    phase: Phase,
    out: VecDeque<ContainerRecord>,
    frontier: Vec<(Id, u64)>,
    queue: VecDeque<Kind>,
    linear_genesis: Option<StandardBlock>,
    prev_inner: Id,
    prev_outer: Id,
    cortina_s: i64,
    /// The last X block's time (the linear genesis's before the first block), Unix s.
    x_time_s: i64,
    stats: DevnetStats,
    p: PChain,
    c: CChain,
    /// The last built X block's exports to C (live blocks' are not imported by C).
    pending_to_c: Vec<snowline_types::avm::Utxo>,
    failed: bool,
    /// The index timestamp of the last record returned.
    last_ts: i64,
}

impl Devnet {
    /// Validates `cfg` and prepares the generator; nothing is generated until iterated.
    pub fn generate(cfg: DevnetConfig) -> Result<Self, DevnetError> {
        cfg.validate()?;
        let genesis = XGenesis::local()?;
        let ring = KeyRing::new(cfg.seed, cfg.keys)?;
        let seeded = ring.addrs().get(1..).unwrap_or(&[]).to_vec();
        // Odd indexes of the list are the C-Chain's share, exported (these owners and amounts)
        // by its opening blocks; the P-Chain's share is exported by its opening blocks.
        let c_share: Vec<AtomicUtxo> = atomic::generate(
            cfg.seed,
            cfg.atomic_utxos,
            &genesis.network,
            genesis.avax_asset_id,
            &seeded,
        )
        .into_iter()
        .filter(|a| a.source_chain == genesis.network.c_chain_id)
        .collect();
        let p_exports = cfg.atomic_utxos - u32::try_from(c_share.len()).unwrap_or(0);
        // Nothing waits in X's shared memory at genesis any more.
        let atomic: Vec<AtomicUtxo> = Vec::new();
        let cortina_s = cfg.start_time + i64::from(cfg.dag_vertices) * cfg.vertex_interval_s + 1;
        let x_end_s = cortina_s + i64::from(cfg.blocks) * cfg.block_interval_s;
        let p_end_s = cfg.start_time + i64::from(cfg.p_blocks) * cfg.p_block_interval_s;
        let lock_until = u64::try_from(x_end_s.max(p_end_s) + 365 * 86_400).unwrap_or(u64::MAX);
        let other_supply: u64 = genesis
            .utxos
            .iter()
            .chain(c_share.iter().map(|a| &a.utxo))
            .map(|u| match &u.output {
                snowline_types::avm::Output::Secp256k1Transfer(o) => o.amount,
                _ => 0,
            })
            .sum();
        let mut p = PChain::new(
            PParams {
                seed: cfg.seed,
                start_s: u64::try_from(cfg.start_time).unwrap_or(0),
                blocks: u64::from(cfg.p_blocks),
                txs_per_block: cfg.p_txs_per_block as usize,
                interval_s: u64::try_from(cfg.p_block_interval_s).unwrap_or(1),
                lock_until,
                exports_to_x: p_exports,
                other_supply,
            },
            genesis.network.clone(),
            genesis.avax_asset_id,
            ring.clone(),
            genesis.avm_genesis_bytes(),
        )?;
        let opening: Vec<_> = c_share
            .iter()
            .filter_map(|a| match &a.utxo.output {
                snowline_types::avm::Output::Secp256k1Transfer(o) => {
                    Some((o.owners.clone(), o.amount))
                }
                _ => None,
            })
            .collect();
        let mut c = CChain::new(
            CParams {
                seed: cfg.seed,
                start_s: u64::try_from(cfg.start_time).unwrap_or(0),
                times: c_block_times(
                    cfg.c_blocks,
                    u64::try_from(cfg.start_time).unwrap_or(0),
                    u64::try_from(x_end_s).unwrap_or(0),
                    u64::try_from(p_end_s).unwrap_or(0),
                ),
            },
            genesis.network.clone(),
            genesis.avax_asset_id,
            ring.clone(),
            &opening,
        )?;
        let mut x_atomic = p.take_exports_to_x();
        x_atomic.extend(c.take_opening_exports());
        let high_water = (4 * cfg.txs_per_vertex.max(cfg.txs_per_block) as usize).max(64);
        let wallet = Wallet::new(
            ring,
            DetRng::new(cfg.seed, 0x7761_6c6c),
            genesis.network.clone(),
            genesis.avax_asset_id,
            &genesis.utxos,
            &x_atomic,
            lock_until,
            high_water,
        );
        Ok(Self {
            rng: DetRng::new(cfg.seed, 0x6461_6721),
            cfg,
            genesis,
            atomic,
            wallet,
            phase: Phase::Vertex(0),
            out: VecDeque::new(),
            frontier: Vec::new(),
            queue: Kind::DAG_REQUIRED.into_iter().collect(),
            linear_genesis: None,
            prev_inner: Id::EMPTY,
            prev_outer: Id::EMPTY,
            cortina_s,
            x_time_s: cortina_s,
            stats: DevnetStats::default(),
            p,
            c,
            pending_to_c: Vec::new(),
            failed: false,
            last_ts: i64::MIN,
        })
    }

    /// The config.
    pub fn config(&self) -> &DevnetConfig {
        &self.cfg
    }

    /// The X-Chain genesis (AVAX asset and its UTXOs) and the network facts.
    pub fn genesis(&self) -> &XGenesis {
        &self.genesis
    }

    /// The UTXOs in the X-Chain's shared memory at start, standing in for the P- and C-Chain
    /// ExportTxs that created them; the devnet's ImportTxs spend them.
    pub fn atomic_utxos(&self) -> &[AtomicUtxo] {
        &self.atomic
    }

    /// The devnet's keys (index 0 is the local network's `ewoq` key).
    pub fn keys(&self) -> &KeyRing {
        &self.wallet.ring
    }

    /// What the X-Chain of this devnet starts with, as an X-Chain indexer takes it: its AVAX
    /// `CreateAssetTx` (alias `AVAX`), the linear chain's genesis block once known, and the
    /// synthetic C-Chain exports in its shared memory (the C-Chain is not indexed). The
    /// P-Chain's exports to X are not listed: X's indexers read them from `P/block`, where the
    /// P-Chain's opening blocks make them.
    pub fn x_genesis(&self) -> XGenesisState {
        XGenesisState {
            txs: vec![self.genesis.avax_tx.clone()],
            aliases: vec![("AVAX".to_owned(), self.genesis.avax_asset_id)],
            linear_genesis: self.linear_genesis.clone(),
            atomic_utxos: self
                .atomic
                .iter()
                .map(|a| (a.source_chain, a.utxo.clone()))
                .collect(),
        }
    }

    /// What the P-Chain of this devnet starts with (`docs/devnet.md`): devnet-key UTXOs (some
    /// stakeable-locked), five genesis validators, the X- and C-Chain, the start time and the
    /// initial supply; nothing in its shared memory (the X-Chain's exports to P come later).
    pub fn p_genesis(&self) -> snowline_types::platformvm::PGenesisState {
        let g = &self.p.genesis;
        snowline_types::platformvm::PGenesisState {
            utxos: g.utxos.clone(),
            validators: g.validators.clone(),
            chains: g.chains.clone(),
            timestamp: u64::try_from(self.cfg.start_time).unwrap_or(0),
            initial_supply: g.initial_supply,
            atomic_utxos: Vec::new(),
        }
    }

    /// The P-Chain genesis bytes (`genesis.Genesis` in the genesis codec).
    pub fn p_genesis_bytes(&self) -> &[u8] {
        &self.p.genesis.genesis_bytes
    }

    /// The P-Chain's genesis block (height 0, the parent of the first `P/block`).
    pub fn p_genesis_block(&self) -> snowline_types::platformvm::Block {
        crate::pgenesis::genesis_block(&self.p.genesis.genesis_bytes)
    }

    /// The P-Chain's current supply so far (initial supply plus the potential rewards of
    /// current and committed stakers).
    pub fn p_current_supply(&self) -> u64 {
        self.p.current_supply()
    }

    /// The primary network's validators current at the P-Chain's time so far, with their
    /// staker txs.
    pub(crate) fn p_current_validators(
        &self,
    ) -> Vec<(Id, snowline_types::platformvm::txs::Validator)> {
        self.p.current_validators()
    }

    /// The genesis validators' nodes (staking certificates and BLS keys), which propose the
    /// P-Chain's blocks in turn.
    pub fn p_nodes(&self) -> &[crate::nodes::DevnetNode] {
        self.p.proposer_nodes()
    }

    /// The linear chain's genesis block (`NewStandardBlock(stopVertexID, 0, cortinaTime, nil)`),
    /// known once the stop vertex has been generated. It is not in `X/block`.
    pub fn linear_genesis(&self) -> Option<&StandardBlock> {
        self.linear_genesis.as_ref()
    }

    /// Unix seconds of the linear genesis block (the devnet's Cortina time).
    pub fn cortina_time(&self) -> i64 {
        self.cortina_s
    }

    /// What has been generated so far.
    pub fn stats(&self) -> DevnetStats {
        DevnetStats {
            p_txs: self.p.txs,
            p_blocks: self.p.block_count,
            c_blocks: self.c.counts().0,
            c_txs: self.c.counts().1,
            ..self.stats
        }
    }

    /// nAVAX the generator can still spend (its tracked AVAX UTXOs, those of the container being
    /// built included). Stays near the genesis amount for any run length; a falling total means
    /// the generator is heading for "no spendable UTXO left".
    pub fn spendable_avax(&self) -> u128 {
        let pool = &self.wallet.pool;
        pool.ready
            .avax
            .iter()
            .chain(&pool.pending.avax)
            .map(|c| u128::from(c.amount))
            .sum()
    }

    /// Builds up to `want` txs within `max_bytes`, the era's required kinds first.
    fn build_txs(
        &mut self,
        want: usize,
        max_bytes: usize,
        what: &'static str,
    ) -> Result<Vec<ParsedTx>, DevnetError> {
        let mut txs: Vec<ParsedTx> = Vec::with_capacity(want);
        let mut bytes = 0usize;
        let mut push = |tx: ParsedTx, txs: &mut Vec<ParsedTx>| {
            bytes += tx.bytes.len();
            txs.push(tx);
            bytes < max_bytes
        };
        if self.phase == Phase::Vertex(0) {
            if let Some(tx) = self.wallet.build(Kind::Fund)? {
                push(tx, &mut txs);
            }
        } else {
            let mut room = true;
            for _ in 0..self.queue.len() {
                if txs.len() >= want || !room {
                    break;
                }
                let Some(kind) = self.queue.pop_front() else {
                    break;
                };
                match self.wallet.build(kind)? {
                    Some(tx) => room = push(tx, &mut txs),
                    None => self.queue.push_back(kind),
                }
            }
            while room && txs.len() < want {
                let kind = self.wallet.random_kind();
                let tx = match self.wallet.build(kind)? {
                    Some(tx) => tx,
                    None => match self.wallet.build(Kind::Base)? {
                        Some(tx) => tx,
                        None => break,
                    },
                };
                room = push(tx, &mut txs);
            }
        }
        if txs.is_empty() {
            return Err(DevnetError::OutOfUtxos(what));
        }
        self.stats.txs += txs.len() as u64;
        Ok(txs)
    }

    fn next_vertex(&mut self, k: u32) -> Result<(), DevnetError> {
        let want = self.cfg.txs_per_vertex as usize;
        let txs = self.build_txs(want, MAX_VERTEX_TX_BYTES, "a vertex")?;
        let parents: Vec<(Id, u64)> = if self.frontier.len() >= 3 || self.rng.chance(60) {
            std::mem::take(&mut self.frontier)
        } else {
            let i = self.rng.index(self.frontier.len());
            if i < self.frontier.len() {
                vec![self.frontier.swap_remove(i)]
            } else {
                Vec::new()
            }
        };
        let height = parents.iter().map(|(_, h)| h + 1).max().unwrap_or(0);
        let parent_ids = parents.iter().map(|(id, _)| *id).collect();
        let exports = self.exports_to_p(&txs);
        let to_c = self.exports_to_c(&txs);
        let tx_bytes = txs.into_iter().map(|t| t.bytes).collect();
        let v = Vertex::build(
            self.genesis.network.x_chain_id,
            height,
            parent_ids,
            tx_bytes,
        )?;
        let base = (self.cfg.start_time + i64::from(k) * self.cfg.vertex_interval_s) * NANOS
            + self.jitter(400_000_000);
        let mut ts = base;
        for tx in &v.vertex.txs {
            ts += 1_000_000;
            self.out.push_back(ContainerRecord {
                path: IndexPath::XTx,
                id: Id(sha256(tx)),
                bytes: tx.clone(),
                timestamp_ns: ts,
            });
        }
        self.out.push_back(ContainerRecord {
            path: IndexPath::XVtx,
            id: v.id,
            bytes: v.bytes,
            timestamp_ns: ts + 1_000_000,
        });
        for u in exports {
            self.p.x_exported(ts + 1_000_000, u);
        }
        for u in to_c {
            self.c.x_exported(ts + 1_000_000, &u);
        }
        self.frontier.push((v.id, height));
        self.stats.vertices += 1;
        self.wallet.pool.commit();
        Ok(())
    }

    fn next_stop(&mut self) -> Result<(), DevnetError> {
        let parents = std::mem::take(&mut self.frontier);
        let height = parents.iter().map(|(_, h)| h + 1).max().unwrap_or(0);
        let v = Vertex::build_stop(
            self.genesis.network.x_chain_id,
            height,
            parents.iter().map(|(id, _)| *id).collect(),
        )?;
        let ts = (self.cortina_s - 1) * NANOS + self.jitter(400_000_000);
        self.out.push_back(ContainerRecord {
            path: IndexPath::XVtx,
            id: v.id,
            bytes: v.bytes,
            timestamp_ns: ts,
        });
        self.stats.vertices += 1;
        let genesis = linear_genesis_block(v.id, self.cortina_s);
        let gid = genesis.id();
        self.prev_inner = gid;
        self.prev_outer = gid;
        self.linear_genesis = Some(genesis);
        self.queue = Kind::BLOCK_REQUIRED.into_iter().collect();
        Ok(())
    }

    fn next_block(&mut self, height: u64) -> Result<(), DevnetError> {
        let time_s = self.cortina_s + (height as i64) * self.cfg.block_interval_s;
        let (record, exports) = self.build_block(height, time_s)?;
        let timestamp_ns = time_s * NANOS + 1 + self.jitter(900_000_000);
        let to_c = std::mem::take(&mut self.pending_to_c);
        self.out.push_back(ContainerRecord {
            timestamp_ns,
            ..record
        });
        for u in exports {
            self.p.x_exported(timestamp_ns, u);
        }
        for u in to_c {
            self.c.x_exported(timestamp_ns, &u);
        }
        Ok(())
    }

    /// Builds the standard block at `height` and `time_s` wrapped in its proposervm block, and
    /// advances the chain to it. The record's timestamp is left 0 for the caller to stamp; the
    /// exports to P it returns wait for that stamp.
    fn build_block(
        &mut self,
        height: u64,
        time_s: i64,
    ) -> Result<(ContainerRecord, Vec<snowline_types::platformvm::Utxo>), DevnetError> {
        let want = self.cfg.txs_per_block as usize;
        let txs = self.build_txs(want, MAX_BLOCK_TX_BYTES, "a block")?;
        let exports = self.exports_to_p(&txs);
        self.pending_to_c = self.exports_to_c(&txs);
        let block = StandardBlock {
            parent_id: self.prev_inner,
            height,
            time: u64::try_from(time_s).unwrap_or(0),
            merkle_root: Id::EMPTY,
            txs: txs.into_iter().map(|t| t.tx).collect(),
        };
        let inner = block.bytes();
        let inner_id = Id(sha256(&inner));
        let outer = Block::build_unsigned(
            self.prev_outer,
            time_s,
            1 + height / 16,
            Epoch::default(),
            inner,
        );
        self.prev_inner = inner_id;
        self.prev_outer = outer.id;
        self.x_time_s = time_s;
        self.stats.blocks += 1;
        self.wallet.pool.commit();
        let record = ContainerRecord {
            path: IndexPath::XBlock,
            id: outer.id,
            bytes: outer.bytes,
            timestamp_ns: 0,
        };
        Ok((record, exports))
    }

    /// The outputs `txs` export to the P-Chain, as P-Chain UTXOs (`len(outs) + i` indexes).
    fn exports_to_p(&self, txs: &[ParsedTx]) -> Vec<snowline_types::platformvm::Utxo> {
        let mut out = Vec::new();
        for t in txs {
            let snowline_types::avm::UnsignedTx::Export(e) = &t.tx.unsigned else {
                continue;
            };
            if e.destination_chain != self.genesis.network.p_chain_id {
                continue;
            }
            let base = e.base.outputs.len();
            for (i, o) in e.exported_outputs.iter().enumerate() {
                let snowline_types::avm::TransferableOut::Secp256k1(to) = &o.output;
                out.push(snowline_types::platformvm::Utxo {
                    utxo_id: snowline_types::components::UtxoId::new(
                        t.id,
                        u32::try_from(base + i).unwrap_or(u32::MAX),
                    ),
                    asset_id: o.asset_id,
                    output: snowline_types::platformvm::TransferableOut::Secp256k1(to.clone()),
                });
            }
        }
        out
    }

    /// The UTXOs `txs` export to the C-Chain.
    fn exports_to_c(&self, txs: &[ParsedTx]) -> Vec<snowline_types::avm::Utxo> {
        txs.iter()
            .filter_map(|t| match &t.tx.unsigned {
                snowline_types::avm::UnsignedTx::Export(e)
                    if e.destination_chain == self.genesis.network.c_chain_id =>
                {
                    Some(snowline_types::atomic::x_exported(e, t.id))
                }
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn jitter(&mut self, max: u64) -> i64 {
        i64::try_from(self.rng.below(max)).unwrap_or(0)
    }

    fn step(&mut self) -> Result<(), DevnetError> {
        match self.phase {
            Phase::Vertex(k) => {
                self.next_vertex(k)?;
                self.phase = if k + 1 >= self.cfg.dag_vertices {
                    Phase::Stop
                } else {
                    Phase::Vertex(k + 1)
                };
            }
            Phase::Stop => {
                self.next_stop()?;
                self.phase = if self.cfg.blocks == 0 {
                    Phase::Done
                } else {
                    Phase::Block(1)
                };
            }
            Phase::Block(h) => {
                self.next_block(h)?;
                self.phase = if h >= u64::from(self.cfg.blocks) {
                    Phase::Done
                } else {
                    Phase::Block(h + 1)
                };
            }
            Phase::Done => {}
        }
        Ok(())
    }
}

impl Devnet {
    /// The X block after the last one, for the live continuation: its time follows the
    /// history's schedule (`block_interval_s` per block) but never passes `now_s`, and always
    /// exceeds its parent's. The record is unstamped (timestamp 0); the exports to P it returns
    /// are handed to [`Devnet::x_exported`] once it is.
    pub(crate) fn live_x_block(
        &mut self,
        now_s: i64,
    ) -> Result<(ContainerRecord, Vec<snowline_types::platformvm::Utxo>), DevnetError> {
        let height = self.stats.blocks + 1;
        let scheduled = self.cortina_s + (height as i64) * self.cfg.block_interval_s;
        let time_s = scheduled.min(now_s).max(self.x_time_s + 1);
        self.build_block(height, time_s)
    }

    /// Whether generating the history failed (the iterator returned an error).
    pub(crate) fn has_failed(&self) -> bool {
        self.failed
    }

    /// The index timestamp of the last record the iterator returned.
    pub(crate) fn last_timestamp_ns(&self) -> i64 {
        self.last_ts
    }

    /// The X-Chain's exports to P were accepted at `ts`: they wait in P's shared memory.
    pub(crate) fn x_exported(&mut self, ts: i64, utxos: Vec<snowline_types::platformvm::Utxo>) {
        for u in utxos {
            self.p.x_exported(ts, u);
        }
    }

    /// The P-Chain's next live event (a standard block, or a reward proposal with its option),
    /// unstamped; see `PChain::live_step`.
    pub(crate) fn live_p_step(&mut self, now_s: u64) -> Result<Vec<ContainerRecord>, DevnetError> {
        self.p.live_step(now_s)
    }
}

impl Devnet {
    /// The next X record's timestamp, generating X containers as needed.
    fn x_front(&mut self) -> Result<Option<i64>, DevnetError> {
        while self.out.is_empty() && self.phase != Phase::Done {
            self.step()?;
        }
        Ok(self.out.front().map(|r| r.timestamp_ns))
    }

    /// The next record of the merged stream: X, P and C records by timestamp (ties go to X,
    /// then P, the later ones moving 1 ns on, so timestamps strictly increase). Exports between
    /// P and C are handed over as their records go out.
    fn next_merged(&mut self) -> Result<Option<ContainerRecord>, DevnetError> {
        let x = self.x_front()?;
        loop {
            let p = self.p.peek_ts();
            let c = self.c.peek_ts();
            if let (Some(pt), Some(ct)) = (p.or(x), c) {
                if ct == pt || Some(ct) == x {
                    self.c.bump();
                    continue;
                }
            }
            if let (Some(xt), Some(pt)) = (x, p) {
                if pt == xt {
                    self.p.bump();
                    continue;
                }
            }
            let first = [x, p, c].into_iter().flatten().min();
            return match first {
                None => Ok(None),
                Some(t) if Some(t) == x => Ok(self.out.pop_front()),
                Some(t) if Some(t) == p => {
                    let r = self.p.next_record()?;
                    if let Some(r) = &r {
                        for u in self.p.take_exports_to_c(r.timestamp_ns) {
                            self.c.p_exported(r.timestamp_ns, &u);
                        }
                    }
                    Ok(r)
                }
                Some(_) => self.next_c(),
            };
        }
    }

    /// The next C record; its exports join X's and P's shared memory.
    fn next_c(&mut self) -> Result<Option<ContainerRecord>, DevnetError> {
        let Some((record, made)) = self.c.next_record()? else {
            return Ok(None);
        };
        let net = &self.genesis.network;
        for (dest, u) in made {
            if dest == net.x_chain_id {
                self.wallet.c_exported(AtomicUtxo {
                    source_chain: net.c_chain_id,
                    utxo: snowline_types::atomic::from_c(&u),
                });
            } else if dest == net.p_chain_id {
                self.p
                    .c_exported(record.timestamp_ns, snowline_types::atomic::from_c(&u));
            }
        }
        Ok(Some(record))
    }
}

impl Iterator for Devnet {
    type Item = Result<ContainerRecord, DevnetError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_merged() {
            Ok(r) => {
                if let Some(r) = &r {
                    self.last_ts = r.timestamp_ns;
                }
                r.map(Ok)
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// The C-Chain's block times after its opening blocks: `n / 2` spread evenly over the X-Chain's
/// era (after the start, up to `x_end_s`), the rest over the P-Chain's (up to `p_end_s`).
pub fn c_block_times(n: u32, start_s: u64, x_end_s: u64, p_end_s: u64) -> Vec<u64> {
    let first = u64::from(n / 2);
    let second = u64::from(n) - first;
    let mut out = Vec::with_capacity(n as usize);
    let x_span = x_end_s.saturating_sub(start_s);
    for i in 1..=first {
        out.push(start_s + x_span * i / (first + 1) + 1);
    }
    let p_end = p_end_s.max(x_end_s + second);
    let p_span = p_end - x_end_s;
    for i in 1..=second {
        out.push(x_end_s + p_span * i / (second + 1) + 1);
    }
    out.dedup();
    out
}

/// The X-Chain's first linear block, as `initializeChainState` builds it: parent the stop vertex,
/// height 0, the Cortina time, no txs.
pub fn linear_genesis_block(stop_vertex_id: Id, cortina_time_s: i64) -> StandardBlock {
    StandardBlock {
        parent_id: stop_vertex_id,
        height: 0,
        time: u64::try_from(cortina_time_s).unwrap_or(0),
        merkle_root: Id::EMPTY,
        txs: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::c_block_times;

    #[test]
    fn c_blocks_split_between_the_x_and_p_eras() {
        let t = c_block_times(4, 100, 200, 1_000);
        assert_eq!(t.len(), 4);
        assert!(t.windows(2).all(|w| w[0] < w[1]), "{t:?}");
        assert!(t[..2].iter().all(|s| *s > 100 && *s <= 200), "{t:?}");
        assert!(t[2..].iter().all(|s| *s > 200 && *s <= 1_000), "{t:?}");
        assert!(c_block_times(0, 1, 2, 3).is_empty());
    }
}
