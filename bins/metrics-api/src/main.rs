//! The `metrics-api` binary. The service itself arrives with a later issue; until then this binary only says so,
//! rather than pretending to serve.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("metrics-api: not implemented yet (tracked in a later issue); nothing is served");
    ExitCode::from(2)
}
