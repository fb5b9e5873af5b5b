//! `serve --publish` and `serve --replica-of`: the store's journal role, set before anything
//! writes; the fleet's task, started once the server listens; its `/readyz` check and metrics.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use snowline_fleet::{FleetConfig, FleetStatus, Role};
use snowline_rest_api::Check;
use snowline_store::{JournalRole, Store};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::cli::FleetArgs;

/// This server's part in a fleet.
pub struct Fleet {
    role: Role,
    config: FleetConfig,
    /// Where it stands, for `/readyz` and `/metrics`.
    pub status: Arc<FleetStatus>,
    max_lag_secs: f64,
    /// Why the primary stopped publishing for good (another primary publishes), once it has.
    fenced: Arc<(Mutex<Option<String>>, Notify)>,
}

impl Fleet {
    /// The fleet the flags describe (`None`: a standalone server), with `store`'s journal role
    /// set accordingly.
    pub fn prepare(store: &Store, args: &FleetArgs) -> Result<Option<Self>, String> {
        let (role, url) = match (&args.publish, &args.replica_of) {
            (Some(url), _) => (Role::Primary, url),
            (None, Some(url)) => (Role::Replica, url),
            (None, None) => return Ok(None),
        };
        let config = FleetConfig {
            url: url.clone(),
            stream: args.stream.clone(),
            replicas: args.stream_replicas,
            max_age: Duration::from_secs(args.stream_max_age_hours.max(1).saturating_mul(3600)),
        };
        config.validate()?;
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

/// `data-api checkpoint`: a checkpoint of the index in `dir` written to `to`.
pub fn checkpoint(dir: &Path, to: &Path) -> Result<(), String> {
    let store = crate::ingest::open(&dir.join("index"))?;
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
    Ok(())
}

/// `--bootstrap-from`: copies the checkpoint `from` in as the index `index` when there is none.
pub fn bootstrap(index: &Path, from: Option<&Path>) -> Result<(), String> {
    let Some(from) = from else { return Ok(()) };
    if index.join("CURRENT").exists() {
        return Ok(());
    }
    // Copied beside the index, then renamed: an interrupted copy is never taken for an index.
    let partial = index.with_extension("partial");
    let copied = std::fs::remove_dir_all(&partial)
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Ok(()),
            _ => Err(e),
        })
        .and_then(|()| copy_dir(from, &partial))
        .and_then(|()| {
            // An index directory without a store in it (a failed open) gives way.
            if index.exists() {
                std::fs::remove_dir_all(index)?;
            }
            std::fs::rename(&partial, index)
        });
    copied.map_err(|e| {
        format!(
            "cannot copy the checkpoint {} to {}: {e}",
            from.display(),
            index.display()
        )
    })?;
    println!(
        "data-api: index started from the checkpoint {}",
        from.display()
    );
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
