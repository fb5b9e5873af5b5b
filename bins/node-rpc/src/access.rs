//! The API keys and the metering of `serve` and `follow`: the Data API's key store followed as
//! a secondary, the metered calls written to `DATA_DIR/rpc-usage`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use snowline_access::keys::{ApiKeys, CatchUp};
use snowline_access::rpc::{MeterConfig, RpcMeter, RpcUsageLog};
use snowline_node_rpc::gate::RpcGate;
use snowline_types::NetworkInfo;

use crate::cli::AccessArgs;

/// The gate and what keeps it current; drop after the server has stopped (the meter then
/// writes what is queued).
pub struct Access {
    /// The server's gate.
    pub gate: Arc<RpcGate>,
    _catch_up: Option<CatchUp>,
}

/// Opens the key store (when `--keys-from`) and the meter (unless `--no-metering`).
pub fn open(args: &AccessArgs, data_dir: &Path, network: &NetworkInfo) -> Result<Access, String> {
    let (keys, catch_up) = match &args.keys_from {
        Some(path) => {
            let keys = ApiKeys::open_secondary(path, data_dir.join("keys-secondary"))
                .map_err(|e| format!("API keys at {}: {e}", path.display()))?;
            let keys = Arc::new(keys);
            let catch_up = CatchUp::start(Arc::clone(&keys), Duration::from_secs(1))
                .map_err(|e| format!("API keys: {e}"))?;
            (Some(keys), Some(catch_up))
        }
        None => (None, None),
    };
    let meter = if args.no_metering {
        None
    } else {
        let dir = data_dir.join("rpc-usage");
        let log =
            RpcUsageLog::open(&dir).map_err(|e| format!("RPC usage at {}: {e}", dir.display()))?;
        let config = MeterConfig {
            retention: Some(Duration::from_secs(args.usage_retention_days * 86_400)),
            ..MeterConfig::default()
        };
        Some(Arc::new(
            RpcMeter::start(log, config).map_err(|e| format!("RPC usage: {e}"))?,
        ))
    };
    let gate = RpcGate::new(network.clone(), keys, args.require_api_key, meter);
    Ok(Access {
        gate: Arc::new(gate),
        _catch_up: catch_up,
    })
}
