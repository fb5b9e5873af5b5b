//! What a build of the workspace needs beyond rustup: a C++ compiler and libclang for RocksDB (its
//! `cc` and `bindgen` build steps), rustfmt and clippy, and `nats-server` for the fleet's tests.
//! `setup` installs what is missing where this machine allows it and then verifies; `setup
//! --check` only verifies. `setup` and `test` also install Chromium, which only the `/docs`
//! browser test needs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::libclang;
use crate::shell::{cmd, status};

/// How a missing prerequisite gets installed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// A Debian package, by apt-get.
    Deb(&'static str),
    /// A rustup component, by `rustup component add`.
    Component(&'static str),
}

/// One prerequisite that is not there.
struct Miss {
    /// The prerequisite, as the summary line names it.
    what: &'static str,
    /// What was looked for and what was found instead.
    detail: String,
    /// What installs it.
    source: Source,
    /// A fix that installing cannot replace (a wrong `CXX`, a known libclang directory).
    fix: Option<String>,
}

/// What a look at the machine found: the summary of what is present, and what is missing.
struct Probe {
    present: Vec<String>,
    misses: Vec<Miss>,
}

/// Looks for every prerequisite without installing anything.
fn probe() -> Probe {
    let mut present = Vec::new();
    let mut misses = Vec::new();
    match probe_cxx() {
        Ok(path) => present.push(format!("c++ {}", path.display())),
        Err(m) => misses.push(m),
    }
    match libclang::find() {
        Ok(path) => present.push(format!("libclang {}", path.display())),
        Err(m) => misses.push(Miss {
            what: "libclang",
            detail: m.detail,
            source: Source::Deb("libclang-dev"),
            fix: m.fix,
        }),
    }
    for (component, sub) in [("rustfmt", "fmt"), ("clippy", "clippy")] {
        let works = Command::new("cargo")
            .args([sub, "--version"])
            .output()
            .is_ok_and(|o| o.status.success());
        if works {
            present.push(component.into());
        } else {
            misses.push(Miss {
                what: component,
                detail: format!("`cargo {sub} --version` fails"),
                source: Source::Component(component),
                fix: None,
            });
        }
    }
    // The fleet's tests start NATS JetStream servers of their own.
    match which("nats-server").or_else(|| which("/usr/sbin/nats-server")) {
        Some(path) => present.push(format!("nats-server {}", path.display())),
        None => misses.push(Miss {
            what: "nats-server",
            detail: "no `nats-server` on PATH (the fleet's tests start it)".into(),
            source: Source::Deb("nats-server"),
            fix: None,
        }),
    }
    Probe { present, misses }
}

/// Compiler wrappers that cc-rs looks through to the compiler named after them.
const WRAPPERS: [&str; 6] = [
    "ccache",
    "distcc",
    "sccache",
    "icecc",
    "cachepot",
    "buildcache",
];

/// The C++ compiler cc-rs will run for RocksDB (`$CXX`, else `c++`), proven by compiling a
/// program that includes a standard header to an object file.
fn probe_cxx() -> Result<PathBuf, Miss> {
    let from_env = std::env::var("CXX").ok().filter(|v| !v.trim().is_empty());
    let value = from_env.as_deref().unwrap_or("c++").trim();
    let program = if Path::new(value).is_file() {
        value
    } else {
        match value.split_whitespace().collect::<Vec<_>>().as_slice() {
            [wrapper, compiler, ..] if WRAPPERS.contains(wrapper) => compiler,
            [compiler, ..] => compiler,
            [] => "c++",
        }
    };
    let miss = |detail: String| Miss {
        what: "c++",
        detail,
        source: Source::Deb("g++"),
        fix: from_env
            .as_ref()
            .map(|_| "unset CXX, or set it to an installed C++ compiler".into()),
    };
    let Some(path) = which(program) else {
        return Err(miss(match &from_env {
            Some(v) => format!("CXX={v} names no program on PATH"),
            None => "no `c++` on PATH (cc-rs runs $CXX, else c++)".into(),
        }));
    };
    // An object file, not just a syntax check: RocksDB's build needs the assembler too.
    let object = std::env::temp_dir().join(format!("xtask-cxx-probe-{}.o", std::process::id()));
    let compiled = Command::new(&path)
        .args(["-x", "c++", "-c", "-", "-o"])
        .arg(&object)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                // A compiler that exits without reading is judged by its exit status below.
                let program = b"#include <string>\nint main() { return std::string().size(); }\n";
                match stdin.write_all(program) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e),
                    _ => {}
                }
            }
            child.wait_with_output()
        });
    let made = std::fs::metadata(&object).is_ok_and(|m| m.len() > 0);
    let _ = std::fs::remove_file(&object);
    match compiled {
        Ok(o) if o.status.success() && made => Ok(path),
        Ok(o) if o.status.success() => Err(miss(format!(
            "{} exits 0 but writes no object file",
            path.display()
        ))),
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let why = match err.lines().next().map(str::trim) {
                Some(first) if !first.is_empty() => format!("{}: {first}", o.status),
                _ => o.status.to_string(),
            };
            Err(miss(format!(
                "{} cannot compile `#include <string>` ({why})",
                path.display()
            )))
        }
        Err(e) => Err(miss(format!("{} does not run: {e}", path.display()))),
    }
}

/// The file `program` runs: itself if it has a slash, else the first match on `PATH`.
fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Whether and how this machine lets xtask run apt-get.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Installer {
    /// Root: apt-get as it is.
    Root,
    /// Passwordless sudo.
    Sudo,
    /// apt-get is there, but only a person can run it through sudo.
    NotRoot,
    /// Not Debian or Ubuntu.
    NoApt,
}

impl Installer {
    fn detect() -> Self {
        if Command::new("apt-get").arg("--version").output().is_err() {
            return Installer::NoApt;
        }
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        if root {
            Installer::Root
        } else if Command::new("sudo")
            .args(["-n", "true"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            Installer::Sudo
        } else {
            Installer::NotRoot
        }
    }
}

/// Installs what is missing where this machine allows it, then verifies like `setup --check`
/// and prints one summary line.
pub fn ensure_all() -> Result<(), String> {
    let first = probe();
    let mut debs: Vec<&str> = Vec::new();
    let mut components: Vec<&str> = Vec::new();
    for m in &first.misses {
        match m.source {
            // A miss with a fix of its own (a wrong CXX or LIBCLANG_PATH) is not one to install.
            Source::Deb(d) if m.fix.is_none() && !debs.contains(&d) => debs.push(d),
            Source::Component(c) => components.push(c),
            Source::Deb(_) => {}
        }
    }
    let installer = if debs.is_empty() {
        None
    } else {
        Some(Installer::detect())
    };
    let mut installed: Vec<&str> = Vec::new();
    if let Some(how @ (Installer::Root | Installer::Sudo)) = installer {
        install_debs(&debs, how == Installer::Sudo, "needed to build RocksDB")?;
        installed.extend(&debs);
    }
    for c in components {
        eprintln!("xtask: installing the rustup component {c}");
        status(&mut cmd(&["rustup", "component", "add", c]))?;
        installed.push(c);
    }
    let last = if installed.is_empty() { first } else { probe() };
    finish("setup", &last, Some(&installed), installer)
}

/// Verifies without installing that everything the build needs is there and usable.
pub fn check() -> Result<(), String> {
    let p = probe();
    let installer = p
        .misses
        .iter()
        .any(|m| matches!(m.source, Source::Deb(_)))
        .then(Installer::detect);
    finish("setup --check", &p, None, installer)
}

/// Prints the summary line if nothing is missing (with what was installed, when `installed` is
/// given); otherwise returns one line per missing thing with the command that fixes it.
fn finish(
    name: &str,
    p: &Probe,
    installed: Option<&[&str]>,
    installer: Option<Installer>,
) -> Result<(), String> {
    let installed = installed.unwrap_or_default();
    if p.misses.is_empty() {
        let tail = match installed {
            [] if name == "setup" => "; installed nothing".to_string(),
            [] => String::new(),
            done => format!("; installed {}", done.join(", ")),
        };
        eprintln!("xtask: {name}: {} present{tail}", p.present.join(", "));
        return Ok(());
    }
    let lines: Vec<String> = p
        .misses
        .iter()
        .map(|m| {
            let fix = m
                .fix
                .clone()
                .unwrap_or_else(|| fix_command(m.source, installer, installed));
            format!("{name}: missing {}: {}; fix: {fix}", m.what, m.detail)
        })
        .collect();
    Err(lines.join("\nxtask: "))
}

/// The command that installs `source`, for a person to run; if it was installed by this very
/// run (`installed`) and is still missing, what to set instead.
fn fix_command(source: Source, installer: Option<Installer>, installed: &[&str]) -> String {
    match (source, installer) {
        (Source::Component(_), _) => "cargo xtask setup".into(),
        (Source::Deb(d), _) if installed.contains(&d) => match d {
            "libclang-dev" => "export LIBCLANG_PATH=<the directory holding libclang-NN.so.N> \
                               (`find / -name 'libclang*.so*' 2>/dev/null` lists them)"
                .into(),
            _ => format!("export CXX=<an installed C++ compiler> ({d} did not provide c++)"),
        },
        (Source::Deb(_), Some(Installer::Root | Installer::Sudo)) => "cargo xtask setup".into(),
        (Source::Deb(d), Some(Installer::NoApt)) => {
            format!("install the equivalent of Debian's {d} with this system's package manager")
        }
        (Source::Deb(d), _) => format!("sudo apt-get update && sudo apt-get install -y {d}"),
    }
}

/// The headless browser the `/docs` test drives (`bins/data-api/tests/docs_browser.rs`):
/// `$SNOWLINE_CHROMIUM`, else Debian's `chromium` on `PATH`, proven by `--version`.
fn chromium() -> Option<(PathBuf, String)> {
    let exe = std::env::var_os("SNOWLINE_CHROMIUM")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| which("chromium"))
        .or_else(|| which("chromium-browser"))?;
    let out = Command::new(&exe).arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    out.status.success().then_some((exe, version))
}

/// Installs Debian's `chromium` where this machine lets xtask run apt-get, for the `/docs`
/// browser test. Optional: without it that test is skipped and says so, unless
/// `SNOWLINE_REQUIRE_BROWSER=1`, which makes a missing browser an error here.
pub fn ensure_browser() -> Result<(), String> {
    let mut installed = false;
    if chromium().is_none()
        && let how @ (Installer::Root | Installer::Sudo) = Installer::detect()
    {
        install_debs(
            &["chromium"],
            how == Installer::Sudo,
            "the headless browser of the /docs test",
        )?;
        installed = true;
    }
    match chromium() {
        Some((exe, version)) => {
            let how = if installed { "installed" } else { "present" };
            eprintln!(
                "xtask: {version} {how} ({}): /docs is tested in it",
                exe.display()
            );
            Ok(())
        }
        None if std::env::var("SNOWLINE_REQUIRE_BROWSER").is_ok_and(|v| v == "1") => Err(
            "missing chromium (SNOWLINE_REQUIRE_BROWSER=1); fix: sudo apt-get update && sudo \
             apt-get install -y chromium, or set SNOWLINE_CHROMIUM"
                .into(),
        ),
        None => {
            eprintln!(
                "xtask: no chromium: the /docs browser test will be skipped (install Debian's \
                 chromium, or set SNOWLINE_CHROMIUM)"
            );
            Ok(())
        }
    }
}

/// Installs Debian packages with apt-get, as root or through passwordless sudo; `why` says what
/// for.
fn install_debs(debs: &[&str], sudo: bool, why: &str) -> Result<(), String> {
    let prefix: &[&str] = if sudo { &["sudo", "-n"] } else { &[] };
    eprintln!("xtask: installing {} ({why}) with apt-get", debs.join(" "));
    let env = [("DEBIAN_FRONTEND", "noninteractive")];
    let mut update: Vec<&str> = prefix.to_vec();
    update.extend(["apt-get", "update", "-qq"]);
    status(cmd(&update).envs(env))?;
    let mut install: Vec<&str> = prefix.to_vec();
    install.extend(["apt-get", "install", "-y", "-qq", "--no-install-recommends"]);
    install.extend(debs);
    status(cmd(&install).envs(env))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_name_the_command_for_this_machine() {
        let lib = Source::Deb("libclang-dev");
        assert_eq!(
            fix_command(lib, Some(Installer::Root), &[]),
            "cargo xtask setup"
        );
        assert_eq!(
            fix_command(lib, Some(Installer::Sudo), &["g++"]),
            "cargo xtask setup"
        );
        assert_eq!(
            fix_command(lib, Some(Installer::NotRoot), &[]),
            "sudo apt-get update && sudo apt-get install -y libclang-dev"
        );
        assert!(
            fix_command(lib, Some(Installer::NoApt), &[]).starts_with("install the equivalent")
        );
        let after = fix_command(lib, Some(Installer::Root), &["libclang-dev"]);
        assert!(after.starts_with("export LIBCLANG_PATH="), "{after}");
        assert_eq!(
            fix_command(Source::Component("clippy"), None, &[]),
            "cargo xtask setup"
        );
    }

    #[test]
    fn one_line_per_miss() {
        let p = Probe {
            present: vec!["c++ /usr/bin/c++".into()],
            misses: vec![
                Miss {
                    what: "libclang",
                    detail: "none".into(),
                    source: Source::Deb("libclang-dev"),
                    fix: None,
                },
                Miss {
                    what: "clippy",
                    detail: "`cargo clippy --version` fails".into(),
                    source: Source::Component("clippy"),
                    fix: None,
                },
            ],
        };
        let err = finish("setup --check", &p, None, Some(Installer::NotRoot)).unwrap_err();
        assert_eq!(
            err,
            "setup --check: missing libclang: none; fix: sudo apt-get update && sudo apt-get \
             install -y libclang-dev\nxtask: setup --check: missing clippy: `cargo clippy \
             --version` fails; fix: cargo xtask setup"
        );
    }
}
