//! `--config FILE` (`snowline_cli::parse_from`): a flag's value from the file, the command
//! line over the file, the environment's `SNOWLINE_CONFIG`, and unknown keys and tables refused
//! by name. (The environment variables of flags overriding the file are tested with the real
//! binaries: `bins/node-rpc/tests/startup.rs`.)

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use snowline_cli::{ConfigArg, Failure, parse_from};

#[derive(Debug, Parser)]
#[command(name = "svc")]
struct Cli {
    #[command(flatten)]
    config: ConfigArg,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    Serve(Serve),
    Import {
        #[arg(long, default_value_t = 8)]
        batch: u32,
    },
}

#[derive(Debug, Args)]
struct Serve {
    #[arg(long, default_value = "127.0.0.1:1")]
    listen: String,
    #[arg(long)]
    upstream: String,
    #[arg(long)]
    quiet: bool,
    #[arg(long = "evm", value_delimiter = ',')]
    evm: Vec<String>,
    #[arg(long, default_value_t = 200)]
    poll_ms: u64,
    #[command(flatten)]
    network: snowline_cli::NetworkArg,
}

fn file(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("svc.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path.display().to_string())
}

fn parse(args: &[&str], env: Option<&str>) -> Result<Cli, Failure> {
    parse_from(
        args.iter().map(OsString::from).collect(),
        env.map(PathBuf::from),
    )
}

fn serve(cli: Cli) -> Serve {
    match cli.command {
        Cmd::Serve(s) => s,
        other => panic!("{other:?}"),
    }
}

const FILE: &str = r#"
    [svc.serve]
    listen = "127.0.0.1:7"
    upstream = "http://node:9650"   # a required flag, given here
    quiet = true
    evm = ["1=http://a", "2=http://b"]
    poll-ms = 50
    network = "fuji"

    [svc.import]
    batch = 3

    [other-binary.serve]
    whatever = 1
"#;

#[test]
fn the_file_gives_every_kind_of_flag() {
    let (_dir, path) = file(FILE);
    let s = serve(parse(&["svc", "serve", "--config", &path], None).unwrap());
    assert_eq!(s.listen, "127.0.0.1:7");
    assert_eq!(s.upstream, "http://node:9650");
    assert!(s.quiet);
    assert_eq!(s.evm, ["1=http://a", "2=http://b"]);
    assert_eq!(s.poll_ms, 50);
    assert_eq!(s.network.name, "fuji");
    // The same file before the subcommand, as `--config=FILE`, and from the environment.
    let s = serve(parse(&["svc", &format!("--config={path}"), "serve"], None).unwrap());
    assert_eq!(s.poll_ms, 50);
    let s = serve(parse(&["svc", "serve"], Some(&path)).unwrap());
    assert_eq!(s.listen, "127.0.0.1:7");
    match parse(&["svc", "import", "--config", &path], None)
        .unwrap()
        .command
    {
        Cmd::Import { batch } => assert_eq!(batch, 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn flags_override_the_file() {
    let (_dir, path) = file(FILE);
    let s = serve(
        parse(
            &[
                "svc",
                "serve",
                "--config",
                &path,
                "--listen",
                "0.0.0.0:9",
                "--evm",
                "3=x",
                "--network",
                "local",
            ],
            None,
        )
        .unwrap(),
    );
    assert_eq!(s.listen, "0.0.0.0:9");
    assert_eq!(s.evm, ["3=x"]);
    assert_eq!(s.network.name, "local");
    assert_eq!(
        s.poll_ms, 50,
        "what the flags do not name still comes from the file"
    );
    // Without a file the defaults hold, and a required flag is required again.
    let err = parse(&["svc", "serve"], None).err().unwrap();
    assert!(matches!(err, Failure::Clap(_)), "{err:?}");
}

#[test]
fn unknown_keys_and_tables_are_refused_by_name() {
    let (_dir, path) = file("[svc.serve]\nupstream = \"u\"\nlisten-on = \"x\"\n");
    match parse(&["svc", "serve", "--config", &path], None) {
        Err(Failure::Config(msg)) => {
            assert!(
                msg.contains("unknown key `listen-on` in [svc.serve]"),
                "{msg}"
            );
            assert!(msg.contains("--listen"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    let (_dir, path) = file("[svc.srve]\nlisten = \"x\"\n");
    match parse(&["svc", "serve", "--config", &path], None) {
        Err(Failure::Config(msg)) => assert!(msg.contains("[svc.srve]"), "{msg}"),
        other => panic!("{other:?}"),
    }
    let (_dir, path) = file("[svc.serve]\nlisten = [\"a\", \"b\"]\n");
    match parse(&["svc", "serve", "--config", &path], None) {
        Err(Failure::Config(msg)) => assert!(msg.contains("`listen` takes one value"), "{msg}"),
        other => panic!("{other:?}"),
    }
    let (_dir, path) = file("[svc.serve\n");
    assert!(matches!(
        parse(&["svc", "serve", "--config", &path], None),
        Err(Failure::Config(_))
    ));
    assert!(matches!(
        parse(&["svc", "serve", "--config", "/nonexistent/svc.toml"], None),
        Err(Failure::Config(_))
    ));
}
