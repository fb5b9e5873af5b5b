//! The `node-rpc` binary. The service itself arrives with issue #3; until then this binary only says so,
//! rather than pretending to serve.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("node-rpc: not implemented yet (tracked in issue #3); nothing is served");
    ExitCode::from(2)
}
