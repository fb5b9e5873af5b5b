//! Checks for what a build of the workspace needs beyond rustup, and installs it where it can.

use std::path::Path;
use std::process::Command;

use crate::run::{cmd, status};

/// Ensures every prerequisite is present, installing what is missing when this machine allows it.
pub fn ensure_all() -> Result<(), String> {
    let mut debs: Vec<&str> = Vec::new();
    if !have_cxx() {
        debs.push("g++");
    }
    if !have_libclang() {
        debs.push("libclang-dev");
    }
    if !debs.is_empty() {
        install_debs(&debs)?;
        if !have_libclang() {
            return Err(
                "libclang is still not found after installing libclang-dev; set LIBCLANG_PATH to \
                        the directory holding libclang.so"
                    .into(),
            );
        }
    }
    for component in ["rustfmt", "clippy"] {
        ensure_component(component)?;
    }
    Ok(())
}

fn have_cxx() -> bool {
    ["c++", "g++", "clang++"].iter().any(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// libclang as bindgen finds it: `LIBCLANG_PATH`, the llvm directories Debian and Ubuntu use, or ldconfig.
fn have_libclang() -> bool {
    if let Ok(dir) = std::env::var("LIBCLANG_PATH")
        && dir_has_libclang(Path::new(&dir))
    {
        return true;
    }
    let llvm_dirs = std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("llvm-"))
        .map(|e| e.path().join("lib"));
    let common = [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
    ]
    .into_iter()
    .map(Into::into);
    if llvm_dirs
        .chain(common)
        .any(|d: std::path::PathBuf| dir_has_libclang(&d))
    {
        return true;
    }
    Command::new("ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("libclang"))
}

fn dir_has_libclang(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libclang")
                && name.contains(".so")
                && !name.starts_with("libclang-cpp")
        })
}

fn install_debs(debs: &[&str]) -> Result<(), String> {
    let list = debs.join(" ");
    let apt = Command::new("apt-get").arg("--version").output().is_ok();
    if !apt {
        return Err(format!(
            "missing system packages ({list}); this is not a Debian/Ubuntu machine, so install the \
             equivalent (a C++ compiler and libclang) with your package manager and run again"
        ));
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let sudo: &[&str] = if root {
        &[]
    } else if Command::new("sudo")
        .args(["-n", "true"])
        .status()
        .is_ok_and(|s| s.success())
    {
        &["sudo", "-n"]
    } else {
        return Err(format!(
            "missing system packages ({list}); run `sudo apt-get update && sudo apt-get install -y {list}` \
             and then this command again"
        ));
    };
    eprintln!("xtask: installing {list} (needed to build RocksDB) with apt-get");
    let env = [("DEBIAN_FRONTEND", "noninteractive")];
    let mut update: Vec<&str> = sudo.to_vec();
    update.extend(["apt-get", "update", "-qq"]);
    status(cmd(&update).envs(env))?;
    let mut install: Vec<&str> = sudo.to_vec();
    install.extend(["apt-get", "install", "-y", "-qq", "--no-install-recommends"]);
    install.extend(debs);
    status(cmd(&install).envs(env))
}

fn ensure_component(component: &str) -> Result<(), String> {
    let probe = if component == "rustfmt" {
        Command::new("cargo").args(["fmt", "--version"]).output()
    } else {
        Command::new("cargo").args(["clippy", "--version"]).output()
    };
    if probe.is_ok_and(|o| o.status.success()) {
        return Ok(());
    }
    eprintln!("xtask: installing the rustup component {component}");
    status(&mut cmd(&["rustup", "component", "add", component]))
}
