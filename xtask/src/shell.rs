//! Running commands: one built from its argv, and one run echoed, its failure an error naming it.

use std::process::Command;

/// A command from its program and arguments.
pub fn cmd(argv: &[&str]) -> Command {
    let mut c = Command::new(argv[0]);
    c.args(&argv[1..]);
    c
}

/// Runs `c`, echoing it, and turns a non-zero exit into an error naming it.
pub fn status(c: &mut Command) -> Result<(), String> {
    let shown = format!("{c:?}").replace('"', "");
    eprintln!("xtask: $ {shown}");
    match c.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("`{shown}` failed ({s})")),
        Err(e) => Err(format!("could not start `{shown}`: {e}")),
    }
}
