//! `serve --publish` and `serve --replica-of`: the store's journal role, set before anything
//! writes; the fleet's task, started once the server listens; its `/readyz` check and metrics.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use snowline_fleet::{CheckpointAt, FleetConfig, FleetStatus, Role};
use snowline_rest_api::Check;
use snowline_store::{JournalRole, Store};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::cli::{CheckpointArgs, FleetArgs};

/// This server's part in a fleet.
pub struct Fleet {
    role: Role,
    config: FleetConfig,
    /// Where it stands, for `/readyz` and `/metrics`.
    pub status: Arc<FleetStatus>,
    max_lag_secs: f64,
    /// Why the primary stopped publishing for good (another primary publishes), once it has.
    fenced: Arc<(Mutex<Option<String>>, Notify)>,
    /// How often a checkpoint is published, and how many the bucket keeps.
    checkpoints: Option<(Duration, usize)>,
}

impl Fleet {
    /// The fleet the flags describe (`None`: a standalone server), with `store`'s journal role
    /// set accordingly.
    pub fn prepare(store: &Store, args: &FleetArgs) -> Result<Option<Self>, String> {
        let (role, url) = match (&args.publish, &args.replica_of) {
            (Some(url), _) => (Role::Primary, url),
            (None, Some(url)) => (Role::Replica, url),
            (None, None) if args.checkpoint_every.is_some() => {
                return Err(
                    "--checkpoint-every publishes to a fleet: give --publish or --replica-of"
                        .to_owned(),
                );
            }
            (None, None) => return Ok(None),
        };
        let config = FleetConfig {
            url: url.clone(),
            stream: args.stream.clone(),
            replicas: args.stream_replicas,
            max_age: Duration::from_secs(args.stream_max_age_hours.max(1).saturating_mul(3600)),
        };
        config.validate()?;
        let checkpoints = checkpoint_schedule(args)?;
        store
            .set_journal_role(match role {
                Role::Primary => JournalRole::Primary,
                Role::Replica => JournalRole::Replica,
            })
            .map_err(|e| format!("cannot prepare the store for the fleet: {e}"))?;
        let pos = store
            .journal_position()
            .map_err(|e| format!("cannot read the store's position: {e}"))?;
        Ok(Some(Self {
            role,
            config,
            status: Arc::new(FleetStatus::new(role, pos.seq, pos.committed_ms)),
            max_lag_secs: args.max_lag_ms as f64 / 1000.0,
            fenced: Arc::default(),
            checkpoints,
        }))
    }

    /// The fleet's NATS servers and stream.
    pub fn config(&self) -> &FleetConfig {
        &self.config
    }

    /// Whether this server is a replica (it then writes nothing of its own).
    pub fn is_replica(&self) -> bool {
        self.role == Role::Replica
    }

    /// Starts publishing or applying, until SIGINT/SIGTERM; a primary fenced off by another
    /// stops publishing and says why through [`fenced`](Self::fenced).
    pub fn start(&self, store: &Arc<Store>) -> JoinHandle<()> {
        let (store, config, status) = (
            Arc::clone(store),
            self.config.clone(),
            Arc::clone(&self.status),
        );
        let servers = config.url.clone();
        match self.role {
            Role::Primary => {
                println!(
                    "data-api: publishing every batch to stream {} on {servers}",
                    config.stream
                );
                let fenced = Arc::clone(&self.fenced);
                tokio::spawn(async move {
                    let published = snowline_fleet::publish(
                        store,
                        config,
                        status,
                        snowline_rest_api::shutdown_signal(),
                    )
                    .await;
                    if let Err(e) = published {
                        if let Ok(mut why) = fenced.0.lock() {
                            *why = Some(e);
                        }
                        fenced.1.notify_one();
                    }
                })
            }
            Role::Replica => {
                println!("data-api: replica of stream {} on {servers}", config.stream);
                tokio::spawn(snowline_fleet::replicate(
                    store,
                    config,
                    status,
                    snowline_rest_api::shutdown_signal(),
                ))
            }
        }
    }

    /// Starts publishing a checkpoint of `store` (whose data directory is `data_dir`) every
    /// `--checkpoint-every` hours, when given.
    pub fn start_checkpoints(&self, store: &Arc<Store>, data_dir: &Path) -> Option<JoinHandle<()>> {
        let (every, keep) = self.checkpoints?;
        println!(
            "data-api: a checkpoint every {} s to {} (the newest {keep} kept)",
            every.as_secs_f64(),
            snowline_fleet::checkpoint_bucket(&self.config)
        );
        Some(checkpoint_task(
            Arc::clone(store),
            data_dir.to_path_buf(),
            self.config.clone(),
            Arc::clone(&self.status),
            (every, keep),
        ))
    }

    /// Returns once this primary has stopped publishing because another primary publishes on
    /// its stream, with why: the server then stops (a fenced primary serves nothing more).
    pub async fn fenced(&self) -> String {
        loop {
            if let Some(why) = self.stop_reason() {
                return why;
            }
            self.fenced.1.notified().await;
        }
    }

    /// Why this primary was fenced off, if it was.
    pub fn stop_reason(&self) -> Option<String> {
        self.fenced.0.lock().ok().and_then(|why| why.clone())
    }

    /// The `fleet` component of `/readyz`.
    pub fn check(&self) -> Check {
        match self.status.snapshot().problem(self.max_lag_secs) {
            Some(problem) => Check::down("fleet", problem),
            None => Check::up("fleet"),
        }
    }
}

/// `--checkpoint-every` and `--checkpoint-keep`, checked: every kept checkpoint's next batch
/// must still be on the stream, so `every × keep` stays within the stream's retention.
fn checkpoint_schedule(args: &FleetArgs) -> Result<Option<(Duration, usize)>, String> {
    let Some(hours) = args.checkpoint_every else {
        return Ok(None);
    };
    if !(hours.is_finite() && hours > 0.0) {
        return Err(format!(
            "--checkpoint-every {hours}: give a positive number of hours"
        ));
    }
    if args.checkpoint_keep == 0 {
        return Err("--checkpoint-keep 0: keep at least one checkpoint".to_owned());
    }
    let max_age = args.stream_max_age_hours.max(1) as f64;
    if hours * args.checkpoint_keep as f64 > max_age {
        return Err(format!(
            "--checkpoint-every {hours} × --checkpoint-keep {} is more than the stream keeps \
             (--stream-max-age-hours {max_age}): the oldest kept checkpoint's next batch would be \
             gone from the stream",
            args.checkpoint_keep
        ));
    }
    let every = Duration::try_from_secs_f64(hours * 3600.0)
        .map_err(|e| format!("--checkpoint-every {hours}: {e}"))?;
    Ok(Some((every, args.checkpoint_keep)))
}

/// `data-api checkpoint`: a checkpoint of the index in `DATA_DIR` written to a path, or
/// published to the fleet's checkpoint bucket with `--to`.
pub fn checkpoint(args: &CheckpointArgs) -> Result<(), String> {
    let dir = &args.common.data_dir;
    let store = crate::ingest::open(&dir.join("index"))?;
    let Some(url) = &args.to else {
        let to = args
            .path
            .as_deref()
            .ok_or_else(|| "give a path or --to NATS_URLS".to_owned())?;
        store
            .checkpoint(to)
            .map_err(|e| format!("cannot write a checkpoint to {}: {e}", to.display()))?;
        let pos = store
            .journal_position()
            .map_err(|e| format!("cannot read the position: {e}"))?;
        println!(
            "data-api: checkpoint at batch {} written to {}",
            pos.seq,
            to.display()
        );
        return Ok(());
    };
    let config = FleetConfig {
        url: url.clone(),
        stream: args.stream.clone(),
        replicas: args.stream_replicas,
        max_age: Duration::from_secs(3600),
    };
    config.validate()?;
    let tmp = dir.join(CHECKPOINT_DIR);
    let at = take_checkpoint(&store, &tmp)?;
    drop(store);
    let published = snowline_cli::runtime()?.block_on(snowline_fleet::publish_checkpoint(
        &config, &tmp, at, args.keep,
    ));
    remove_if_there(&tmp).map_err(|e| format!("cannot remove {}: {e}", tmp.display()))?;
    let m = published?;
    println!(
        "data-api: checkpoint at batch {} published to {} on {url} ({} files, {} bytes)",
        m.seq,
        snowline_fleet::checkpoint_bucket(&config),
        m.files.len(),
        m.bytes()
    );
    Ok(())
}

/// Where a checkpoint on its way to the object store is written, in the data directory (the
/// index's filesystem, so its files are hard links), and removed once published.
const CHECKPOINT_DIR: &str = "checkpoint-publishing";

/// Writes a checkpoint of `store` (running or not: RocksDB flushes first) to `tmp`, replacing
/// what an earlier interrupted one left there, and says where it stands: its own position,
/// read from the checkpoint, since a running store moves on while it is taken.
fn take_checkpoint(store: &Store, tmp: &Path) -> Result<CheckpointAt, String> {
    remove_if_there(tmp).map_err(|e| format!("cannot remove {}: {e}", tmp.display()))?;
    store
        .checkpoint(tmp)
        .map_err(|e| format!("cannot write a checkpoint to {}: {e}", tmp.display()))?;
    let schema = crate::ingest::schema();
    let taken = Store::open_read_only(tmp, &schema)
        .map_err(|e| format!("cannot open the checkpoint {}: {e}", tmp.display()))?;
    let pos = taken
        .journal_position()
        .map_err(|e| format!("cannot read the checkpoint's position: {e}"))?;
    Ok(CheckpointAt {
        seq: pos.seq,
        committed_ms: pos.committed_ms,
        schema_version: schema.version(),
    })
}

/// Every `every`, a checkpoint of the running index published to the fleet's bucket (`keep`
/// kept), counted in `status`; a failure is reported and the next period tries again.
fn checkpoint_task(
    store: Arc<Store>,
    data_dir: PathBuf,
    config: FleetConfig,
    status: Arc<FleetStatus>,
    (every, keep): (Duration, usize),
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let bucket = snowline_fleet::checkpoint_bucket(&config);
        loop {
            tokio::time::sleep(every).await;
            let tmp = data_dir.join(CHECKPOINT_DIR);
            let (s, t) = (Arc::clone(&store), tmp.clone());
            let taken = tokio::task::spawn_blocking(move || take_checkpoint(&s, &t))
                .await
                .map_err(|e| format!("the checkpoint's task failed: {e}"))
                .and_then(|r| r);
            let published = match taken {
                // A store that holds no batch yet has nothing a replica could start from.
                Ok(at) if at.seq == 0 => Err("the index holds no batch yet".to_owned()),
                Ok(at) => snowline_fleet::publish_checkpoint(&config, &tmp, at, keep).await,
                Err(e) => Err(e),
            };
            let t = tmp.clone();
            let removed = tokio::task::spawn_blocking(move || remove_if_there(&t)).await;
            if let Ok(Err(e)) = removed {
                eprintln!("data-api: cannot remove {}: {e}", tmp.display());
            }
            match published {
                Ok(m) => {
                    status.update(|s| {
                        s.checkpoint_seq = m.seq;
                        s.checkpoint_ms = m.created_ms;
                        s.checkpoints += 1;
                    });
                    println!(
                        "data-api: checkpoint at batch {} published to {bucket} ({} files, {} \
                         bytes)",
                        m.seq,
                        m.files.len(),
                        m.bytes()
                    );
                }
                Err(e) => {
                    status.update(|s| s.checkpoint_failures += 1);
                    eprintln!("data-api: checkpoint not published: {e}");
                }
            }
        }
    })
}

fn remove_if_there(dir: &Path) -> std::io::Result<()> {
    std::fs::remove_dir_all(dir).or_else(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Ok(()),
        _ => Err(e),
    })
}

/// `--bootstrap-from`: when `index` holds no store yet, the checkpoint `from` becomes it: a
/// path is copied in; NATS servers (`nats://...`) give the newest checkpoint of the fleet's
/// bucket, downloaded and checked. Either is written beside the index and renamed into place
/// at the end, so an interrupted or damaged copy never becomes the index.
pub async fn bootstrap(index: &Path, args: &FleetArgs) -> Result<(), String> {
    let Some(from) = args.bootstrap_from.as_deref() else {
        return Ok(());
    };
    if index.join("CURRENT").exists() {
        return Ok(());
    }
    let partial = index.with_extension("partial");
    remove_if_there(&partial).map_err(|e| format!("cannot remove {}: {e}", partial.display()))?;
    let what = if from.contains("://") {
        let config = FleetConfig {
            url: from.to_owned(),
            stream: args.stream.clone(),
            replicas: args.stream_replicas,
            max_age: Duration::from_secs(3600),
        };
        config.validate()?;
        let bucket = snowline_fleet::checkpoint_bucket(&config);
        let fetched = match snowline_fleet::fetch_checkpoint(&config, &partial).await {
            Ok(None) => {
                // A new fleet's first replicas start before any checkpoint is published: the
                // stream then still holds batch 1 (or the replica says on /readyz that it
                // does not).
                println!(
                    "data-api: no checkpoint in the bucket {bucket} on {from} yet: the index \
                     starts empty, from the stream's first batch"
                );
                return Ok(());
            }
            fetched => fetched,
        };
        let checked = fetched.and_then(|m| {
            let m = m.ok_or_else(|| format!("no checkpoint in the bucket {bucket} on {from}"))?;
            let version = crate::ingest::schema().version();
            if m.schema_version != version {
                return Err(format!(
                    "the checkpoint at batch {} was written under schema version {}, this \
                     data-api has {version}",
                    m.seq, m.schema_version
                ));
            }
            Ok(m)
        });
        let m = match checked {
            Ok(m) => m,
            Err(e) => {
                drop(remove_if_there(&partial));
                return Err(format!("cannot start from a checkpoint: {e}"));
            }
        };
        format!(
            "the checkpoint at batch {} of {bucket} on {from} ({} files, {} bytes, checked)",
            m.seq,
            m.files.len(),
            m.bytes()
        )
    } else {
        let from = Path::new(from);
        copy_dir(from, &partial).map_err(|e| {
            format!(
                "cannot copy the checkpoint {} to {}: {e}",
                from.display(),
                partial.display()
            )
        })?;
        format!("the checkpoint {}", from.display())
    };
    // An index directory without a store in it (a failed open) gives way.
    remove_if_there(index)
        .and_then(|()| std::fs::rename(&partial, index))
        .map_err(|e| format!("cannot move the checkpoint to {}: {e}", index.display()))?;
    println!("data-api: index started from {what}");
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    fn schedule(flags: &[&str]) -> Result<Option<(Duration, usize)>, String> {
        let args = ["data-api", "serve", "--replica-of", "nats://127.0.0.1:4222"]
            .iter()
            .chain(flags);
        match Cli::try_parse_from(args)
            .map_err(|e| e.to_string())?
            .command
        {
            Command::Serve(a) => checkpoint_schedule(&a.fleet),
            _ => Err("not serve".to_owned()),
        }
    }

    #[test]
    fn checkpoints_are_kept_only_within_the_streams_retention() {
        assert_eq!(schedule(&[]), Ok(None));
        assert_eq!(
            schedule(&["--checkpoint-every", "24"]),
            Ok(Some((Duration::from_secs(86_400), 2)))
        );
        // 84 h × 2 fills the default week exactly; one more checkpoint does not fit.
        assert!(schedule(&["--checkpoint-every", "84"]).is_ok_and(|s| s.is_some()));
        for bad in [
            &["--checkpoint-every", "84", "--checkpoint-keep", "3"][..],
            &["--checkpoint-every", "0"],
            &["--checkpoint-every", "-1"],
            &["--checkpoint-every", "NaN"],
            &["--checkpoint-every", "1", "--checkpoint-keep", "0"],
            &[
                "--checkpoint-every",
                "1e300",
                "--stream-max-age-hours",
                "18446744073709551615",
            ],
        ] {
            assert!(schedule(bad).is_err(), "{bad:?}");
        }
    }
}
