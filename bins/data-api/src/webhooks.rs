//! The webhooks `serve` runs: the operations over the index store, the hooks that queue events
//! with the EVM chains' and the P-Chain's batches, and the delivery task (started once the
//! server listens).

use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::BlockHooks;
use snowline_store::Store;
use snowline_webhooks::{DeliveryConfig, Limits, PlatformHook, Wakers, WebhookHook, Webhooks};
use tokio::task::JoinHandle;

use crate::cli::ServeArgs;

/// The webhooks of one server.
pub struct WebhookService {
    /// The operations, for the routes.
    pub webhooks: Arc<Webhooks>,
    written: Arc<Wakers>,
    config: DeliveryConfig,
}

impl WebhookService {
    /// Loads the webhooks `store` holds.
    pub fn open(store: &Arc<Store>, args: &ServeArgs) -> Result<Self, String> {
        let limits = Limits {
            queued: args.webhook_max_queued.max(1),
            ..Limits::default()
        };
        let webhooks = Webhooks::open(Arc::clone(store), limits)
            .map_err(|e| format!("cannot load the webhooks: {e}"))?;
        let written = Arc::clone(webhooks.wakers());
        Ok(Self {
            webhooks: Arc::new(webhooks),
            written,
            config: DeliveryConfig {
                allow: args.webhook_allow_private.clone(),
                retries: args.webhook_retries.0.clone(),
                timeout: Duration::from_millis(args.webhook_timeout_ms.max(1)),
                concurrency: args.webhook_concurrency.max(1),
            },
        })
    }

    /// The block hooks that queue every EVM chain's events.
    pub fn hooks(&self) -> BlockHooks {
        WebhookHook::hooks(
            self.webhooks.registry().clone(),
            Arc::clone(&self.written),
            self.webhooks.limits().queued,
        )
    }

    /// The P-Chain hook that queues `validator_activity` events.
    pub fn platform_hook(&self) -> PlatformHook {
        PlatformHook::new(
            self.webhooks.registry().clone(),
            Arc::clone(&self.written),
            self.webhooks.limits().queued,
        )
    }

    /// Starts delivering.
    pub fn start(&self) -> JoinHandle<()> {
        tokio::spawn(snowline_webhooks::deliver::run(
            Arc::clone(&self.webhooks),
            self.config.clone(),
            Arc::clone(&self.written),
        ))
    }
}
