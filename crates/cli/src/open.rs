//! Opening a binary's store, and the process-wide runtime and logging.

use std::path::Path;
use std::sync::Arc;

use snowline_store::{Schema, Store};

/// Opens (creating the directory and the tables if needed) the store in `dir` with `schema`.
pub fn open_store(dir: &Path, schema: &Schema) -> Result<Arc<Store>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Store::open(dir, schema)
        .map(Arc::new)
        .map_err(|e| format!("cannot open the store in {}: {e}", dir.display()))
}

/// The multi-threaded runtime the servers and followers run on.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Logs to stderr, filtered by `RUST_LOG`, else at `default` (e.g. `info`).
pub fn init_logging(default: &str) {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default)),
        )
        .with_writer(std::io::stderr)
        .init();
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_store_opens_in_a_new_directory_and_a_bad_path_is_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let store = open_store(&dir.path().join("a/b"), &Schema::new(1));
        assert!(store.is_ok());
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let err = open_store(&file.join("sub"), &Schema::new(1))
            .err()
            .unwrap();
        assert!(err.starts_with("cannot create"), "{err}");
    }
}
