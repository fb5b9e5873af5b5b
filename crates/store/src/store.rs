//! The store handle: opening (read-write, read-only, secondary), the schema guard, atomic writes,
//! snapshots.

use std::borrow::Borrow;
use std::ops::RangeBounds;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rocksdb::{Cache, ColumnFamily, ColumnFamilyDescriptor};

use crate::batch::{OpKind, WriteBatch};
use crate::db::Db;
use crate::error::{Result, StoreError, rocks};
use crate::journal::{
    FrameOp, FrameWriter, JOURNAL_TABLE, Journal, JournalRole, SEQ_KEY, TIME_KEY, be_u64, now_ms,
    outbox_key,
};
use crate::key::{KeyCodec, KeyPrefix};
use crate::options::StoreOptions;
use crate::read::{Direction, Entry, ReadView, Scan, View};
use crate::table::{Access, DEFAULT_CF, META_TABLE, Schema, Table};

/// Key, in the meta table, of the schema version (a big-endian `u32`).
const SCHEMA_VERSION_KEY: &[u8] = b"schema_version";

/// How a store was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The single writer.
    ReadWrite,
    /// A frozen read-only view of the files at open time.
    ReadOnly,
    /// A secondary instance that follows a primary through [`Store::catch_up`].
    Secondary,
}

/// An open store. Share it between threads by reference or `Arc`; all methods take `&self`.
pub struct Store {
    pub(crate) db: Db,
    schema: Schema,
    mode: Mode,
    path: PathBuf,
    unknown_tables: Vec<String>,
    sync_writes: bool,
    /// Writes skip the write-ahead log ([`Store::set_unlogged_writes`]).
    unlogged: AtomicBool,
    /// The last write's buffers, reused by the next one.
    scratch: Mutex<Scratch>,
    /// The block cache shared by the tables (held so it outlives them).
    pub(crate) cache: Cache,
    /// The commit journal's role and position (`journal.rs`).
    pub(crate) journal: Journal,
    /// Holds of backlog mode per table (`backlog.rs`).
    pub(crate) backlogs: Mutex<std::collections::HashMap<&'static str, usize>>,
    /// The configured level-0 compaction trigger, restored when backlog mode ends.
    pub(crate) level0_trigger: i32,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("mode", &self.mode)
            .field("schema_version", &self.schema.version())
            .finish_non_exhaustive()
    }
}

/// Column families found on disk, or none for a database not yet created.
fn existing_cfs(path: &Path) -> Result<Vec<String>> {
    if !path.join("CURRENT").exists() {
        return Ok(Vec::new());
    }
    Db::list_cf(&rocksdb::Options::default(), path).map_err(rocks)
}

impl Store {
    /// Opens (creating if needed) the store at `path` for reading and writing with default options.
    pub fn open(path: impl AsRef<Path>, schema: &Schema) -> Result<Self> {
        Self::open_with(path, schema, &StoreOptions::default())
    }

    /// Opens read-write with explicit options. A new store gets every table and the schema
    /// version; an existing one must carry the same version (else [`StoreError::SchemaMismatch`],
    /// checked before anything is changed), gets tables the schema added, and keeps tables the
    /// schema does not know (listed by [`Store::unknown_tables`], never touched).
    pub fn open_with(path: impl AsRef<Path>, schema: &Schema, opts: &StoreOptions) -> Result<Self> {
        schema.validate()?;
        let path = path.as_ref();
        let existing = existing_cfs(path)?;
        let fresh = existing.is_empty();
        let cache = Cache::new_lru_cache(opts.block_cache_bytes);
        let mut db_opts = opts.db_options(&cache);
        db_opts.create_missing_column_families(false);
        let descriptors = descriptors(&existing, schema, opts, &cache);
        let mut db = Db::open_cf_descriptors(&db_opts, path, descriptors).map_err(rocks)?;

        // The version is written last, once every table exists, so a store without it is either
        // foreign/damaged (it holds data) or a creation that was interrupted (it holds nothing),
        // which is simply finished here: a kill -9 during the first open loses nothing.
        let has_meta = existing.iter().any(|n| n == META_TABLE);
        let version = if has_meta { read_version(&db)? } else { None };
        match version {
            Some(found) if found != schema.version() => {
                return Err(StoreError::SchemaMismatch {
                    found,
                    expected: schema.version(),
                });
            }
            Some(_) => {}
            None if !fresh && holds_data(&db, &existing) => {
                return Err(StoreError::MissingSchemaVersion(path.display().to_string()));
            }
            None if !has_meta => {
                db.create_cf(META_TABLE, &opts.meta_options())
                    .map_err(rocks)?;
            }
            None => {}
        }
        if !existing.iter().any(|n| n == JOURNAL_TABLE) {
            db.create_cf(JOURNAL_TABLE, &rocksdb::Options::default())
                .map_err(rocks)?;
        }
        for t in schema.tables() {
            if !existing.iter().any(|n| n == t.name) {
                db.create_cf(t.name, &opts.table_options(&cache, t.access))
                    .map_err(rocks)?;
            }
        }
        if version.is_none() {
            let meta = cf(&db, META_TABLE)?;
            let mut wo = rocksdb::WriteOptions::default();
            wo.set_sync(true);
            db.put_cf_opt(
                meta,
                SCHEMA_VERSION_KEY,
                schema.version().to_be_bytes(),
                &wo,
            )
            .map_err(rocks)?;
        }
        Ok(Self::assemble(
            db,
            schema,
            Mode::ReadWrite,
            path,
            &existing,
            opts,
            cache,
        ))
    }

    /// Opens an existing store read-only with default options: a view of the data as of now
    /// that later writes by another process do not change. Writes return [`StoreError::ReadOnly`].
    pub fn open_read_only(path: impl AsRef<Path>, schema: &Schema) -> Result<Self> {
        Self::open_read_only_with(path, schema, &StoreOptions::default())
    }

    /// [`Store::open_read_only`] with explicit options.
    pub fn open_read_only_with(
        path: impl AsRef<Path>,
        schema: &Schema,
        opts: &StoreOptions,
    ) -> Result<Self> {
        schema.validate()?;
        let path = path.as_ref();
        let existing = existing_cfs(path)?;
        if existing.is_empty() {
            return Err(StoreError::Rocks(format!(
                "no store at {} to open read-only",
                path.display()
            )));
        }
        let cache = Cache::new_lru_cache(opts.block_cache_bytes);
        let mut db_opts = opts.db_options(&cache);
        db_opts.create_if_missing(false);
        let descriptors = descriptors(&existing, schema, opts, &cache);
        let db =
            Db::open_cf_descriptors_read_only(&db_opts, path, descriptors, false).map_err(rocks)?;
        Self::check_reader(&db, path, schema, &existing)?;
        Ok(Self::assemble(
            db,
            schema,
            Mode::ReadOnly,
            path,
            &existing,
            opts,
            cache,
        ))
    }

    /// Opens a secondary instance of the primary store at `primary_path`, keeping its own logs in
    /// `secondary_path`. It sees the primary's data as of open, then newer data after each
    /// [`Store::catch_up`]. Any number of secondaries may follow one primary.
    pub fn open_secondary(
        primary_path: impl AsRef<Path>,
        secondary_path: impl AsRef<Path>,
        schema: &Schema,
    ) -> Result<Self> {
        Self::open_secondary_with(
            primary_path,
            secondary_path,
            schema,
            &StoreOptions::default(),
        )
    }

    /// [`Store::open_secondary`] with explicit options.
    pub fn open_secondary_with(
        primary_path: impl AsRef<Path>,
        secondary_path: impl AsRef<Path>,
        schema: &Schema,
        opts: &StoreOptions,
    ) -> Result<Self> {
        schema.validate()?;
        let path = primary_path.as_ref();
        let existing = existing_cfs(path)?;
        if existing.is_empty() {
            return Err(StoreError::Rocks(format!(
                "no primary store at {}",
                path.display()
            )));
        }
        let cache = Cache::new_lru_cache(opts.block_cache_bytes);
        let mut db_opts = opts.db_options(&cache);
        db_opts.create_if_missing(false);
        // Secondaries must keep all files open (max_open_files = -1), as db_options sets.
        db_opts.set_max_open_files(-1);
        let descriptors = descriptors(&existing, schema, opts, &cache);
        let db = Db::open_cf_descriptors_as_secondary(
            &db_opts,
            path,
            secondary_path.as_ref(),
            descriptors,
        )
        .map_err(rocks)?;
        Self::check_reader(&db, path, schema, &existing)?;
        Ok(Self::assemble(
            db,
            schema,
            Mode::Secondary,
            path,
            &existing,
            opts,
            cache,
        ))
    }

    fn check_reader(db: &Db, path: &Path, schema: &Schema, existing: &[String]) -> Result<()> {
        if !existing.iter().any(|n| n == META_TABLE) {
            return Err(StoreError::MissingSchemaVersion(path.display().to_string()));
        }
        check_version(db, path, schema.version())?;
        let missing: Vec<String> = schema
            .tables()
            .iter()
            .filter(|t| !existing.iter().any(|n| n == t.name))
            .map(|t| t.name.to_owned())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(StoreError::MissingTables(missing))
        }
    }

    fn assemble(
        db: Db,
        schema: &Schema,
        mode: Mode,
        path: &Path,
        existing: &[String],
        opts: &StoreOptions,
        cache: Cache,
    ) -> Self {
        let unknown_tables = existing
            .iter()
            .filter(|n| {
                *n != DEFAULT_CF && *n != META_TABLE && *n != JOURNAL_TABLE && !schema.contains(n)
            })
            .cloned()
            .collect();
        let seq = db
            .cf_handle(JOURNAL_TABLE)
            .and_then(|h| db.get_cf(h, SEQ_KEY).ok().flatten());
        let journal = Journal::new(be_u64(seq.as_deref()));
        Self {
            db,
            schema: schema.clone(),
            mode,
            path: path.to_path_buf(),
            unknown_tables,
            sync_writes: opts.sync_writes,
            unlogged: AtomicBool::new(false),
            scratch: Mutex::new(Scratch::default()),
            cache,
            journal,
            backlogs: Mutex::default(),
            level0_trigger: opts.level0_compaction_trigger,
        }
    }

    /// The schema this store was opened with.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// How the store was opened.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The database directory (the primary's, for a secondary).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every column family on disk, the default and meta ones and those the schema does not list
    /// included: with [`Store::for_each_raw`], for audits that must see every stored byte (the
    /// tests that check no secret is stored).
    pub fn raw_tables(&self) -> Result<Vec<String>> {
        existing_cfs(&self.path)
    }

    /// Calls `f` with every key and value of the column family `name` as stored, in key order.
    pub fn for_each_raw(&self, name: &str, mut f: impl FnMut(&[u8], &[u8])) -> Result<()> {
        let handle = cf(&self.db, name)?;
        let mut it = self.db.raw_iterator_cf(handle);
        it.seek_to_first();
        while it.valid() {
            if let (Some(k), Some(v)) = (it.key(), it.value()) {
                f(k, v);
            }
            it.next();
        }
        it.status().map_err(rocks)
    }

    /// Tables present on disk that the schema does not list; left untouched.
    pub fn unknown_tables(&self) -> &[String] {
        &self.unknown_tables
    }

    /// Applies `batch` atomically: after a crash either all of it or none of it is there, and
    /// readers never see part of it. Goes through the write-ahead log; fsynced only when
    /// `StoreOptions::sync_writes` is set (see `docs/store.md`, "Durability"). Takes the batch or
    /// a reference to it: a writer that reuses one batch (an ingest loop) passes `&batch` and
    /// clears it afterwards, keeping its allocation.
    pub fn write(&self, batch: impl Borrow<WriteBatch>) -> Result<()> {
        let batch = batch.borrow();
        if self.mode != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        // The previous write's buffer, when no other write holds it: a large batch then costs no
        // fresh allocation (page faults and zeroing of megabytes) on every write.
        let mut cached = self.scratch.try_lock().ok();
        let mut own = Scratch::default();
        let scratch = cached.as_deref_mut().unwrap_or(&mut own);
        let result = self.write_with(batch, &mut scratch.ops);
        scratch.ops.clear();
        result
    }

    fn write_with(&self, batch: &WriteBatch, ops: &mut Vec<ResolvedOp>) -> Result<()> {
        // Resolve each op's table, then order them by (table, key). The sort is stable, so
        // operations on the same key keep their order (a put then a delete of one key still ends
        // deleted) and the batch means exactly what it did unsorted. RocksDB inserts a
        // key-ordered run into a skip-list memtable far faster than random order: each insert
        // starts from the previous one's position (docs/store.md, "Write batches").
        let mut handles: Vec<(&'static str, &ColumnFamily)> = Vec::new();
        ops.reserve(batch.ops.len());
        for op in &batch.ops {
            let slot = match handles.iter().position(|(name, _)| *name == op.table) {
                Some(i) => i,
                None => {
                    handles.push((op.table, cf(&self.db, op.table)?));
                    handles.len() - 1
                }
            };
            let put = match op.kind {
                OpKind::Put => true,
                OpKind::Delete => false,
                OpKind::Cancelled => continue,
            };
            if op.start > op.key_end || op.key_end > op.end || op.end > batch.data.len() {
                return Err(StoreError::InvalidArgument(
                    "write batch offsets out of range".to_owned(),
                ));
            }
            let key = batch.data.get(op.start..op.key_end).unwrap_or_default();
            ops.push(ResolvedOp {
                slot,
                prefix: key_prefix(key),
                seq: ops.len(),
                put,
                start: op.start,
                key_end: op.key_end,
                end: op.end,
            });
        }
        let data = batch.data.as_slice();
        let key = |o: &ResolvedOp| data.get(o.start..o.key_end).unwrap_or_default();
        // (slot, key, seq) is unique, so the unstable sort orders exactly as a stable sort by
        // (slot, key) would; the 8-byte prefix settles most comparisons without a memcmp.
        ops.sort_unstable_by(|a, b| {
            (a.slot, a.prefix)
                .cmp(&(b.slot, b.prefix))
                .then_with(|| key(a).cmp(key(b)))
                .then(a.seq.cmp(&b.seq))
        });
        let role = self.journal_role();
        if role == JournalRole::Replica {
            return Err(StoreError::Replica);
        }
        // A primary also records the batch, in the order applied, as a frame for its outbox.
        let mut frame = (role == JournalRole::Primary).then(|| {
            FrameWriter::new(
                self.schema.version(),
                batch.data.len() + 16 * batch.ops.len(),
            )
        });
        let mut rb =
            rocksdb::WriteBatch::with_capacity_bytes(batch.data.len() + 32 * batch.ops.len());
        for op in ops.iter() {
            let Some(&(table, handle)) = handles.get(op.slot) else {
                return Err(StoreError::InvalidArgument(
                    "write batch table out of range".to_owned(),
                ));
            };
            let value = data.get(op.key_end..op.end).unwrap_or_default();
            if op.put {
                rb.put_cf(handle, key(op), value);
            } else {
                rb.delete_cf(handle, key(op));
            }
            if let Some(f) = frame.as_mut() {
                f.push(if op.put {
                    FrameOp::Put {
                        table,
                        key: key(op),
                        value,
                    }
                } else {
                    FrameOp::Delete {
                        table,
                        key: key(op),
                    }
                })?;
            }
        }
        match frame {
            Some(frame) if !ops.is_empty() => self.commit_journaled(rb, &frame.finish()),
            _ => self.write_rocks(rb, role != JournalRole::Off),
        }
    }

    /// Writes `rb` as configured: through the write-ahead log unless in bulk mode. A journaled
    /// store (`journaled`) always logs: a batch it may have published must survive a crash.
    pub(crate) fn write_rocks(&self, rb: rocksdb::WriteBatch, journaled: bool) -> Result<()> {
        let mut wo = rocksdb::WriteOptions::default();
        let unlogged = self.unlogged.load(Ordering::Acquire) && !journaled;
        wo.set_sync(self.sync_writes && !unlogged);
        wo.disable_wal(unlogged);
        self.db.write_opt(rb, &wo).map_err(rocks)
    }

    /// A primary's write: the next sequence number, the batch, its frame in the outbox and the
    /// new position, in one atomic write under the journal's lock (so numbers follow commits).
    fn commit_journaled(&self, mut rb: rocksdb::WriteBatch, frame: &[u8]) -> Result<()> {
        let journal = cf(&self.db, JOURNAL_TABLE)?;
        let seq = {
            let mut state = self
                .journal
                .state
                .lock()
                .map_err(|_| StoreError::Rocks("journal lock poisoned".to_owned()))?;
            if state.role != JournalRole::Primary {
                return Err(StoreError::Replica);
            }
            let seq = state.seq + 1;
            let at = now_ms();
            let mut entry = Vec::with_capacity(8 + frame.len());
            entry.extend_from_slice(&at.to_be_bytes());
            entry.extend_from_slice(frame);
            rb.put_cf(journal, outbox_key(seq), entry);
            rb.put_cf(journal, SEQ_KEY, seq.to_be_bytes());
            rb.put_cf(journal, TIME_KEY, at.to_be_bytes());
            self.write_rocks(rb, true)?;
            state.seq = seq;
            seq
        };
        self.journal.notify(seq);
        Ok(())
    }

    /// Writes one entry (a one-operation batch).
    pub fn put<T: Table>(&self, key: &T::Key, value: &T::Value) -> Result<()> {
        let mut b = WriteBatch::new();
        b.put::<T>(key, value);
        self.write(b)
    }

    /// A consistent point-in-time view: reads through it ignore later writes.
    pub fn snapshot(&self) -> Snapshot<'_> {
        Snapshot {
            store: self,
            snap: self.db.snapshot(),
        }
    }

    /// For a secondary instance: replays what the primary has written since the last catch-up.
    pub fn catch_up(&self) -> Result<()> {
        if self.mode != Mode::Secondary {
            return Err(StoreError::NotSecondary);
        }
        self.db.try_catch_up_with_primary().map_err(rocks)
    }

    /// Flushes every table's memtable to disk, all tables at the same point (atomic flush), so
    /// the files on disk always hold whole batches.
    pub fn flush(&self) -> Result<()> {
        if self.mode != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let mut names: Vec<&str> = self.schema.tables().iter().map(|t| t.name).collect();
        names.push(META_TABLE);
        if self.db.cf_handle(JOURNAL_TABLE).is_some() {
            names.push(JOURNAL_TABLE);
        }
        let handles = names
            .into_iter()
            .map(|name| cf(&self.db, name))
            .collect::<Result<Vec<_>>>()?;
        self.db
            .flush_cfs_opt(&handles, &rocksdb::FlushOptions::default())
            .map_err(rocks)
    }

    /// For bulk loads: while on, [`Store::write`] skips the write-ahead log (no WAL append, no
    /// WAL checksum: the writer thread only fills memtables). Batches stay atomic for readers,
    /// and because every flush is atomic across tables (`atomic_flush`), a crash loses the
    /// batches written since the last flush but never part of one: the store reopens as a
    /// consistent prefix of the batches, which a resumable loader (whose cursor is in the
    /// same batches) simply continues. Turning it off flushes first, so every batch written
    /// before is on disk before any logged write follows. `docs/store.md`, "Durability".
    pub fn set_unlogged_writes(&self, on: bool) -> Result<()> {
        if self.mode != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        if on {
            self.unlogged.store(true, Ordering::Release);
            Ok(())
        } else {
            let flushed = self.flush();
            if flushed.is_ok() {
                self.unlogged.store(false, Ordering::Release);
            }
            flushed
        }
    }

    /// Compacts table `T` fully (after a bulk import, so reads touch fewer files).
    pub fn compact<T: Table>(&self) -> Result<()> {
        if self.mode != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        let h = cf(&self.db, T::NAME)?;
        self.db.compact_range_cf(h, None::<&[u8]>, None::<&[u8]>);
        Ok(())
    }

    /// Compacts every table of the schema fully, each to its bottom level: a bulk import leaves
    /// up to hundreds of level-0 files that scans merge (docs/store.md, "After an import").
    /// Tables the schema does not know are left as they are.
    pub fn compact_all(&self) -> Result<()> {
        if self.mode != Mode::ReadWrite {
            return Err(StoreError::ReadOnly);
        }
        for t in self.schema.tables() {
            let h = cf(&self.db, t.name)?;
            self.db.compact_range_cf(h, None::<&[u8]>, None::<&[u8]>);
        }
        Ok(())
    }

    /// Level-0 files across the schema's tables: what [`Store::compact_all`] brings to zero.
    pub fn level0_files(&self) -> Result<u64> {
        let mut n = 0;
        for t in self.schema.tables() {
            let h = cf(&self.db, t.name)?;
            n += self
                .db
                .property_int_value_cf(h, "rocksdb.num-files-at-level0")
                .map_err(rocks)?
                .unwrap_or(0);
        }
        Ok(n)
    }

    fn view(&self) -> View<'_> {
        View {
            db: &self.db,
            snapshot: None,
        }
    }
}

/// A batch operation ready to apply: table slot, key, and the value (`None` for a delete).
/// One operation of a batch, its table resolved to a slot of the write's handle list and its key
/// and value left as offsets into the batch's buffer.
#[derive(Debug, Clone, Copy)]
struct ResolvedOp {
    slot: usize,
    /// The key's first 8 bytes, big-endian, zero-padded: orders as the key does, up to ties.
    prefix: u64,
    /// Position in the batch: orders operations on the same key as they were recorded.
    seq: usize,
    put: bool,
    start: usize,
    key_end: usize,
    end: usize,
}

/// The first 8 bytes of `key` as a big-endian number (zero-padded): comparing prefixes orders
/// keys as comparing them byte-wise does, except that equal prefixes need the full keys.
fn key_prefix(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    if let (Some(dst), Some(src)) = (b.get_mut(..n), key.get(..n)) {
        dst.copy_from_slice(src);
    }
    u64::from_be_bytes(b)
}

/// A buffer one write needs, kept by the store between writes (see [`Store::write`]).
#[derive(Debug, Default)]
struct Scratch {
    ops: Vec<ResolvedOp>,
}

pub(crate) fn cf<'a>(db: &'a Db, name: &str) -> Result<&'a ColumnFamily> {
    db.cf_handle(name)
        .ok_or_else(|| StoreError::UnknownTable(name.to_owned()))
}

fn descriptors(
    existing: &[String],
    schema: &Schema,
    opts: &StoreOptions,
    cache: &Cache,
) -> Vec<ColumnFamilyDescriptor> {
    existing
        .iter()
        .map(|name| {
            let o = if name == META_TABLE {
                opts.meta_options()
            } else if name == DEFAULT_CF || name == JOURNAL_TABLE {
                rocksdb::Options::default()
            } else {
                let access = schema
                    .tables()
                    .iter()
                    .find(|t| t.name == name)
                    .map_or(Access::Mixed, |t| t.access);
                opts.table_options(cache, access)
            };
            ColumnFamilyDescriptor::new(name, o)
        })
        .collect()
}

/// Whether any column family of `db` (the default one included) holds an entry.
fn holds_data(db: &Db, existing: &[String]) -> bool {
    let mut default = db.raw_iterator();
    default.seek_to_first();
    default.valid()
        || existing.iter().any(|name| {
            db.cf_handle(name).is_some_and(|h| {
                let mut it = db.raw_iterator_cf(h);
                it.seek_to_first();
                it.valid()
            })
        })
}

/// The stored schema version, if one was written.
fn read_version(db: &Db) -> Result<Option<u32>> {
    let meta = cf(db, META_TABLE)?;
    let raw = db.get_cf(meta, SCHEMA_VERSION_KEY).map_err(rocks)?;
    Ok(raw
        .as_deref()
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(u32::from_be_bytes))
}

fn check_version(db: &Db, path: &Path, expected: u32) -> Result<()> {
    match read_version(db)? {
        None => Err(StoreError::MissingSchemaVersion(path.display().to_string())),
        Some(found) if found != expected => Err(StoreError::SchemaMismatch { found, expected }),
        Some(_) => Ok(()),
    }
}

/// A consistent read view of a [`Store`] at one instant; cheap to take, released on drop.
pub struct Snapshot<'a> {
    store: &'a Store,
    snap: rocksdb::SnapshotWithThreadMode<'a, Db>,
}

impl Snapshot<'_> {
    fn view(&self) -> View<'_> {
        View {
            db: &self.store.db,
            snapshot: Some(&self.snap),
        }
    }
}

macro_rules! read_view_impl {
    ($t:ty) => {
        impl ReadView for $t {
            fn get<T: Table>(&self, key: &T::Key) -> Result<Option<T::Value>> {
                self.view().get::<T>(key)
            }
            fn multi_get<T: Table>(&self, keys: &[T::Key]) -> Result<Vec<Option<T::Value>>> {
                self.view().multi_get::<T>(keys)
            }
            fn scan<T: Table, R: RangeBounds<T::Key>>(
                &self,
                range: R,
                dir: Direction,
            ) -> Result<Scan<'_, T>> {
                self.view().scan::<T, R>(range, dir)
            }
            fn prefix_scan<T: Table, P: KeyCodec>(
                &self,
                prefix: &P,
                after: Option<&T::Key>,
                dir: Direction,
            ) -> Result<Scan<'_, T>>
            where
                T::Key: KeyPrefix<P>,
            {
                self.view().prefix_scan::<T, P>(prefix, after, dir)
            }
            fn last_in_each<T: Table>(
                &self,
                ranges: &[(T::Key, T::Key)],
            ) -> Result<Vec<Option<Entry<T>>>> {
                self.view().last_in_each::<T>(ranges)
            }
        }
    };
}
read_view_impl!(Store);
read_view_impl!(Snapshot<'_>);
