//! The page-token secret: given on the command line, or generated once and kept in
//! `DATA_DIR/token-secret` (mode 0600) so page tokens stay valid across restarts.
//!
//! A kept file readable or writable by anyone but its owner is tightened to 0600 with a warning
//! before it is used (the secret may have been read meanwhile: rotate it by deleting the file if
//! that matters). A data directory writable by others is warned about: whoever can write it can
//! replace the secret, or the keys and the index, so it should belong to the service's user
//! alone.

use std::io::Write;
use std::path::Path;

use snowline_query::TokenSecret;

/// The secret to authenticate page tokens with.
pub fn load_or_create(data_dir: &Path, given: Option<&str>) -> Result<TokenSecret, String> {
    if let Some(hex) = given {
        return TokenSecret::from_hex(hex.trim())
            .map_err(|e| format!("--token-secret: {e} (expected 64 hex digits)"));
    }
    if let Some(warning) = loose_directory(data_dir) {
        tracing::warn!("{warning}");
        eprintln!("data-api: warning: {warning}");
    }
    let path = data_dir.join("token-secret");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            if let Some(warning) = tighten(&path)
                .map_err(|e| format!("cannot restrict {} to its owner: {e}", path.display()))?
            {
                tracing::warn!("{warning}");
                eprintln!("data-api: warning: {warning}");
            }
            TokenSecret::from_hex(text.trim())
                .map_err(|e| format!("{}: {e} (expected 64 hex digits)", path.display()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let secret = TokenSecret::generate().map_err(|e| format!("token secret: {e}"))?;
            write_private(&path, &secret.to_hex())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(secret)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Sets `path` to mode 0600 if others or its group may access it; the warning to give if so.
#[cfg(unix)]
fn tighten(path: &Path) -> std::io::Result<Option<String>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return Ok(None);
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok(Some(format!(
        "{} had mode {mode:03o} (readable or writable by others); set to 600. Tokens issued \
         meanwhile stay valid; delete the file to rotate the secret if it may have been read",
        path.display()
    )))
}

#[cfg(not(unix))]
fn tighten(_: &Path) -> std::io::Result<Option<String>> {
    Ok(None)
}

/// A warning if `dir` is writable by everyone (others could replace the secret).
#[cfg(unix)]
fn loose_directory(dir: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir).ok()?.permissions().mode() & 0o7777;
    (mode & 0o002 != 0).then(|| {
        format!(
            "the data directory {} is writable by everyone (mode {mode:03o}); anyone could \
             replace its token secret, keys or index: make it the service user's alone \
             (chmod 700)",
            dir.display()
        )
    })
}

#[cfg(not(unix))]
fn loose_directory(_: &Path) -> Option<String> {
    None
}

/// Writes `text` to `path` readable by the owner only, atomically (a new temp file created with
/// mode 0600, then renamed). A temp file left by an earlier attempt is removed first, so the mode
/// is always the new file's own.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    match std::fs::remove_file(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_generated_secret_is_kept_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let a = load_or_create(dir.path(), None).unwrap();
        let b = load_or_create(dir.path(), None).unwrap();
        assert_eq!(a.to_hex(), b.to_hex());
        #[cfg(unix)]
        assert_eq!(mode(&dir.path().join("token-secret")), 0o600);
        let given = "11".repeat(32);
        assert_eq!(
            load_or_create(dir.path(), Some(&given)).unwrap().to_hex(),
            given
        );
        assert!(load_or_create(dir.path(), Some("abc")).is_err());
        std::fs::write(dir.path().join("token-secret"), "zz").unwrap();
        assert!(load_or_create(dir.path(), None).is_err());
    }

    /// Created 0600 even under a permissive umask and over a stale world-readable temp file; a
    /// kept file found readable by others is set back to 0600 (with a warning) and still used.
    #[cfg(unix)]
    #[test]
    fn the_secret_file_is_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token-secret");
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, "stale").unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o666)).unwrap();
        let made = load_or_create(dir.path(), None).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert!(!tmp.exists());
        for loose in [0o644, 0o640, 0o604, 0o666, 0o660, 0o777] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(loose)).unwrap();
            let warning = tighten(&path).unwrap();
            assert!(
                warning.is_some_and(|w| w.contains("set to 600")),
                "{loose:o}"
            );
            assert_eq!(mode(&path), 0o600, "{loose:o}");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(loose)).unwrap();
            let again = load_or_create(dir.path(), None).unwrap();
            assert_eq!(again.to_hex(), made.to_hex());
            assert_eq!(mode(&path), 0o600, "{loose:o}");
        }
        assert_eq!(tighten(&path).unwrap(), None);
        // A world-writable directory is named in a warning; the owner's own is not.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(loose_directory(dir.path()), None);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(loose_directory(dir.path()).is_some_and(|w| w.contains("chmod 700")));
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
}
