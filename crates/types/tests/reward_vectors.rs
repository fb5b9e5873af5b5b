//! The reward calculator against avalanchego's vectors.

use snowline_types::platformvm::reward::{Config, split};

const MEGA_AVAX: u64 = 1_000_000_000_000_000;
const KILO_AVAX: u64 = 1_000_000_000_000;
const DAY_NANOS: u64 = 24 * 3600 * 1_000_000_000;
const YEAR_NANOS: u64 = 365 * DAY_NANOS;

#[test]
fn rewards_match_avalanchego() {
    // vector: avalanchego vms/platformvm/reward/calculator_test.go (TestRewards, defaultConfig
    // = the mainnet curve of genesis/genesis_mainnet.go).
    let c = Config::MAINNET;
    let cases = [
        (YEAR_NANOS, MEGA_AVAX, 360 * MEGA_AVAX, 120 * KILO_AVAX),
        (YEAR_NANOS, MEGA_AVAX, 400 * MEGA_AVAX, 96 * KILO_AVAX),
        (YEAR_NANOS, 2 * MEGA_AVAX, 400 * MEGA_AVAX, 192 * KILO_AVAX),
        (YEAR_NANOS, MEGA_AVAX, 720 * MEGA_AVAX, 0),
        (DAY_NANOS, MEGA_AVAX, 360 * MEGA_AVAX, 274_122_724_713),
        (DAY_NANOS, 5_000_000, 360 * MEGA_AVAX, 1370),
        (DAY_NANOS, MEGA_AVAX, 400 * MEGA_AVAX, 219_298_179_771),
        (DAY_NANOS, 2 * MEGA_AVAX, 400 * MEGA_AVAX, 438_596_359_542),
        (DAY_NANOS, MEGA_AVAX, 720 * MEGA_AVAX, 0),
    ];
    for (d, stake, supply, want) in cases {
        assert_eq!(c.calculate(d, stake, supply), want, "{d} {stake} {supply}");
    }
}

#[test]
fn reward_is_capped_by_remaining_supply() {
    // vector: avalanchego vms/platformvm/reward/calculator_test.go (TestRewardsOverflow,
    // TestRewardsMint: the reward never exceeds supplyCap - currentSupply).
    let c = Config {
        max_consumption_rate: 1_000_000,
        min_consumption_rate: 1_000_000,
        minting_period_nanos: DAY_NANOS,
        supply_cap: u64::MAX,
    };
    assert_eq!(c.calculate(DAY_NANOS, u64::MAX, 1), u64::MAX - 1);
    let c = Config {
        supply_cap: 1000,
        ..c
    };
    assert_eq!(c.calculate(DAY_NANOS, 1000, 1), 999);
}

#[test]
fn estimate_from_unix_times() {
    let c = Config::for_network(1);
    assert_eq!(
        c.estimate(0, 24 * 3600, MEGA_AVAX, 360 * MEGA_AVAX),
        274_122_724_713
    );
    assert_eq!(c.estimate(10, 5, MEGA_AVAX, 360 * MEGA_AVAX), 0);
}

#[test]
fn split_matches_avalanchego() {
    // vector: avalanchego vms/platformvm/reward/calculator_test.go (TestSplit).
    let cases = [
        (1000, 500_000, 500),
        (1, 1_000_000, 1),
        (1, 999_999, 1),
        (1, 1, 1),
        (1, 0, 0),
        (9_223_374_036_974_675_809, 2, 18_446_748_749_757),
        (
            9_223_374_036_974_675_809,
            1_000_000,
            9_223_374_036_974_675_809,
        ),
        (
            9_223_372_036_855_275_808,
            999_998,
            9_223_353_590_111_202_098,
        ),
        (9_223_372_036_855_275_808, 2, 18_446_744_349_518),
    ];
    for (amount, shares, want) in cases {
        assert_eq!(
            split(amount, shares),
            (want, amount - want),
            "{amount} {shares}"
        );
    }
}

#[test]
fn helicon_primary_network_ramp_matches_avalanchego() {
    // vector: avalanchego vms/platformvm/reward/calculator_test.go
    // (TestPrimaryNetworkCalculatorHeliconRewards: Helicon at Unix 1_000_000, 1-day stake of
    // 1 M AVAX at 360 M supply, defaultConfig with the min/max rates of each case).
    const HELICON: u64 = 1_000_000;
    const RAMP: u64 = 90 * 24 * 3600;
    let cases: [(u64, u64, u64, u64); 14] = [
        (100_000, 0, HELICON, 274_122_724_713),
        (100_000, 0, HELICON + RAMP / 3, 251_355_136_048),
        (100_000, 0, HELICON + RAMP, 205_817_226_496),
        (80_000, 0, HELICON + RAMP / 2, 212_647_776_318),
        (10_000, 0, HELICON + RAMP / 2, 117_020_078_814),
        (74_999, 0, HELICON, 205_814_494_276),
        (74_999, 0, HELICON + RAMP / 2, 205_814_494_276),
        (74_999, 0, HELICON + RAMP, 205_817_226_496),
        (75_000, 0, HELICON + RAMP / 2, 205_817_226_496),
        (75_001, 0, HELICON, 205_819_958_716),
        (75_001, 0, HELICON + RAMP / 2, 205_819_958_716),
        (75_001, 0, HELICON + RAMP, 205_817_226_496),
        (10_000, 20_000, HELICON + RAMP, 27_472_321_261),
        // Before Helicon the configured curve applies unchanged (newCalculatorsBeforeHelicon).
        (100_000, 0, HELICON - 1, 274_122_724_713),
    ];
    for (min, max, start, want) in cases {
        let mut c = Config::MAINNET;
        c.min_consumption_rate = min;
        if max != 0 {
            c.max_consumption_rate = max;
        }
        let got = c.calculate_primary_network(
            Some(HELICON),
            start,
            DAY_NANOS,
            MEGA_AVAX,
            360 * MEGA_AVAX,
        );
        assert_eq!(got, want, "min {min} max {max} start {start}");
    }
}

#[test]
fn helicon_is_unscheduled_on_mainnet_and_fuji() {
    // vector: avalanchego upgrade/upgrade.go (Mainnet and Fuji `HeliconTime:
    // UnscheduledActivationTime`): mainnet rewards follow the plain curve.
    use snowline_types::platformvm::reward::{FUJI_HELICON_TIME, MAINNET_HELICON_TIME};
    assert_eq!(MAINNET_HELICON_TIME, None);
    assert_eq!(FUJI_HELICON_TIME, None);
    let c = Config::MAINNET;
    assert_eq!(
        c.for_primary_network_stake(MAINNET_HELICON_TIME, u64::MAX),
        c
    );
    // Once active and fully ramped, the minimum is the ACP-285 target.
    assert_eq!(
        c.for_primary_network_stake(Some(0), 90 * 24 * 3600)
            .min_consumption_rate,
        75_000
    );
}
