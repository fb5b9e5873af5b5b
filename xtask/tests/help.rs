//! Every command and subcommand of `cargo xtask` answers `--help` and `-h` with its usage, and
//! does nothing else: run with an empty PATH, a command that went ahead instead would find no
//! cargo, apt-get or npm and fail.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("PATH", "")
        .output()
        .unwrap()
}

/// The top-level help, and the commands it lists: each line that starts with two spaces and a
/// word names one (`  NAME ...`), and a synopsis `  NAME SUB ...` with a lower-case `SUB` (or
/// `--check`) names a subcommand of it.
fn listed() -> (String, Vec<(String, Option<String>)>) {
    let out = xtask(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut found = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("  ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        // The synopsis ends where two spaces start the description.
        let synopsis = rest.split("  ").next().unwrap();
        let mut words = synopsis.split(' ');
        let name = words.next().unwrap().to_owned();
        let sub = words.next().filter(|w| {
            w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                && (w.starts_with("--") || !w.starts_with('-'))
        });
        found.push((name, sub.map(str::to_owned)));
    }
    (text, found)
}

#[test]
fn the_top_level_help_lists_the_commands() {
    let (text, commands) = listed();
    assert!(text.starts_with("usage: cargo xtask"), "{text}");
    let names: Vec<&str> = commands.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "setup",
        "check-layers",
        "demo",
        "test",
        "harden",
        "interop",
        "fuzz",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    for args in [&["-h"][..], &["help"]] {
        let out = xtask(args);
        assert!(out.status.success());
        assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
    }
}

#[test]
fn every_command_and_subcommand_answers_help() {
    let (text, commands) = listed();
    for (name, sub) in &commands {
        let mut forms: Vec<Vec<&str>> = vec![vec![name], vec!["help", name]];
        if let Some(sub) = sub {
            forms.push(vec![name, sub]);
        }
        for form in forms {
            for flag in ["--help", "-h"] {
                let mut args = form.clone();
                if args[0] != "help" {
                    args.push(flag);
                }
                let out = xtask(&args);
                let stdout = String::from_utf8_lossy(&out.stdout);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{args:?}: {stdout}{stderr}");
                assert!(
                    stdout.starts_with(&format!("usage: cargo xtask {name}\n")),
                    "{args:?}: {stdout}"
                );
                // Its usage is the block the top-level help shows for it.
                let block: Vec<&str> = stdout.lines().skip(1).collect();
                assert!(!block.is_empty());
                assert!(text.contains(&block.join("\n")), "{args:?}: {stdout}");
                assert!(stderr.is_empty(), "{args:?}: {stderr}");
            }
        }
    }
}

#[test]
fn an_unknown_command_is_refused_with_the_usage() {
    for args in [&["nope"][..], &["nope", "--help"], &["help", "nope"]] {
        let out = xtask(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("unknown command `nope`"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("usage: cargo xtask"), "{args:?}: {stderr}");
    }
}
