//! `digest`: each table of a store, its entry count and a SHA-256 of its keys and values in key
//! order, every block read with its checksum verified (RocksDB refuses a corrupt one): two
//! stores with the same lines hold the same bytes. The crash tests compare a killed run's index
//! with a clean run's this way. `--table NAME` prints one table's entries instead, to find
//! which keys differ once two digests do.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};
use snowline_store::{Schema, Store};

/// Prints `table entries sha256` for every table of the store at `path` (opened read-only with
/// `schema`: run it on a stopped server's data), the fleet's journal left out.
/// With `table`, prints that table's entries instead, `key value` in hex, one a line, in key
/// order.
pub fn print_digest(path: &Path, schema: &Schema, table: Option<&str>) -> Result<(), String> {
    let store = Store::open_read_only(path, schema)
        .map_err(|e| format!("cannot open the store in {}: {e}", path.display()))?;
    if let Some(name) = table {
        return print_entries(&store, name);
    }
    let mut tables = store.raw_tables().map_err(|e| e.to_string())?;
    // The journal is each node's own bookkeeping of its fleet (position, outbox), not data: a
    // replica's digest equals its primary's.
    tables.retain(|t| t != snowline_store::JOURNAL_TABLE);
    tables.sort();
    let mut out = std::io::stdout().lock();
    for name in tables {
        let (mut entries, mut hash) = (0u64, Sha256::new());
        store
            .for_each_raw(&name, |k, v| {
                entries += 1;
                // Lengths first, so (ab, c) and (a, bc) differ.
                hash.update((k.len() as u64).to_be_bytes());
                hash.update(k);
                hash.update((v.len() as u64).to_be_bytes());
                hash.update(v);
            })
            .map_err(|e| format!("{name}: {e}"))?;
        writeln!(out, "{name} {entries} {}", hex::encode(hash.finalize()))
            .map_err(|e| format!("stdout: {e}"))?;
    }
    Ok(())
}

/// Prints every entry of the table `name`, `key value` in hex.
fn print_entries(store: &Store, name: &str) -> Result<(), String> {
    if !store
        .raw_tables()
        .map_err(|e| e.to_string())?
        .iter()
        .any(|t| t == name)
    {
        return Err(format!("the store has no table {name:?}"));
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut written = Ok(());
    store
        .for_each_raw(name, |k, v| {
            if written.is_ok() {
                written = writeln!(out, "{} {}", hex::encode(k), hex::encode(v));
            }
        })
        .map_err(|e| format!("{name}: {e}"))?;
    written
        .and_then(|()| out.flush())
        .map_err(|e| format!("stdout: {e}"))
}
