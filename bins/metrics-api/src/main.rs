//! The `metrics-api` binary. The service is not built yet; until it is, this binary says so rather
//! than pretending to serve.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!("metrics-api: not implemented yet; nothing is served");
    ExitCode::from(2)
}
