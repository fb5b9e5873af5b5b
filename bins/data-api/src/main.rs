//! The `data-api` binary. The service itself arrives with issue #4; until then this binary only says so,
//! rather than pretending to serve.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("data-api: not implemented yet (tracked in issue #4); nothing is served");
    ExitCode::from(2)
}
