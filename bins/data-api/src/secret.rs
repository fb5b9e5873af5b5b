//! The page-token secret: given on the command line, or generated once and kept in
//! `DATA_DIR/token-secret` (mode 0600) so page tokens stay valid across restarts.

use std::io::Write;
use std::path::Path;

use snowline_query::TokenSecret;

/// The secret to authenticate page tokens with.
pub fn load_or_create(data_dir: &Path, given: Option<&str>) -> Result<TokenSecret, String> {
    if let Some(hex) = given {
        return TokenSecret::from_hex(hex.trim())
            .map_err(|e| format!("--token-secret: {e} (expected 64 hex digits)"));
    }
    let path = data_dir.join("token-secret");
    match std::fs::read_to_string(&path) {
        Ok(text) => TokenSecret::from_hex(text.trim())
            .map_err(|e| format!("{}: {e} (expected 64 hex digits)", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let secret = TokenSecret::generate().map_err(|e| format!("token secret: {e}"))?;
            write_private(&path, &secret.to_hex())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Ok(secret)
        }
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Writes `text` to `path` readable by the owner only, atomically (temp file, then rename).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
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

    #[test]
    fn a_generated_secret_is_kept_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let a = load_or_create(dir.path(), None).unwrap();
        let b = load_or_create(dir.path(), None).unwrap();
        assert_eq!(a.to_hex(), b.to_hex());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("token-secret"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let given = "11".repeat(32);
        assert_eq!(
            load_or_create(dir.path(), Some(&given)).unwrap().to_hex(),
            given
        );
        assert!(load_or_create(dir.path(), Some("abc")).is_err());
        std::fs::write(dir.path().join("token-secret"), "zz").unwrap();
        assert!(load_or_create(dir.path(), None).is_err());
    }
}
