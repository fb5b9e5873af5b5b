//! Where a staking identity is kept, as avalanchego keeps it: `staker.crt` and `staker.key`
//! (`--staking-tls-cert-file`, `--staking-tls-key-file`; made by `staking.InitNodeStakingKeyPair`
//! when the key file is absent) and `signer.key` (`--staking-signer-key-file`; made by
//! `localsigner.FromFileOrPersistNew` when absent).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::P2pError;
use crate::identity::StakingIdentity;
use crate::self_signed::{NewStakingCert, random32};

/// The three files of a staking identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StakingFiles {
    /// The certificate, PEM.
    pub cert: PathBuf,
    /// The certificate's private key, PEM.
    pub key: PathBuf,
    /// The BLS secret key, 32 raw bytes.
    pub signer_key: PathBuf,
}

impl StakingFiles {
    /// `staker.crt`, `staker.key` and `signer.key` in `dir` (avalanchego's names, in
    /// `~/.avalanchego/staking/`).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            cert: dir.join("staker.crt"),
            key: dir.join("staker.key"),
            signer_key: dir.join("signer.key"),
        }
    }

    /// Reads the identity from the three files.
    pub fn load(&self) -> Result<StakingIdentity, P2pError> {
        let cert = read(&self.cert)?;
        let key = read(&self.key)?;
        let signer = read(&self.signer_key)?;
        StakingIdentity::from_pem(&cert, &key, &signer)
    }

    /// Reads the identity, first writing what is absent as avalanchego does: a new certificate
    /// and key when the key file does not exist (replacing a certificate without its key), a new
    /// BLS key when the signer key file does not exist. The keys are readable by their owner
    /// only; `now` (unix seconds) dates the certificate.
    pub fn load_or_generate(&self, now: u64) -> Result<StakingIdentity, P2pError> {
        if !self.key.exists() {
            let new = NewStakingCert::generate(now)?;
            if self.cert.exists() {
                std::fs::remove_file(&self.cert).map_err(|e| file_error(&self.cert, e))?;
            }
            write_new(&self.cert, new.cert_pem().as_bytes(), 0o444)?;
            write_new(&self.key, new.key_pem().as_bytes(), 0o400)?;
        }
        if !self.signer_key.exists() {
            let secret = loop {
                let ikm = random32()?;
                if let Ok(sk) = blst::min_pk::SecretKey::key_gen(&ikm, &[]) {
                    break sk.to_bytes();
                }
            };
            write_new(&self.signer_key, &secret, 0o600)?;
        }
        self.load()
    }
}

fn file_error(path: &Path, e: impl std::fmt::Display) -> P2pError {
    P2pError::StakingFile {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

fn read(path: &Path) -> Result<Vec<u8>, P2pError> {
    std::fs::read(path).map_err(|e| file_error(path, e))
}

/// Creates `path` (and its directory) with `bytes`, refusing to overwrite a file; `mode` is the
/// Unix permission bits it is created with.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<(), P2pError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| file_error(dir, e))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options.open(path).map_err(|e| file_error(path, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| file_error(path, e))
}
