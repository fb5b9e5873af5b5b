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
