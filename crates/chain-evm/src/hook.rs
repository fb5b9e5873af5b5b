//! [`BlockHook`]: what another room derives from each EVM block (the metrics' hourly buckets),
//! staged into the same batch as the block's own rows and written with the cursor after them,
//! so a crash leaves both rooms at the same block. [`BlockHooks`] makes a chain's hooks when
//! its deriver opens.

use std::fmt;
use std::sync::Arc;

use snowline_derive::Staging;
use snowline_store::{Store, WriteBatch};

use crate::error::EvmError;
use crate::parse::Block;

/// A deriver of rows from EVM blocks riding on [`EvmChain`](crate::EvmChain)'s batches. It sees
/// every block once, in order, after the block's own rows are staged; the batch protocol
/// ([`Staging`]) tells it when the batch is finished, written or dropped.
pub trait BlockHook: Staging + Send + fmt::Debug {
    /// Stages what `block` of chain `chain` adds into `batch`. An error drops the whole batch.
    fn block(
        &mut self,
        store: &Store,
        chain: u64,
        block: &Block,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError>;

    /// Whether the next blocks should be read with every tx's logs
    /// ([`Tx::logs`](crate::parse::Tx::logs)); asked before each batch is read.
    fn wants_logs(&self) -> bool {
        false
    }
}

/// Opens one chain's hook from where `store` stands.
type Factory = dyn Fn(&Store, u64) -> Result<Box<dyn BlockHook>, EvmError> + Send + Sync;

/// The hooks every followed chain gets (none by default).
#[derive(Clone, Default)]
pub struct BlockHooks(Vec<Arc<Factory>>);

impl BlockHooks {
    /// No hooks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a hook, opened per chain by `open(store, chain)`.
    pub fn with(
        mut self,
        open: impl Fn(&Store, u64) -> Result<Box<dyn BlockHook>, EvmError> + Send + Sync + 'static,
    ) -> Self {
        self.0.push(Arc::new(open));
        self
    }

    /// These hooks, then `other`'s.
    pub fn and(mut self, other: BlockHooks) -> Self {
        self.0.extend(other.0);
        self
    }

    /// Opens every hook for `chain`.
    pub fn open(&self, store: &Store, chain: u64) -> Result<Vec<Box<dyn BlockHook>>, EvmError> {
        self.0.iter().map(|open| open(store, chain)).collect()
    }
}

impl fmt::Debug for BlockHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BlockHooks({})", self.0.len())
    }
}
