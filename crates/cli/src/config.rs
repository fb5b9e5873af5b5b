//! `--config FILE`: every flag of a binary's subcommand may also come from a TOML file. The
//! table `[BINARY.SUBCOMMAND]` (e.g. `[data-api.serve]`) holds the flags' values under their
//! long names (`listen = "127.0.0.1:8080"`, `no-rate-limits = true`, `evm = ["43112=..."]`);
//! the tables of other binaries are left alone, so one file can describe a whole setup. The
//! file's values become the flags' defaults before the command line is parsed, so an
//! environment variable overrides the file and a flag overrides both. A key that names no flag
//! of the subcommand is an error naming it (docs/config.md).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{ArgAction, ArgMatches, Command, Parser};

/// The flag naming the file.
pub const CONFIG_FLAG: &str = "config";
/// The environment variable naming the file when the flag is not given.
pub const CONFIG_ENV: &str = "SNOWLINE_CONFIG";

/// Parses the process's command line as `C` after applying the `--config` file (or
/// `$SNOWLINE_CONFIG`); prints the error and exits as clap does when either is wrong.
pub fn parse_with_config<C: Parser>() -> C {
    let args: Vec<OsString> = std::env::args_os().collect();
    let env = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty());
    match parse_from(args, env.map(PathBuf::from)) {
        Ok(cli) => cli,
        Err(Failure::Clap(e)) => e.exit(),
        Err(Failure::Config(msg)) => {
            let name = C::command().get_name().to_owned();
            eprintln!("{name}: {msg}");
            std::process::exit(2);
        }
    }
}

/// `--config FILE`, which every subcommand takes (flatten it into the top-level parser).
#[derive(Debug, Clone, clap::Args)]
pub struct ConfigArg {
    /// A TOML file whose `[BINARY.SUBCOMMAND]` table gives flags' values by their long names
    /// (docs/config.md); environment variables and flags override it.
    #[arg(long = "config", env = CONFIG_ENV, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
}

/// Why parsing failed.
#[derive(Debug)]
pub enum Failure {
    /// The command line (clap's own message, help and version included).
    Clap(clap::Error),
    /// The configuration file.
    Config(String),
}

/// Parses `args` (the program name first) as `C`, with the file named by `--config` (else by
/// `env_file`) giving the subcommand's defaults.
pub fn parse_from<C: Parser>(args: Vec<OsString>, env_file: Option<PathBuf>) -> Result<C, Failure> {
    let mut cmd = C::command();
    let file = config_arg(&args).or(env_file);
    let sub = subcommand_arg(&args);
    if let (Some(file), Some(sub)) = (file, sub)
        && cmd.find_subcommand(&sub).is_some()
    {
        let subcommands: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_owned())
            .collect();
        let table = read_table(&file, cmd.get_name(), &sub, &subcommands)?;
        let defaults = defaults(&file, cmd.get_name(), &sub, &cmd, table)?;
        cmd = cmd.mut_subcommand(&sub, |mut s| {
            for (id, values) in defaults {
                // Leaked once at start: clap takes owned defaults only with its `string`
                // feature, which would change the feature set every crate builds with.
                let values: Vec<&'static str> = values
                    .into_iter()
                    .map(|v| &*Box::leak(v.into_boxed_str()))
                    .collect();
                s = s.mut_arg(id, |a| a.required(false).default_values(values));
            }
            s
        });
    }
    let matches: ArgMatches = cmd.try_get_matches_from(args).map_err(Failure::Clap)?;
    C::from_arg_matches(&matches).map_err(Failure::Clap)
}

/// The subcommand named on the command line: its first word that is neither a flag nor the
/// value of `--config`.
fn subcommand_arg(args: &[OsString]) -> Option<String> {
    let flag = format!("--{CONFIG_FLAG}");
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let s = a.to_str()?;
        if s == flag {
            it.next();
        } else if !s.starts_with('-') {
            return Some(s.to_owned());
        }
    }
    None
}

/// The value of `--config FILE` or `--config=FILE` on the command line (before a `--`).
fn config_arg(args: &[OsString]) -> Option<PathBuf> {
    let flag = format!("--{CONFIG_FLAG}");
    let prefix = format!("--{CONFIG_FLAG}=");
    let mut it = args.iter().skip(1).take_while(|a| *a != "--");
    while let Some(a) = it.next() {
        let s = a.to_str()?;
        if s == flag {
            return it.next().map(PathBuf::from);
        }
        if let Some(v) = s.strip_prefix(&prefix) {
            return Some(PathBuf::from(v));
        }
    }
    None
}

/// The `[bin.sub]` table of `file` (empty when the file has none), after checking that the
/// file's `[bin]` table names only `subcommands`.
fn read_table(
    file: &Path,
    bin: &str,
    sub: &str,
    subcommands: &[String],
) -> Result<toml::Table, Failure> {
    let shown = file.display();
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::Config(format!("--config {shown}: {e}")))?;
    let mut doc: toml::Table = text
        .parse()
        .map_err(|e| Failure::Config(format!("--config {shown}: {e}")))?;
    let Some(ours) = doc.remove(bin) else {
        return Ok(toml::Table::new());
    };
    let toml::Value::Table(mut ours) = ours else {
        return Err(Failure::Config(format!(
            "--config {shown}: `{bin}` must be a table of subcommands ([{bin}.{sub}])"
        )));
    };
    let table = ours.remove(sub);
    if let Some(other) = ours.keys().find(|k| !subcommands.contains(k)) {
        return Err(Failure::Config(format!(
            "--config {shown}: unknown table [{bin}.{other}]: `{bin}` has no subcommand `{other}`"
        )));
    }
    match table {
        None => Ok(toml::Table::new()),
        Some(toml::Value::Table(t)) => Ok(t),
        Some(_) => Err(Failure::Config(format!(
            "--config {shown}: [{bin}.{sub}] must be a table"
        ))),
    }
}

/// Each key of `table` as the id of the flag it names and the values to default it to.
fn defaults(
    file: &Path,
    bin: &str,
    sub: &str,
    cmd: &Command,
    table: toml::Table,
) -> Result<Vec<(String, Vec<String>)>, Failure> {
    let shown = file.display();
    let Some(subcommand) = cmd.find_subcommand(sub) else {
        return Ok(Vec::new());
    };
    let flags: Vec<&clap::Arg> = subcommand
        .get_arguments()
        .filter(|a| a.get_long().is_some() && a.get_id() != CONFIG_FLAG)
        .filter(|a| !matches!(a.get_action(), ArgAction::Help | ArgAction::Version))
        .collect();
    let mut out = Vec::new();
    for (key, value) in table {
        let Some(arg) = flags.iter().find(|a| {
            a.get_long() == Some(key.as_str()) || a.get_long() == Some(&key.replace('_', "-"))
        }) else {
            let mut known: Vec<&str> = flags.iter().filter_map(|a| a.get_long()).collect();
            known.sort_unstable();
            return Err(Failure::Config(format!(
                "--config {shown}: unknown key `{key}` in [{bin}.{sub}]: `{bin} {sub}` has no \
                 flag --{key} (its flags: {})",
                known.join(", ")
            )));
        };
        let many =
            matches!(arg.get_action(), ArgAction::Append) || arg.get_value_delimiter().is_some();
        let values = match value {
            toml::Value::Array(items) if many => items
                .into_iter()
                .map(|v| scalar(&key, v))
                .collect::<Result<Vec<_>, _>>(),
            toml::Value::Array(_) => Err(format!("`{key}` takes one value, not a list")),
            v => scalar(&key, v).map(|s| vec![s]),
        }
        .map_err(|e| Failure::Config(format!("--config {shown}: [{bin}.{sub}] {e}")))?;
        out.push((arg.get_id().to_string(), values));
    }
    Ok(out)
}

/// A string, number or boolean as the flag's text.
fn scalar(key: &str, value: toml::Value) -> Result<String, String> {
    match value {
        toml::Value::String(s) => Ok(s),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!(
            "`{key}` must be a string, a number or a boolean, not {}",
            other.type_str()
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]

    use super::*;
    use clap::{Args, Subcommand};

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
        network: crate::NetworkArg,
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
}
