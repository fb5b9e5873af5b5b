//! `node-rpc`: the node JSON-RPC (X-Chain `avm.*` and `index.*`) served from Snowline's own index.
//! Thin wiring: flags, the store, a data source, the server. The behaviour lives in the crates.

mod access;
mod cli;
mod data;
mod live;
mod serve;

use std::process::ExitCode;
use std::sync::Arc;

use cli::{Cli, Command, Source};
use snowline_cli::{GenesisSource, runtime};
use snowline_node_index::{FollowConfig, Follower, IndexWriter};
use snowline_node_rpc::platform::CurrentValidators;

// The system allocator, on purpose: under mimalloc a follow spent 13% of its CPU zeroing pages
// that mimalloc had given back to the OS and then faulted in again. In paired runs the follower
// took 3-7% less CPU without it and the import 14% more, still above its target. The figures are
// in docs/benchmarks.md ("Session 5").

fn main() -> ExitCode {
    snowline_cli::bound_glibc_malloc();
    snowline_cli::init_logging("info");
    match run(snowline_cli::parse_with_config::<Cli>()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("node-rpc: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Digest(args) => snowline_cli::print_digest(
            &args.common.data_dir,
            &data::schema(),
            args.table.as_deref(),
        ),
        Command::Serve(args) => {
            let mut example_address = None;
            let mut live = None;
            let mut validators = None;
            let network = args.common.network.resolve()?;
            if args.live_rate > 0.0 && args.source != Source::Devnet {
                return Err("--live-rate continues the devnet: use it with --source devnet".into());
            }
            let store = data::open(&args.common.data_dir)?;
            let access = access::open(&args.access, &args.common.data_dir, network)?;
            if args.source == Source::Devnet {
                if network.network_id != snowline_types::network::LOCAL_ID {
                    return Err(
                        "the devnet is a local network: use --network local or --source none"
                            .into(),
                    );
                }
                let load = data::load_devnet(&store, args.devnet.seed, args.devnet.txs)?;
                if load.added > 0 {
                    println!("node-rpc: loaded the devnet: {} containers", load.added);
                }
                example_address = Some(load.funded_address);
                let current = CurrentValidators::new(load.devnet.current_validators().validators);
                if args.live_rate > 0.0 {
                    live = Some(live::start(
                        Arc::clone(&store),
                        load.devnet,
                        args.live_rate,
                        Arc::clone(&current),
                    )?);
                }
                validators = Some(current);
            }
            let devnet = serve::DevnetServed {
                example_address: example_address.as_deref(),
                live_rate: live.is_some().then_some(args.live_rate),
                validators,
            };
            let served = runtime()?.block_on(serve::serve(
                store,
                network.clone(),
                args.listen,
                devnet,
                None,
                access.gate.clone(),
            ));
            drop(access);
            let stopped = live.map_or(Ok(()), live::Live::stop);
            served.and(stopped)
        }
        Command::Import(args) => {
            let network = args.common.network.resolve()?;
            let store = data::open(&args.common.data_dir)?;
            let stats = data::import(&store, network, &args.file, args.batch)?;
            println!(
                "node-rpc: imported {} containers ({} already present) from {}",
                stats.added,
                stats.duplicates,
                args.file.display()
            );
            Ok(())
        }
        Command::Follow(args) => {
            let network = args.common.network.resolve()?;
            let store = data::open(&args.common.data_dir)?;
            let access = access::open(&args.access, &args.common.data_dir, network)?;
            if args.genesis == GenesisSource::Devnet {
                data::apply_devnet_genesis(
                    &store,
                    &data::devnet(args.devnet.seed, args.devnet.txs)?,
                )?;
            }
            // Far behind, write without the WAL and flush on catching up, as the import does
            // (docs/node-index.md): a kill -9 loses only unflushed whole batches.
            let config = args.calls.apply(FollowConfig {
                batch: args.batch.containers,
                batch_bytes: args.batch.bytes(),
                poll_interval: std::time::Duration::from_millis(args.poll_ms.max(10)),
                unlogged_catch_up: true,
                ..FollowConfig::default()
            });
            let follower = Follower::new(&args.upstream, config)
                .map_err(|e| format!("upstream {}: {e}", args.upstream))?;
            // `/readyz` and `/metrics` show what the follower knows (docs/node-index.md).
            let following = serve::Following {
                status: Arc::clone(follower.status()),
                tolerance: args.batch.containers,
            };
            runtime()?.block_on(async move {
                let follow_store = Arc::clone(&store);
                let upstream = args.upstream.clone();
                let follow = tokio::spawn(async move {
                    // An upstream not listening yet is waited for, said once; `/readyz` says
                    // "upstream not reached yet" meanwhile.
                    tokio::select! {
                        waited = snowline_cli::wait_for_upstream("node-rpc", &upstream) => waited?,
                        () = snowline_jsonrpc::shutdown_signal() => return Ok(()),
                    }
                    let mut writer =
                        IndexWriter::open(&*follow_store).map_err(|e| e.to_string())?;
                    let mut state = data::state(network);
                    follower
                        .run(
                            &follow_store,
                            &mut writer,
                            &mut state,
                            snowline_jsonrpc::shutdown_signal(),
                        )
                        .await
                        .map_err(|e| format!("following {upstream}: {e}"))
                });
                let served = serve::serve(
                    store,
                    network.clone(),
                    args.listen,
                    serve::DevnetServed::default(),
                    Some(following),
                    access.gate.clone(),
                )
                .await;
                let followed = follow.await.map_err(|e| format!("follower task: {e}"))?;
                served.and(followed)
            })
        }
    }
}
