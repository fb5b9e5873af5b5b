//! The ICM scenario on two real anvils. Skipped with a message when anvil is missing, unless
//! `SNOWLINE_REQUIRE_EVM=1` (CI).

use snowline_evm_devnet::anvil_or_skip;
use snowline_evm_devnet::icm::start_icm_devnet;

#[tokio::test]
async fn icm_scenario_runs() {
    if !anvil_or_skip("icm_scenario_runs") {
        return;
    }
    let (_anvils, run) = start_icm_devnet(1).await.unwrap();
    eprintln!("{run:#?}");
}
