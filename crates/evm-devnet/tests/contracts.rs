//! The committed contract fixtures are what `fixtures/evm/contracts/build.mjs` makes from the
//! npm packages (`@openzeppelin/contracts@4.9.6` artifacts, solcjs 0.8.37). Runs when the solc
//! package is in the project's npm cache (`cargo xtask setup` installs it); skipped with a
//! message otherwise, unless `SNOWLINE_REQUIRE_EVM=1`.

use std::path::Path;
use std::process::Command;

use snowline_evm_devnet::anvil::REQUIRE_EVM_ENV;
use snowline_evm_devnet::npm_dir;

#[test]
fn committed_bytecode_is_what_build_mjs_makes() {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/evm/contracts/build.mjs");
    let solc = npm_dir().map(|d| d.join("solc-0.8.37/node_modules/solc/package.json"));
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let missing = match (&solc, node) {
        (Some(s), true) if s.is_file() => None,
        (_, false) => Some("no `node` on PATH".to_string()),
        (s, true) => Some(format!(
            "no solc package at {s:?}; `cargo xtask setup` installs it"
        )),
    };
    if let Some(why) = missing {
        assert_ne!(
            std::env::var(REQUIRE_EVM_ENV).as_deref(),
            Ok("1"),
            "{why} ({REQUIRE_EVM_ENV}=1)"
        );
        eprintln!("committed_bytecode_is_what_build_mjs_makes: skipped, {why}");
        return;
    }
    let out = Command::new("node")
        .arg(&script)
        .arg("--check")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "fixtures differ from build.mjs output (regenerate: node fixtures/evm/contracts/build.mjs): {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
