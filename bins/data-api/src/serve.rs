//! `data-api serve`: opens the stores, builds the endpoints on the REST edge, serves until
//! SIGINT/SIGTERM, then drains the usage writer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use snowline_access::keys::{ApiKeys, CatchUp};
use snowline_access::rpc::RpcUsageLog;
use snowline_access::usage::{UsageLog, UsageWriter, WriterConfig};
use snowline_chain_evm::export::Exports;
use snowline_chain_evm::pages::EvmPages;
use snowline_chain_evm::{SyncStatus, TokenCache};
use snowline_chain_icm::IcmPages;
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::ChainRegistry;
use snowline_chain_x::history::XHistoryPages;
use snowline_data_api::chains;
use snowline_data_api::evm::NoPrices;
use snowline_data_api::rpc_usage::RpcUsage;
use snowline_fleet::FleetMetrics;
use snowline_node_index::{FollowMetrics, FollowStatus, StoreMetrics};
use snowline_rest_api::prometheus_client::metrics::gauge::Gauge;
use snowline_rest_api::{
    App, Check, Limiter, Profile, RateLimits, Readiness, Router, Server, ServerConfig, TierLimit,
};
use snowline_types::network::NetworkInfo;
use snowline_types::warp::{AddressedCall, Payload, UnsignedMessage};

use crate::adapters::{StoreKeys, StoreUsage};
use crate::cli::{CompatArg, ServeArgs};
use snowline_cli::GenesisSource;

/// Runs the server (blocking until it stops).
pub fn run(args: ServeArgs) -> Result<(), String> {
    std::fs::create_dir_all(&args.common.data_dir)
        .map_err(|e| format!("cannot create {}: {e}", args.common.data_dir.display()))?;
    snowline_cli::runtime()?.block_on(serve(args))
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let dir = args.common.data_dir.clone();
    let network = args.network.resolve()?;
    let started_ms = now_ms();
    let secret = crate::secret::load_or_create(&dir, args.token_secret.as_deref())?;
    crate::fleet::bootstrap(&dir.join("index"), &args.fleet).await?;
    let store = crate::ingest::open(&dir.join("index"))?;
    // A primary journals from its first write on; a replica writes nothing of its own.
    let fleet = crate::fleet::Fleet::prepare(&store, &args.fleet)?.map(Arc::new);
    let replica = fleet.as_ref().is_some_and(|f| f.is_replica());
    // In a fleet, the token secret, the keys and the usage are the fleet's.
    let shared = match &fleet {
        Some(f) => Some(crate::shared::Shared::open(&dir, f.config().clone())?),
        None => None,
    };
    let secret = match &shared {
        Some(s) => s.token_secret(secret, args.token_secret.is_some()).await?,
        None => secret,
    };
    let example_address = match args.genesis {
        GenesisSource::Devnet if !replica => Some(crate::ingest::apply_devnet_genesis(
            &store,
            network,
            args.devnet,
        )?),
        GenesisSource::Devnet | GenesisSource::None => None,
    };
    let api_keys = Arc::new(
        ApiKeys::open_secondary(dir.join("keys"), dir.join("keys-secondary"))
            .map_err(|e| format!("cannot open the keys store: {e}"))?,
    );
    // The keys secondary catches up with the CLI every second, on a thread of its own.
    let keys_catch_up = CatchUp::start(Arc::clone(&api_keys), Duration::from_secs(1))
        .map_err(|e| format!("cannot follow the keys store: {e}"))?;
    let keys = Arc::new(StoreKeys(
        Arc::clone(&api_keys),
        shared.as_ref().map(|s| Arc::clone(&s.keys)),
    ));
    let limiter = Arc::new(Limiter::new(&rate_limits(&args)).map_err(|e| e.to_string())?);
    let usage_age = Duration::from_secs(args.usage_retention_days.max(1).saturating_mul(86_400));
    let (log, writer, shared_tasks) = match &shared {
        None => {
            let log = Arc::new(UsageLog::new(Arc::clone(&store)));
            let writer = UsageWriter::start((*log).clone(), WriterConfig::default())
                .map_err(|e| format!("cannot start the usage writer: {e}"))?;
            (log, writer, None)
        }
        Some(s) => {
            let (writer, append) = s.writer(usage_age)?;
            let read = s.read_usage(
                usage_age,
                Arc::clone(&limiter),
                Arc::clone(&api_keys),
                started_ms,
            );
            (
                Arc::clone(&s.log),
                writer,
                Some((append, [read, s.watch_keys()])),
            )
        }
    };
    let usage = Arc::new(StoreUsage(writer));
    let mut registry = ChainRegistry::builtin_with(args.chains.as_deref())?;
    let evm_sources = crate::evm::sources(&args)?;
    let evm_chains: Vec<u64> = evm_sources.iter().map(|s| s.chain_id).collect();
    crate::evm::register(&mut registry, &evm_sources)?;

    let router = chains::routes(Router::new(), registry.clone()).map_err(|e| e.message)?;
    let webhooks = crate::webhooks::WebhookService::open(&store, &args)?;
    let router = snowline_data_api::webhooks::routes(
        router,
        Arc::clone(&webhooks.webhooks),
        registry.clone(),
        network,
        secret.clone(),
        args.webhook_allow_private.clone(),
    );
    let pchain_pages = Arc::new(PChainPages::new(Arc::clone(&store)));
    let router = snowline_data_api::warp::routes(
        router,
        crate::warp::api(&args, Arc::clone(&pchain_pages), network)?,
    );
    // Token rows are cached where this process writes them (its followers clear the cache as
    // they change); a replica's rows change under it, so it reads them from the store.
    let token_cache = (!replica).then(|| Arc::new(TokenCache::new(Arc::clone(&store))));
    let evm_pages = EvmPages::new(Arc::clone(&store));
    let evm_pages = Arc::new(match &token_cache {
        Some(cache) => evm_pages.with_token_cache(Arc::clone(cache)),
        None => evm_pages,
    });
    let exports = Arc::new(Exports::new(
        Arc::clone(&store),
        dir.join("exports"),
        args.export_max_rows,
    ));
    let router = snowline_data_api::operations::routes(
        router,
        Arc::clone(&exports),
        registry.clone(),
        network,
    );
    // Export jobs run in the background, those left running by a previous run first.
    let primary_rows = Arc::new(snowline_data_api::pexport::PrimaryExports::new(
        Arc::clone(&pchain_pages),
        network.p_chain_id,
    ));
    let export_task = tokio::spawn(Arc::clone(&exports).run(Arc::clone(&evm_pages), primary_rows));
    let icm_pages = IcmPages::new(Arc::clone(&store));
    let blockchain_ids = crate::evm::blockchain_ids(&registry, &evm_sources);
    let router = snowline_data_api::icm::routes(
        router,
        icm_pages.clone(),
        Arc::clone(&evm_pages),
        registry.clone(),
        network,
        secret.clone(),
    );
    let metrics_registry = registry.clone();
    let nft_metadata = crate::nft_metadata::NftMetadata::open(&store, &args.fetch);
    let reputations = evm_sources
        .iter()
        .map(|s| (s.chain_id, s.token_reputation.clone()))
        .collect();
    let router = snowline_data_api::evm::routes(
        router,
        evm_pages,
        registry,
        Arc::new(NoPrices),
        secret.clone(),
        Some(icm_pages),
        reputations,
        Arc::clone(&nft_metadata.queue),
    );
    let router = snowline_data_api::usage::routes(router, Arc::clone(&log));
    let router = snowline_data_api::apilogs::routes(router, Arc::clone(&log), secret.clone());
    // node-rpc may start later: an empty record is created for it to write into.
    let rpc_usage = match &args.rpc_usage_from {
        Some(path) => {
            std::fs::create_dir_all(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let log = RpcUsageLog::open_secondary(path, dir.join("rpc-usage-secondary"))
                .map_err(|e| format!("cannot open node-rpc's usage at {}: {e}", path.display()))?;
            Some(Arc::new(log))
        }
        None => None,
    };
    let router = snowline_data_api::rpc_usage::routes(router, RpcUsage::new(rpc_usage, network));
    let router = snowline_data_api::primary::routes(
        router,
        Arc::new(XHistoryPages::new(Arc::clone(&store))),
        pchain_pages,
        network,
        secret,
    )?;

    let follow_status = Arc::new(FollowStatus::new());
    let (start_evm, evm_start) = tokio::sync::watch::channel(false);
    let evm = crate::evm::follow_all(
        &store,
        if replica { Vec::new() } else { evm_sources },
        Duration::from_millis(args.evm_poll_ms.max(10)),
        &blockchain_ids,
        &evm_start,
        webhooks.hooks(),
        token_cache,
    );
    let ready = Arc::new(Ready {
        keys: Arc::clone(&keys),
        follow: args.upstream.as_ref().map(|_| Arc::clone(&follow_status)),
        follow_tolerance: args.follow_batch.containers,
        evm: evm
            .iter()
            .map(|f| (f.chain_id, Arc::clone(&f.status)))
            .collect(),
        fleet: fleet.clone(),
    });
    let dropped = Gauge::<i64>::default();
    let written = Gauge::<i64>::default();
    let profile = match args.compat {
        CompatArg::Spec => Profile::Spec,
        CompatArg::Glacier => Profile::Glacier,
    };
    let app = App::new(router)
        .profile(profile)
        .describe(snowline_data_api::openapi::description(profile, network))
        .keys(keys.clone())
        .limiter(Arc::clone(&limiter))
        .usage_sink(usage.clone())
        .metering(!args.no_metering && (!replica || shared.is_some()))
        .readiness(ready)
        .metrics(|r| {
            FollowMetrics::register(r, Arc::clone(&follow_status));
            if let Some(f) = &fleet {
                FleetMetrics::register(r, Arc::clone(&f.status));
            }
            StoreMetrics::register(r, Arc::clone(&store));
            r.register(
                "snowline_usage_events_dropped",
                "Usage events dropped because the writer's queue was full",
                dropped.clone(),
            );
            r.register(
                "snowline_usage_events_written",
                "Usage events written to the store",
                written.clone(),
            );
        });
    let config = ServerConfig {
        max_body_bytes: args.max_body_bytes,
        max_connections: args.max_connections,
        max_header_bytes: args.head.get(),
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        ..ServerConfig::default()
    };
    let server = Server::bind(args.listen, app, config)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let addr = server.local_addr().map_err(|e| e.to_string())?;
    start_evm.send_replace(true);
    // Webhooks are delivered by the primary alone.
    let delivery = (!replica).then(|| webhooks.start());
    let fetcher = nft_metadata.start();
    let fleet_task = fleet.as_ref().map(|f| f.start(&store));
    let checkpoints = fleet
        .as_ref()
        .and_then(|f| f.start_checkpoints(&store, &dir));
    println!(
        "data-api: listening on http://{addr} (network {}, data in {})",
        network.name,
        dir.display()
    );
    print_examples(addr, network, example_address.as_deref(), &evm_chains);
    let metrics = match args.metrics_listen {
        None => None,
        Some(listen) => {
            let (addr, task) = crate::metrics::start(
                &store,
                crate::metrics::MetricsConfig {
                    listen,
                    data_dir: &dir,
                    registry: metrics_registry,
                    network,
                    keys: keys.clone(),
                    rate_limits: rate_limits(&args),
                    server: ServerConfig {
                        max_header_bytes: args.head.get(),
                        ..ServerConfig::default()
                    },
                    looking_glass: args.looking_glass.clone(),
                },
            )
            .await?;
            println!("data-api: metrics service listening on http://{addr}");
            println!("    curl -s 'http://{addr}/v2/chains'");
            Some(task)
        }
    };

    let follower = args.upstream.clone().map(|upstream| {
        let (store, status) = (Arc::clone(&store), Arc::clone(&follow_status));
        let platform = webhooks.platform_hook();
        let flags = crate::ingest::FollowFlags {
            batch: args.follow_batch.containers,
            batch_bytes: args.follow_batch.bytes(),
            poll: Duration::from_millis(args.poll_ms.max(10)),
            calls: args.upstream_calls,
        };
        println!("data-api: following {upstream}");
        tokio::spawn(async move {
            let result = crate::ingest::follow(
                store,
                network,
                &upstream,
                flags,
                status,
                platform,
                snowline_rest_api::shutdown_signal(),
            )
            .await;
            if let Err(e) = &result {
                tracing::error!(error = %e, "ingestion stopped");
                eprintln!("data-api: ingestion stopped: {e}");
            }
            result
        })
    });

    // The followed node's validator uptimes, beside the follower.
    let every = Duration::from_secs(args.uptime_poll_s);
    let uptimes = args
        .upstream
        .clone()
        .filter(|_| !every.is_zero())
        .map(|upstream| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                crate::uptime::poll(
                    store,
                    &upstream,
                    every,
                    snowline_rest_api::shutdown_signal(),
                )
                .await
            })
        });

    // Background upkeep: failed key catch-ups are logged, usage counters are exported, and old
    // usage is pruned (the follower's metrics are read at each scrape).
    let sharing = shared.is_some();
    let upkeep = {
        let usage = Arc::clone(&usage);
        let retention_ms = args.usage_retention_days.saturating_mul(86_400_000);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            let mut n = 0u64;
            let mut catch_up_failures = 0u64;
            loop {
                tick.tick().await;
                let failures = keys_catch_up.failures();
                if failures > catch_up_failures {
                    tracing::warn!(failures, "keys store catch-up failed");
                    catch_up_failures = failures;
                }
                dropped.set(i64::try_from(usage.0.dropped()).unwrap_or(i64::MAX));
                written.set(i64::try_from(usage.0.written()).unwrap_or(i64::MAX));
                n += 1;
                if n % 3600 == 1 && (!replica || sharing) {
                    let cutoff = now_ms().saturating_sub(retention_ms);
                    if let Err(e) = log.prune_before(cutoff) {
                        tracing::warn!(error = %e, "pruning usage failed");
                    }
                }
            }
        })
    };
    // A primary fenced off by another one stops serving, and the process fails.
    let watched = fleet.clone();
    server
        .run_until(async move {
            match watched {
                Some(f) => tokio::select! {
                    () = snowline_rest_api::shutdown_signal() => {}
                    why = f.fenced() => eprintln!("data-api: stopping: {why}"),
                },
                None => snowline_rest_api::shutdown_signal().await,
            }
        })
        .await
        .map_err(|e| e.to_string())?;
    upkeep.abort();
    drop(upkeep.await);
    if let Some(d) = delivery {
        d.abort();
        drop(d.await);
    }
    if let Some(f) = fetcher {
        f.abort();
        drop(f.await);
    }
    export_task.abort();
    drop(export_task.await);
    if let Some(c) = checkpoints {
        c.abort();
        drop(c.await);
    }
    if let Some(f) = fleet_task {
        f.abort();
        drop(f.await);
    }
    if replica {
        // A replica applies without the write-ahead log: what it applied reaches disk before
        // it exits, so a checkpoint or a restart of this index stands at its last batch.
        store
            .flush()
            .map_err(|e| format!("flushing the applied batches: {e}"))?;
    }
    if let Some(m) = metrics {
        m.abort();
        drop(m.await);
    }
    if let Some(f) = follower {
        f.abort();
        drop(f.await);
    }
    if let Some(u) = uptimes {
        u.abort();
        drop(u.await);
    }
    for f in evm {
        f.task.abort();
        drop(f.task.await);
    }
    match Arc::try_unwrap(usage) {
        Ok(StoreUsage(writer)) => writer
            .shutdown()
            .map_err(|e| format!("writing the last usage events: {e}"))?,
        Err(usage) => usage
            .0
            .flush()
            .map_err(|e| format!("writing the last usage events: {e}"))?,
    }
    if let Some((append, others)) = shared_tasks {
        for t in others {
            t.abort();
            drop(t.await);
        }
        // The last rows reach the fleet's log, or are given up on after a while.
        if tokio::time::timeout(Duration::from_secs(3), append)
            .await
            .is_err()
        {
            eprintln!("data-api: the last usage rows did not reach the fleet's log");
        }
    }
    if let Some(why) = fleet.as_ref().and_then(|f| f.stop_reason()) {
        return Err(format!(
            "fenced off: {why}; this node's index now differs from the fleet's: start it again \
             as a replica, from a checkpoint of a node of the fleet (docs/fleet.md)"
        ));
    }
    println!("data-api: stopped");
    Ok(())
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The default tiers (with `admin` unlimited, as `access` defines it), the operator's overrides.
fn rate_limits(args: &ServeArgs) -> RateLimits {
    let mut limits = RateLimits {
        enabled: !args.no_rate_limits,
        ..RateLimits::default()
    };
    limits
        .tiers
        .insert("admin".to_owned(), TierLimit::unlimited());
    for (tier, limit) in &args.rate_limits {
        let limit = match limit {
            Some((minute, day)) => TierLimit::new(*minute, *day),
            None => TierLimit::unlimited(),
        };
        limits.tiers.insert(tier.clone(), limit);
    }
    limits
}

/// `/readyz`: the keys store must be readable, and a followed upstream must answer, agree with
/// the index and have been caught up with, with at most `follow_tolerance` containers (a page)
/// still to fetch (`FollowSnapshot::problem`).
struct Ready {
    keys: Arc<StoreKeys>,
    follow: Option<Arc<FollowStatus>>,
    follow_tolerance: u64,
    evm: Vec<(u64, Arc<SyncStatus>)>,
    fleet: Option<Arc<crate::fleet::Fleet>>,
}

impl Readiness for Ready {
    fn check(&self) -> Vec<Check> {
        let mut checks = vec![match self.keys.0.list() {
            Ok(_) => Check::up("keys"),
            Err(e) => Check::down("keys", e.to_string()),
        }];
        if let Some(status) = &self.follow {
            checks.push(match status.snapshot().problem(self.follow_tolerance) {
                Some(problem) => Check::down("ingest", problem),
                None => Check::up("ingest"),
            });
        }
        for (chain, status) in &self.evm {
            let s = status.snapshot();
            let name = format!("evm-{chain}");
            checks.push(if !s.node_up {
                Check::down(
                    &name,
                    match &s.last_error {
                        Some(e) => format!("node unavailable: {e}"),
                        None => "node not reached yet".to_owned(),
                    },
                )
            } else if s.caught_up_at.is_none() {
                Check::down(&name, format!("catching up: {} blocks behind", s.behind()))
            } else {
                Check::up(&name)
            });
        }
        if let Some(fleet) = &self.fleet {
            checks.push(fleet.check());
        }
        checks
    }
}

/// Prints curl commands that work against a fresh server (`address`: one the data funds, `evm`:
/// the EVM chains indexed).
fn print_examples(addr: SocketAddr, network: &NetworkInfo, address: Option<&str>, evm: &[u64]) {
    let n = network.name;
    let x = format!("/v1/networks/{n}/blockchains/x-chain");
    let mut paths = vec![
        "/v1/chains".to_owned(),
        "/v1/chains/43112".to_owned(),
        x.clone(),
        format!("{x}/vertices:listByHeight?vertexHeight=1"),
    ];
    if let Some(a) = address {
        paths.push(format!("{x}/balances?addresses={a}"));
        paths.push(format!("{x}/utxos?addresses={a}&pageSize=2"));
    }
    for chain in evm {
        paths.push(format!("/v1/chains/{chain}/blocks/1"));
    }
    if !evm.is_empty() {
        paths.push("/v1/icm/messages?pageSize=3".to_owned());
    }
    paths.push("/readyz".to_owned());
    println!("  every endpoint, described and to try: http://{addr}/docs (/openapi.json)");
    println!("  try:");
    for path in paths {
        println!("    curl -s 'http://{addr}{path}'");
    }
    // A Warp message from this network's C-Chain, which its validators sign (given --warp-peers).
    let message = UnsignedMessage {
        network_id: network.network_id,
        source_chain_id: network.c_chain_id,
        payload: Payload::AddressedCall(AddressedCall {
            source_address: vec![0x5a; 20],
            payload: b"hello, validators".to_vec(),
        })
        .bytes(),
    };
    println!(
        "  Warp signatures from the primary network's validators:\n    curl -s -X POST -H \
         'content-type: application/json' -d '{{\"message\": \"{}\"}}' \
         'http://{addr}/v1/signatureAggregator/{n}/aggregateSignatures'",
        hex::encode(message.bytes())
    );
    println!(
        "  usage metrics need a key: data-api keys create --name me --tier admin, then\n    \
         curl -s -H 'x-data-api-key: SECRET' 'http://{addr}/v1/apiUsageMetrics?groupBy=requestPath'"
    );
}
