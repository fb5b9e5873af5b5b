//! Backlog mode: while a writer replays a long backlog (an EVM follower far behind its node),
//! the level-0 compactions of the tables it writes most wait for twice as many files, so each
//! one merges more flushes at once and the same rows are rewritten less often. Reads of those
//! tables meanwhile consult up to twice the level-0 files; the mode ends with the backlog
//! (`docs/store.md`, "Backlog mode").

use std::collections::HashMap;

use crate::error::{Result, StoreError, rocks};
use crate::store::{Mode, Store, cf};

/// Level-0 files that trigger a compaction while a backlog is replayed (the configured trigger
/// when it is higher): on a 2M-tx EVM ingest, 44% fewer compaction bytes and 8% less CPU than 4
/// (docs/benchmarks.md, "Backlog mode").
pub const BACKLOG_LEVEL0_TRIGGER: i32 = 8;

/// A writer's hold on backlog mode for some tables ([`Store::backlog`]): a table stays in the
/// mode while any hold names it.
#[must_use = "backlog mode ends when the hold is dropped"]
#[derive(Debug)]
pub struct Backlog<'a> {
    store: &'a Store,
    tables: Vec<&'static str>,
}

impl Store {
    /// Puts `tables` in backlog mode until the returned hold is dropped. Holds nest per table.
    /// Each change of a table's trigger makes RocksDB rewrite its OPTIONS file (every table's
    /// options, about 6 KB a table), so name the few tables a backlog writes most, and hold the
    /// mode for a whole backlog, not per batch. Tables the schema lacks are refused.
    pub fn backlog(&self, tables: &[&'static str]) -> Result<Backlog<'_>> {
        if self.mode() != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        if let Some(t) = tables.iter().find(|t| !self.schema().contains(t)) {
            return Err(StoreError::UnknownTable((*t).to_owned()));
        }
        let mut holds = self.backlogs.lock().map_err(|_| poisoned())?;
        let trigger = BACKLOG_LEVEL0_TRIGGER.max(self.level0_trigger);
        let mut held = Vec::with_capacity(tables.len());
        for &t in tables {
            let n = holds.entry(t).or_insert(0);
            if *n == 0 {
                if let Err(e) = self.set_level0_trigger(t, trigger) {
                    // Undo this hold's part, so a failed enter leaves nothing held.
                    release(self, &mut holds, &held);
                    return Err(e);
                }
            }
            *n += 1;
            held.push(t);
        }
        Ok(Backlog {
            store: self,
            tables: held,
        })
    }

    /// Whether some hold has `table` in backlog mode now.
    pub fn in_backlog(&self, table: &str) -> bool {
        self.backlogs
            .lock()
            .is_ok_and(|holds| holds.get(table).is_some_and(|n| *n > 0))
    }

    /// Sets `table`'s level-0 compaction trigger; RocksDB schedules what the new value calls
    /// for at once.
    fn set_level0_trigger(&self, table: &str, files: i32) -> Result<()> {
        let h = cf(&self.db, table)?;
        self.db
            .set_options_cf(
                h,
                &[("level0_file_num_compaction_trigger", &files.to_string())],
            )
            .map_err(rocks)
    }
}

/// Drops one hold of each of `tables`, restoring the configured trigger of those no hold names
/// any more.
fn release(store: &Store, holds: &mut HashMap<&'static str, usize>, tables: &[&'static str]) {
    for t in tables {
        if let Some(n) = holds.get_mut(t) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                // RocksDB refuses only an unknown option or value here, which the constant
                // rules out; were it to, reads would consult more level-0 files until the
                // next open.
                drop(store.set_level0_trigger(t, store.level0_trigger));
            }
        }
    }
}

impl Drop for Backlog<'_> {
    fn drop(&mut self) {
        if let Ok(mut holds) = self.store.backlogs.lock() {
            release(self.store, &mut holds, &self.tables);
        }
    }
}

fn poisoned() -> StoreError {
    StoreError::Rocks("backlog lock poisoned".to_owned())
}
