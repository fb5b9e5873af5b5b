//! glibc's malloc, bounded for RocksDB. RocksDB (C++, always on glibc's malloc) allocates its
//! memtables in 1 MiB arena blocks on the writing thread and frees them on flush threads; glibc
//! then keeps them in per-thread arenas, and its dynamic mmap threshold (raised to the largest
//! mapping freed, up to 32 MiB) moves later blocks into arena heaps it never returns to the
//! OS. Two arenas and a fixed 128 KiB threshold (blocks above it mapped and unmapped on their
//! own) took `data-api`'s peak RSS following the 1M-tx devnet from 755 to 567 MiB
//! (docs/benchmarks.md, "Memory while following").

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// The glibc tunables set, as environment variables (glibc reads them at start only).
pub const MALLOC_SETTINGS: [(&str, &str); 2] = [
    ("MALLOC_ARENA_MAX", "2"),
    ("MALLOC_MMAP_THRESHOLD_", "131072"),
];

/// Re-executes the running binary (same pid, arguments and environment) with
/// [`MALLOC_SETTINGS`] added, unless the environment already names either setting (an
/// operator's choice wins, and the re-executed process returns here at once). Call it first in
/// `main`. Returns when nothing was re-executed, or when exec failed (said on stderr).
pub fn bound_glibc_malloc() {
    if MALLOC_SETTINGS
        .iter()
        .any(|(name, _)| std::env::var_os(name).is_some())
    {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| OsString::from("snowline"));
    let err = Command::new(exe)
        .arg0(arg0)
        .args(args)
        .envs(MALLOC_SETTINGS)
        .exec();
    eprintln!("warning: glibc malloc left unbounded: could not re-execute: {err}");
}
