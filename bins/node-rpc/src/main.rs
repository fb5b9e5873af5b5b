//! `node-rpc`: the node JSON-RPC (X-Chain `avm.*` and `index.*`) served from Snowline's own index.
//! Thin wiring: flags, the store, a data source, the server. The behaviour lives in the crates.

mod cli;
mod data;
mod serve;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use cli::{Cli, Command, Common, Source};
use snowline_node_index::{FollowConfig, Follower, IndexWriter};
use snowline_types::NetworkInfo;

// The system allocator, on purpose: under mimalloc a follow spent 13% of its CPU zeroing pages
// that mimalloc had given back to the OS and then faulted in again. In paired runs the follower
// took 3-7% less CPU without it and the import 14% more, still above its target. The figures are
// in docs/benchmarks.md (issue #3, session 5).

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("node-rpc: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve(args) => {
            let mut example_address = None;
            let network = network(&args.common)?;
            let store = data::open(&args.common.data_dir)?;
            if args.source == Source::Devnet {
                if network.network_id != snowline_types::network::LOCAL_ID {
                    return Err(
                        "the devnet is a local network: use --network local or --source none"
                            .into(),
                    );
                }
                let load = data::load_devnet(&store, args.devnet_seed, args.devnet_txs)?;
                if load.added > 0 {
                    println!("node-rpc: loaded the devnet: {} containers", load.added);
                }
                example_address = Some(load.funded_address);
            }
            let example = example_address.as_deref();
            runtime()?.block_on(serve::serve(store, network, args.listen, example))
        }
        Command::Import(args) => {
            let store = data::open(&args.common.data_dir)?;
            let stats = data::import(&store, &args.file, args.batch)?;
            println!(
                "node-rpc: imported {} containers ({} already present) from {}",
                stats.added,
                stats.duplicates,
                args.file.display()
            );
            Ok(())
        }
        Command::Follow(args) => {
            let network = network(&args.common)?;
            let store = data::open(&args.common.data_dir)?;
            if args.genesis == Source::Devnet {
                data::apply_devnet_genesis(&store, &data::devnet(args.devnet_seed, 0)?)?;
            }
            // Far behind, write without the WAL and flush on catching up, as the import does
            // (docs/node-index.md): a kill -9 loses only unflushed whole batches.
            let config = FollowConfig {
                batch: args.batch,
                unlogged_catch_up: true,
                ..FollowConfig::default()
            };
            let follower = Follower::new(&args.upstream, config)
                .map_err(|e| format!("upstream {}: {e}", args.upstream))?;
            runtime()?.block_on(async move {
                let follow_store = Arc::clone(&store);
                let follow = tokio::spawn(async move {
                    let mut writer =
                        IndexWriter::open(&*follow_store).map_err(|e| e.to_string())?;
                    let mut state = snowline_indexer::XChainState::new();
                    follower
                        .run(
                            &follow_store,
                            &mut writer,
                            &mut state,
                            snowline_jsonrpc::shutdown_signal(),
                        )
                        .await
                        .map_err(|e| format!("following {}: {e}", args.upstream))
                });
                let served = serve::serve(store, network, args.listen, None).await;
                let followed = follow.await.map_err(|e| format!("follower task: {e}"))?;
                served.and(followed)
            })
        }
    }
}

fn network(common: &Common) -> Result<NetworkInfo, String> {
    match NetworkInfo::lookup_name(&common.network) {
        Ok(Some(info)) => Ok(info.clone()),
        Ok(None) => Err(format!(
            "network {:?} has no known chain ids; use local, fuji or mainnet",
            common.network
        )),
        Err(e) => Err(format!("--network: {e}")),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}
