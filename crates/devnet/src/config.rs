//! What to generate: seed, key count, DAG and linear-era sizes, times.

/// Parameters of a devnet. The output is a pure function of these values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DevnetConfig {
    /// Seeds keys, amounts, recipients, DAG shape and time jitter.
    pub seed: u64,
    /// Number of seeded secp256k1 keys holding funds (besides the local network's `ewoq` key).
    pub keys: u32,
    /// Vertices of the DAG era (before the stop vertex); the first holds one tx.
    pub dag_vertices: u32,
    /// Txs per vertex (1–128; fewer when too few UTXOs are spendable).
    pub txs_per_vertex: u32,
    /// Linear-era blocks after the stop vertex.
    pub blocks: u32,
    /// Txs per block (at least 1; fewer when too few UTXOs are spendable).
    pub txs_per_block: u32,
    /// Acceptance time of the first vertex, Unix seconds.
    pub start_time: i64,
    /// Seconds between vertices.
    pub vertex_interval_s: i64,
    /// Seconds between blocks.
    pub block_interval_s: i64,
    /// Atomic UTXOs waiting for the X-Chain's ImportTxs: half (rounded up) exported by the
    /// P-Chain's opening blocks, half synthetic C-Chain exports.
    pub atomic_utxos: u32,
    /// P-Chain standard blocks after the opening export blocks (reward proposals and their
    /// options come on top).
    pub p_blocks: u32,
    /// Txs per P-Chain standard block (1–1024, and ≤ 200 kB of txs).
    pub p_txs_per_block: u32,
    /// Seconds between P-Chain standard blocks.
    pub p_block_interval_s: i64,
    /// C-Chain blocks after the opening exports (atomic txs only): half over the X-Chain's era,
    /// half over the P-Chain's.
    pub c_blocks: u32,
}

impl DevnetConfig {
    /// The demo and test preset: 24 keys, 14 vertices of 8 txs, 30 blocks of 5 txs (about 250
    /// X txs), 16 atomic UTXOs; a P-Chain of 36 hourly blocks of 4 txs plus reward proposals. Starts 2024-07-15T04:00:00Z, the local genesis `startTime`.
    pub fn small() -> Self {
        Self {
            seed: 1,
            keys: 24,
            dag_vertices: 14,
            txs_per_vertex: 8,
            blocks: 30,
            txs_per_block: 5,
            start_time: 1_721_016_000,
            vertex_interval_s: 3,
            block_interval_s: 2,
            atomic_utxos: 16,
            p_blocks: 36,
            p_txs_per_block: 4,
            p_block_interval_s: 3_600,
            c_blocks: 16,
        }
    }

    /// A benchmark preset of about `n_txs` txs: a tenth in the DAG era (vertices of 32 txs), the
    /// rest in blocks of 64 txs, with a thousand keys; plus a P-Chain of about `n_txs / 5` txs
    /// (blocks of 32 txs, one to 60 minutes apart so the run spans at least two days).
    pub fn large(n_txs: u64) -> Self {
        let dag_txs = n_txs / 10;
        let p_blocks = (n_txs / 5).div_ceil(32).max(1);
        let block_txs = n_txs.saturating_sub(dag_txs);
        Self {
            seed: 1,
            keys: 1000,
            dag_vertices: u32::try_from(dag_txs.div_ceil(32).max(2)).unwrap_or(u32::MAX),
            txs_per_vertex: 32,
            blocks: u32::try_from(block_txs.div_ceil(64).max(1)).unwrap_or(u32::MAX),
            txs_per_block: 64,
            start_time: 1_721_016_000,
            vertex_interval_s: 1,
            block_interval_s: 1,
            atomic_utxos: u32::try_from((n_txs / 100).clamp(16, 100_000)).unwrap_or(16),
            p_blocks: u32::try_from(p_blocks).unwrap_or(u32::MAX),
            p_txs_per_block: 32,
            // At least two days of P-Chain time, so 24-hour stakers end during the run.
            p_block_interval_s: i64::try_from((172_800 / p_blocks).clamp(60, 3_600)).unwrap_or(60),
            c_blocks: u32::try_from((p_blocks / 2).max(16)).unwrap_or(16),
        }
    }

    /// The small preset when `n_txs` is 0, else [`DevnetConfig::large`] of `n_txs` (what the
    /// binaries' `--devnet-txs` names). The presets have different P-Chain geneses.
    pub fn sized(n_txs: u64) -> Self {
        if n_txs == 0 {
            Self::small()
        } else {
            Self::large(n_txs)
        }
    }

    /// The same config with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Why this config cannot be generated, if it cannot.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.keys < 3 {
            return Err(ConfigError::TooFewKeys(self.keys));
        }
        if self.dag_vertices < 2 {
            return Err(ConfigError::TooFewVertices(self.dag_vertices));
        }
        if self.txs_per_vertex == 0 || self.txs_per_vertex > 128 {
            return Err(ConfigError::TxsPerVertex(self.txs_per_vertex));
        }
        if self.txs_per_block == 0 || self.txs_per_block > 1024 {
            return Err(ConfigError::TxsPerBlock(self.txs_per_block));
        }
        if self.p_txs_per_block == 0 || self.p_txs_per_block > 1024 {
            return Err(ConfigError::TxsPerBlock(self.p_txs_per_block));
        }
        if self.vertex_interval_s < 1 || self.block_interval_s < 1 || self.p_block_interval_s < 1 {
            return Err(ConfigError::Interval);
        }
        let end = i128::from(self.start_time)
            + i128::from(self.dag_vertices) * i128::from(self.vertex_interval_s)
            + i128::from(self.blocks) * i128::from(self.block_interval_s)
            + i128::from(self.p_blocks) * i128::from(self.p_block_interval_s)
            + 2 * 365 * 86_400;
        if self.start_time < 0 || end * 1_000_000_000 > i128::from(i64::MAX) {
            return Err(ConfigError::TimeRange);
        }
        Ok(())
    }
}

impl Default for DevnetConfig {
    fn default() -> Self {
        Self::small()
    }
}

/// Why a [`DevnetConfig`] was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Multisig outputs need three distinct keys.
    #[error("keys must be at least 3, got {0}")]
    TooFewKeys(u32),
    /// The DAG era needs a funding vertex and at least one more.
    #[error("dag_vertices must be at least 2, got {0}")]
    TooFewVertices(u32),
    /// avalanchego's vertex limit is 128 txs.
    #[error("txs_per_vertex must be in 1..=128, got {0}")]
    TxsPerVertex(u32),
    /// Blocks must hold at least one tx; more than 1024 would exceed the block size limit.
    #[error("txs_per_block and p_txs_per_block must be in 1..=1024, got {0}")]
    TxsPerBlock(u32),
    /// Intervals are whole seconds, at least one.
    #[error("vertex_interval_s, block_interval_s and p_block_interval_s must be at least 1")]
    Interval,
    /// Timestamps must fit i64 nanoseconds.
    #[error("start_time and the run's length must fit in i64 nanoseconds after 1970")]
    TimeRange,
}
