//! Backlog mode: while a writer replays a long backlog (an EVM follower far behind its node, a
//! replica far behind its stream), level-0 compactions wait for twice as many files, so each one
//! merges more flushes at once and the same rows are rewritten less often. Reads meanwhile
//! consult up to twice the level-0 files; the mode ends with the backlog
//! (`docs/store.md`, "Backlog mode").

use crate::error::{Result, StoreError, rocks};
use crate::store::{Mode, Store, cf};

/// Level-0 files that trigger a compaction while a backlog is replayed (the configured trigger
/// when it is higher): measured on a 2M-tx EVM ingest, 16% less CPU and 28% fewer compaction
/// bytes than 4 (docs/benchmarks.md, "Keys in chain order").
pub const BACKLOG_LEVEL0_TRIGGER: i32 = 8;

/// A writer's hold on backlog mode ([`Store::backlog`]): the mode lasts while any hold does.
#[must_use = "backlog mode ends when the hold is dropped"]
#[derive(Debug)]
pub struct Backlog<'a> {
    store: &'a Store,
}

impl Store {
    /// Enters backlog mode until the returned hold is dropped; holds from several writers
    /// nest, and the mode ends with the last one.
    pub fn backlog(&self) -> Result<Backlog<'_>> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let mut holds = self.backlogs.lock().map_err(|_| poisoned())?;
        if *holds == 0 {
            self.set_level0_trigger(BACKLOG_LEVEL0_TRIGGER.max(self.level0_trigger))?;
        }
        *holds += 1;
        Ok(Backlog { store: self })
    }

    /// Whether some writer holds backlog mode now.
    pub fn in_backlog(&self) -> bool {
        self.backlogs.lock().is_ok_and(|holds| *holds > 0)
    }

    /// Sets every table's level-0 compaction trigger; RocksDB schedules what the new value
    /// calls for at once.
    fn set_level0_trigger(&self, files: i32) -> Result<()> {
        let value = files.to_string();
        for t in self.schema().tables() {
            let h = cf(&self.db, t.name)?;
            self.db
                .set_options_cf(h, &[("level0_file_num_compaction_trigger", &value)])
                .map_err(rocks)?;
        }
        Ok(())
    }
}

impl Drop for Backlog<'_> {
    fn drop(&mut self) {
        let store = self.store;
        let Ok(mut holds) = store.backlogs.lock() else {
            return;
        };
        *holds = holds.saturating_sub(1);
        if *holds == 0 {
            // RocksDB refuses only an unknown option or value here, which the constant rules
            // out; were it to, reads would consult more level-0 files until the next open.
            drop(store.set_level0_trigger(store.level0_trigger));
        }
    }
}

fn poisoned() -> StoreError {
    StoreError::Rocks("backlog lock poisoned".to_owned())
}
