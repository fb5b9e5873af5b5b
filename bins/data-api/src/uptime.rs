//! The poller beside the follower: every `--uptime-poll-s` (30 s by default) it asks the followed node's
//! `platform.getCurrentValidators` (on `/ext/bc/P`) for the primary network's current
//! validators and stores each one's uptime and connection with `chain_p::record_uptimes`
//! (`docs/pchain-history.md`, "Uptimes"). A node that does not answer the method leaves the
//! index without uptimes; that is said once, and the poller keeps asking.

use std::sync::Arc;
use std::time::Duration;

use snowline_jsonrpc_client::RpcClient;
use snowline_store::Store;
use snowline_types::platformvm::current_validators::{
    GetCurrentValidatorsArgs, GetCurrentValidatorsReply,
};

/// Polls `upstream` until `shutdown`, first at once.
pub async fn poll(
    store: Arc<Store>,
    upstream: &str,
    every: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let url = format!("{}/ext/bc/P", upstream.trim_end_matches('/'));
    let client = RpcClient::new(&url)
        .map_err(|e| format!("upstream {url}: {e}"))?
        .with_timeout(Duration::from_secs(30));
    tokio::pin!(shutdown);
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_error: Option<String> = None;
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = &mut shutdown => return Ok(()),
        }
        let answer = client
            .call::<_, GetCurrentValidatorsReply>(
                "platform.getCurrentValidators",
                GetCurrentValidatorsArgs::default(),
            )
            .await;
        let outcome = match answer {
            Ok(reply) => {
                let store = Arc::clone(&store);
                tokio::task::spawn_blocking(move || {
                    snowline_chain_p::record_uptimes(&store, &reply.validators, now_s())
                })
                .await
                .map_err(|e| format!("storing uptimes: {e}"))
                .and_then(|r| r.map_err(|e| format!("storing uptimes: {e}")))
            }
            Err(e) => Err(format!(
                "{url} gives no validator uptimes (platform.getCurrentValidators: {e})"
            )),
        };
        match outcome {
            Ok(n) => {
                last_error = None;
                tracing::debug!(validators = n, "validator uptimes stored");
            }
            Err(e) => {
                if last_error.as_deref() != Some(e.as_str()) {
                    tracing::warn!(error = %e, "no validator uptimes");
                    eprintln!("data-api: {e}");
                    last_error = Some(e);
                }
            }
        }
    }
}

fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
