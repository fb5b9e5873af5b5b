//! `serve --live-rate`: the devnet going on after its history, appended to the index (with the
//! X-Chain state) at a set rate on a thread of its own until the server stops.

use std::sync::Arc;
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use snowline_devnet::Devnet;
use snowline_node_index::{IndexError, IndexWriter, LiveStats, run_live};
use snowline_node_rpc::platform::CurrentValidators;
use snowline_store::Store;
use snowline_types::network::NetworkInfo;

/// The running live devnet.
pub struct Live {
    stop: Sender<()>,
    thread: JoinHandle<Result<LiveStats, String>>,
}

/// The wall clock in Unix nanoseconds (what the live devnet stamps acceptance with).
fn wall_clock_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Starts appending `devnet`'s live continuation to `store` at `rate` containers per second,
/// keeping `validators` at the devnet's current validators after each step.
pub fn start(
    store: Arc<Store>,
    devnet: Devnet,
    rate: f64,
    validators: Arc<CurrentValidators>,
) -> Result<Live, String> {
    let mut live = devnet
        .into_live()
        .map_err(|e| format!("live devnet: {e}"))?;
    let (stop, stopped) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("live-devnet".into())
        .spawn(move || {
            let mut writer = IndexWriter::open(&*store).map_err(|e| e.to_string())?;
            let mut clock = wall_clock_ns;
            let result = run_live(
                &store,
                &mut writer,
                // The devnet is a local network.
                &mut crate::data::state(&NetworkInfo::LOCAL),
                rate,
                &stopped,
                || {
                    let records = live
                        .step(&mut clock)
                        .map_err(|e| IndexError::Source(format!("devnet: {e}")))?;
                    validators.set(live.devnet().current_validators().validators);
                    Ok(records)
                },
            )
            .map_err(|e| format!("live devnet: {e}"));
            if let Err(e) = &result {
                // Said at once: the server goes on serving what the index holds.
                eprintln!("node-rpc: {e}; no more new containers");
            }
            result
        })
        .map_err(|e| format!("cannot start the live devnet: {e}"))?;
    Ok(Live { stop, thread })
}

impl Live {
    /// Stops the loop (between two steps) and waits for it; says what it appended.
    pub fn stop(self) -> Result<(), String> {
        // A send fails only when the loop has ended already; the join says how.
        let _ = self.stop.send(());
        let stats = self
            .thread
            .join()
            .map_err(|_| "the live devnet thread panicked".to_owned())??;
        println!(
            "node-rpc: live devnet stopped after {} new containers",
            stats.added
        );
        Ok(())
    }
}
