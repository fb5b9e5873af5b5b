//! Checkpoints of a node's index in the fleet's JetStream object store (`STREAM_checkpoints`),
//! so a new replica starts from the newest one and reads the stream from the batch after it.
//!
//! A checkpoint is one object per file of the checkpoint's directory, `PREFIX/files/NAME`, and
//! its manifest, `PREFIX/manifest`, written last: a checkpoint without a manifest is an upload
//! in progress (or an interrupted one) and is never fetched. `PREFIX` is the batch it stands at
//! and its creation time, both zero-padded, so names sort oldest first. Files are streamed in
//! and out (chunks of the object store, never a whole file in memory), and each is checked
//! against the SHA-256 the manifest gives before the directory is handed back.

use std::path::Path;
use std::pin::Pin;
use std::task::{Context, Poll};

use async_nats::jetstream::{self, object_store, stream};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncRead, ReadBuf};

use crate::nats::{FleetConfig, connect};

/// The first line of every manifest: the format and its version.
const MAGIC: &str = "snowline-checkpoint 1";

/// One file of a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointFile {
    /// Its name in the checkpoint's directory.
    pub name: String,
    /// Its length in bytes.
    pub size: u64,
    /// Its SHA-256, lowercase hex.
    pub sha256: String,
}

/// What a checkpoint holds and where it stands: its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The last batch the checkpoint holds; a replica started from it reads on from the next.
    pub seq: u64,
    /// That batch's commit time on the primary (Unix ms).
    pub committed_ms: u64,
    /// The store's schema version the checkpoint was written under.
    pub schema_version: u32,
    /// When the checkpoint was taken (Unix ms).
    pub created_ms: u64,
    /// Its files, each with its size and checksum.
    pub files: Vec<CheckpointFile>,
}

impl Manifest {
    /// The objects' common name prefix: batch and creation time, zero-padded so that names
    /// sort in the order checkpoints were taken.
    pub fn prefix(&self) -> String {
        format!("{:020}-{:020}", self.seq, self.created_ms)
    }

    /// The bytes in all its files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// The manifest as stored: `key value` lines, then one `file NAME SIZE SHA256` line per
    /// file.
    pub fn encode(&self) -> String {
        let mut out = format!(
            "{MAGIC}\nseq {}\ncommitted-ms {}\nschema-version {}\ncreated-ms {}\n",
            self.seq, self.committed_ms, self.schema_version, self.created_ms
        );
        for f in &self.files {
            out.push_str(&format!("file {} {} {}\n", f.name, f.size, f.sha256));
        }
        out
    }

    /// Reads a stored manifest.
    pub fn decode(text: &str) -> Result<Self, String> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!(
                "not a checkpoint manifest (first line is not {MAGIC:?})"
            ));
        }
        let (mut seq, mut committed_ms, mut schema_version, mut created_ms) =
            (None, None, None, None);
        let mut files = Vec::new();
        let bad = |line: &str| format!("checkpoint manifest: unreadable line {line:?}");
        for line in lines {
            let mut words = line.split(' ');
            let (Some(key), Some(value)) = (words.next(), words.next()) else {
                return Err(bad(line));
            };
            let number = || value.parse::<u64>().map_err(|_| bad(line));
            match key {
                "seq" => seq = Some(number()?),
                "committed-ms" => committed_ms = Some(number()?),
                "created-ms" => created_ms = Some(number()?),
                "schema-version" => {
                    schema_version = Some(value.parse::<u32>().map_err(|_| bad(line))?);
                }
                "file" => {
                    let (Some(size), Some(sha256), None) =
                        (words.next(), words.next(), words.next())
                    else {
                        return Err(bad(line));
                    };
                    if !safe_file_name(value) || sha256.len() != 64 {
                        return Err(bad(line));
                    }
                    files.push(CheckpointFile {
                        name: value.to_owned(),
                        size: size.parse().map_err(|_| bad(line))?,
                        sha256: sha256.to_owned(),
                    });
                }
                _ => return Err(bad(line)),
            }
        }
        let missing = |what: &str| format!("checkpoint manifest without {what}");
        Ok(Self {
            seq: seq.ok_or_else(|| missing("seq"))?,
            committed_ms: committed_ms.ok_or_else(|| missing("committed-ms"))?,
            schema_version: schema_version.ok_or_else(|| missing("schema-version"))?,
            created_ms: created_ms.ok_or_else(|| missing("created-ms"))?,
            files,
        })
    }
}

/// Where a checkpoint stands, as the store that wrote it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointAt {
    /// The last batch it holds.
    pub seq: u64,
    /// That batch's commit time (Unix ms).
    pub committed_ms: u64,
    /// The store's schema version.
    pub schema_version: u32,
}

/// The fleet's checkpoint bucket: `STREAM_checkpoints`.
pub fn checkpoint_bucket(config: &FleetConfig) -> String {
    format!("{}_checkpoints", config.stream)
}

/// A file name a manifest may name: no directory, nothing the object store refuses.
fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// The bucket, created (kept as many times as the stream) when `create` and it is missing.
async fn bucket(
    js: &jetstream::Context,
    config: &FleetConfig,
    create: bool,
) -> Result<Option<object_store::ObjectStore>, String> {
    let name = checkpoint_bucket(config);
    match js.get_stream(format!("OBJ_{name}")).await {
        Ok(_) => {}
        Err(e)
            if matches!(e.kind(), jetstream::context::GetStreamErrorKind::JetStream(j)
                if j.error_code() == jetstream::ErrorCode::STREAM_NOT_FOUND) =>
        {
            if !create {
                return Ok(None);
            }
            return js
                .create_object_store(object_store::Config {
                    bucket: name.clone(),
                    description: Some(
                        "checkpoints of the fleet's index (docs/fleet.md)".to_owned(),
                    ),
                    storage: stream::StorageType::File,
                    num_replicas: config.replicas,
                    ..Default::default()
                })
                .await
                .map(Some)
                .map_err(|e| format!("creating the checkpoint bucket {name}: {e}"));
        }
        Err(e) => return Err(format!("opening the checkpoint bucket {name}: {e}")),
    }
    js.get_object_store(&name)
        .await
        .map(Some)
        .map_err(|e| format!("opening the checkpoint bucket {name}: {e}"))
}

/// An `AsyncRead` that hashes and counts what passes through it.
struct Hashing<R> {
    inner: R,
    hash: Sha256,
    size: u64,
}

impl<R> Hashing<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            hash: Sha256::new(),
            size: 0,
        }
    }

    fn finish(self) -> (u64, String) {
        (self.size, hex::encode(self.hash.finalize()))
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Hashing<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let new = buf.filled().get(before..).unwrap_or_default();
            self.size += new.len() as u64;
            self.hash.update(new);
        }
        polled
    }
}

/// Publishes the checkpoint in `dir` (a flat directory, as RocksDB writes one) standing at
/// `at` to the fleet's checkpoint bucket, then deletes all but the newest `keep` checkpoints
/// (and the leftovers of interrupted uploads older than the newest). Returns its manifest.
pub async fn publish_checkpoint(
    config: &FleetConfig,
    dir: &Path,
    at: CheckpointAt,
    keep: usize,
) -> Result<Manifest, String> {
    let (_client, js) = connect(config).await?;
    let bucket = bucket(&js, config, true)
        .await?
        .ok_or_else(|| "the checkpoint bucket could not be created".to_owned())?;
    let mut names = Vec::new();
    let mut entries = tokio::fs::read_dir(dir)
        .await
        .map_err(|e| format!("reading the checkpoint {}: {e}", dir.display()))?;
    while let Some(entry) = entries
        .next_entry()
        .await
        .map_err(|e| format!("reading the checkpoint {}: {e}", dir.display()))?
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.file_type().await.is_ok_and(|t| t.is_file());
        if !is_file || !safe_file_name(&name) {
            return Err(format!(
                "the checkpoint {} holds {name:?}, which is not a plain file",
                dir.display()
            ));
        }
        names.push(name);
    }
    names.sort();
    let mut manifest = Manifest {
        seq: at.seq,
        committed_ms: at.committed_ms,
        schema_version: at.schema_version,
        created_ms: crate::status::now_ms(),
        files: Vec::with_capacity(names.len()),
    };
    let prefix = manifest.prefix();
    for name in names {
        let path = dir.join(&name);
        let file = tokio::fs::File::open(&path)
            .await
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        let mut reader = Hashing::new(file);
        bucket
            .put(format!("{prefix}/files/{name}").as_str(), &mut reader)
            .await
            .map_err(|e| format!("uploading {name} of the checkpoint: {e}"))?;
        let (size, sha256) = reader.finish();
        manifest.files.push(CheckpointFile { name, size, sha256 });
    }
    let text = manifest.encode();
    bucket
        .put(format!("{prefix}/manifest").as_str(), &mut text.as_bytes())
        .await
        .map_err(|e| format!("uploading the checkpoint's manifest: {e}"))?;
    prune(&bucket, keep.max(1)).await?;
    Ok(manifest)
}

/// Every object name in the bucket.
async fn names(bucket: &object_store::ObjectStore) -> Result<Vec<String>, String> {
    let mut list = bucket
        .list()
        .await
        .map_err(|e| format!("listing the checkpoints: {e}"))?;
    let mut out = Vec::new();
    while let Some(info) = list.next().await {
        out.push(
            info.map_err(|e| format!("listing the checkpoints: {e}"))?
                .name,
        );
    }
    Ok(out)
}

/// The prefixes of complete checkpoints (those with a manifest), oldest first.
fn complete(names: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = names
        .iter()
        .filter_map(|n| n.strip_suffix("/manifest"))
        .collect();
    out.sort_unstable();
    out
}

/// How old the files of a checkpoint without a manifest must be before they are taken for the
/// leftovers of an interrupted upload (another node may be uploading them still).
const ORPHAN_AGE_MS: u64 = 24 * 3600 * 1000;

/// The objects [`prune`] deletes, manifests first (so a checkpoint is never fetched with files
/// missing): every complete checkpoint but the newest `keep`, and the files of checkpoints
/// without a manifest older than the newest complete one and than [`ORPHAN_AGE_MS`].
fn doomed(all: &[String], keep: usize, now_ms: u64) -> Vec<&String> {
    let done = complete(all);
    let Some(newest) = done.last().copied() else {
        return Vec::new();
    };
    let kept = &done[done.len().saturating_sub(keep)..];
    let mut out: Vec<&String> = all
        .iter()
        .filter(|n| {
            let prefix = n.split('/').next().unwrap_or_default();
            let created = prefix
                .split_once('-')
                .and_then(|(_, c)| c.parse::<u64>().ok())
                .unwrap_or(0);
            prefix < newest
                && !kept.contains(&prefix)
                && (done.contains(&prefix) || created.saturating_add(ORPHAN_AGE_MS) < now_ms)
        })
        .collect();
    out.sort_by_key(|n| !n.ends_with("/manifest"));
    out
}

/// Deletes what [`doomed`] names; an object another node deleted meanwhile is no error.
async fn prune(bucket: &object_store::ObjectStore, keep: usize) -> Result<(), String> {
    let all = names(bucket).await?;
    for name in doomed(&all, keep, crate::status::now_ms()) {
        match bucket.delete(name).await {
            Ok(()) => {}
            Err(e) if e.kind() == object_store::DeleteErrorKind::NotFound => {}
            Err(e) => return Err(format!("deleting the old checkpoint object {name}: {e}")),
        }
    }
    Ok(())
}

/// The manifests of the checkpoints the bucket holds, oldest first (none when there is no
/// bucket).
pub async fn list_checkpoints(config: &FleetConfig) -> Result<Vec<Manifest>, String> {
    let (_client, js) = connect(config).await?;
    let Some(bucket) = bucket(&js, config, false).await? else {
        return Ok(Vec::new());
    };
    let all = names(&bucket).await?;
    let mut out = Vec::new();
    for prefix in complete(&all) {
        out.push(read_manifest(&bucket, prefix).await?);
    }
    Ok(out)
}

async fn read_manifest(
    bucket: &object_store::ObjectStore,
    prefix: &str,
) -> Result<Manifest, String> {
    let mut object = bucket
        .get(format!("{prefix}/manifest"))
        .await
        .map_err(|e| format!("reading the manifest of checkpoint {prefix}: {e}"))?;
    let mut text = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut object, &mut text)
        .await
        .map_err(|e| format!("reading the manifest of checkpoint {prefix}: {e}"))?;
    Manifest::decode(&text)
}

/// Downloads the newest checkpoint of the bucket into `into` (created; it must not exist),
/// checking every file's size and SHA-256 against the manifest. `None` when the bucket holds
/// no checkpoint. On an error `into` may hold part of it: the caller renames it into place
/// only once this returns the manifest.
pub async fn fetch_checkpoint(
    config: &FleetConfig,
    into: &Path,
) -> Result<Option<Manifest>, String> {
    let (_client, js) = connect(config).await?;
    let Some(bucket) = bucket(&js, config, false).await? else {
        return Ok(None);
    };
    let all = names(&bucket).await?;
    let Some(prefix) = complete(&all).last().copied() else {
        return Ok(None);
    };
    let manifest = read_manifest(&bucket, prefix).await?;
    tokio::fs::create_dir(into)
        .await
        .map_err(|e| format!("creating {}: {e}", into.display()))?;
    for f in &manifest.files {
        let object = bucket
            .get(format!("{prefix}/files/{}", f.name))
            .await
            .map_err(|e| format!("fetching {} of checkpoint {prefix}: {e}", f.name))?;
        let path = into.join(&f.name);
        let mut out = tokio::fs::File::create(&path)
            .await
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
        let mut reader = Hashing::new(object);
        tokio::io::copy(&mut reader, &mut out)
            .await
            .map_err(|e| format!("fetching {} of checkpoint {prefix}: {e}", f.name))?;
        out.sync_all()
            .await
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
        let (size, sha256) = reader.finish();
        if (size, &sha256) != (f.size, &f.sha256) {
            return Err(format!(
                "checkpoint {prefix} (batch {}) is damaged: its file {} has {size} bytes with \
                 SHA-256 {sha256}, the manifest says {} bytes with SHA-256 {}",
                manifest.seq, f.name, f.size, f.sha256
            ));
        }
    }
    Ok(Some(manifest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_keeps_the_newest_complete_checkpoints_and_uploads_that_may_be_under_way() {
        let now = 100 * ORPHAN_AGE_MS;
        let name = |seq: u64, created: u64, file: &str| format!("{seq:020}-{created:020}/{file}");
        let all = vec![
            // Complete, oldest to newest.
            name(5, 10, "files/CURRENT"),
            name(5, 10, "manifest"),
            name(7, 20, "files/CURRENT"),
            name(7, 20, "manifest"),
            name(9, now - 5, "files/CURRENT"),
            name(9, now - 5, "manifest"),
            // Interrupted long ago, older than the newest: a leftover.
            name(6, 15, "files/CURRENT"),
            // Without a manifest and recent: another node may be uploading it.
            name(8, now - 10, "files/CURRENT"),
            // Newer than the newest complete one: under way.
            name(10, 30, "files/CURRENT"),
        ];
        let doomed: Vec<&str> = doomed(&all, 2, now)
            .into_iter()
            .map(String::as_str)
            .collect();
        assert_eq!(
            doomed,
            [
                name(5, 10, "manifest"),
                name(5, 10, "files/CURRENT"),
                name(6, 15, "files/CURRENT"),
            ]
        );
        assert!(super::doomed(&all[..0], 2, now).is_empty());
        assert_eq!(super::doomed(&all, 3, now).len(), 1);
    }

    #[test]
    fn a_manifest_reads_back_as_written_and_refuses_what_it_cannot_read() {
        let m = Manifest {
            seq: 42,
            committed_ms: 1_700_000_000_123,
            schema_version: 9,
            created_ms: 1_700_000_000_456,
            files: vec![CheckpointFile {
                name: "000012.sst".to_owned(),
                size: 77,
                sha256: "ab".repeat(32),
            }],
        };
        assert_eq!(Manifest::decode(&m.encode()), Ok(m.clone()));
        assert_eq!(m.prefix(), "00000000000000000042-00000001700000000456");
        assert_eq!(m.bytes(), 77);
        let text = m.encode();
        for bad in [
            text.replacen(MAGIC, "snowline-checkpoint 2", 1),
            text.replacen("seq 42\n", "", 1),
            text.replacen("000012.sst", "../etc/passwd", 1),
            text.replacen(" 77 ", " x ", 1),
            format!("{text}extra line\n"),
        ] {
            assert!(Manifest::decode(&bad).is_err(), "{bad}");
        }
    }
}
