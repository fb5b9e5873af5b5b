//! The chain metrics a recording implies, computed for end-to-end tests from the recorded JSON
//! through [`model`](crate::model) with nothing of the indexer's code: every bucket of every
//! interval with every metric's value, as the metrics API defines them (`docs/metrics-api.md`).
//! Also [`retime`], which moves a recording's blocks in time so its buckets span hours, days,
//! weeks and months. It panics on a recording the recorder did not write.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use alloy_primitives::Address;
use serde_json::Value;

use crate::model::{RecordingModel, addr, q, u};

/// A metric's expected value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expected {
    /// An exact integer.
    Count(u128),
    /// A quotient.
    Ratio(f64),
}

/// One expected bucket.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedBucket {
    /// Metric name -> value.
    pub values: BTreeMap<&'static str, Expected>,
    /// No recorded block at or after the bucket's end.
    pub in_progress: bool,
}

/// The intervals, by `timeInterval` name.
pub const INTERVALS: [&str; 4] = ["hour", "day", "week", "month"];

/// The metrics served at every interval; the others only at `day`.
pub const ANY_INTERVAL: [&str; 4] = ["activeAddresses", "activeSenders", "gasUsed", "txCount"];

/// Every metric name.
pub const METRICS: [&str; 17] = [
    "activeAddresses",
    "activeSenders",
    "cumulativeTxCount",
    "cumulativeAddresses",
    "cumulativeContracts",
    "cumulativeDeployers",
    "contracts",
    "deployers",
    "gasUsed",
    "txCount",
    "avgGps",
    "maxGps",
    "avgTps",
    "maxTps",
    "avgGasPrice",
    "maxGasPrice",
    "feesPaid",
];

const DAY: u64 = 86_400;

fn is_leap(y: u64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn month_days(y: u64, m: usize) -> u64 {
    const DAYS: [u64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    DAYS[m] + u64::from(m == 1 && is_leap(y))
}

/// `[start, end)` of the bucket of `interval` holding `ts`, by walking the calendar.
pub fn bucket(interval: &str, ts: u64) -> (u64, u64) {
    match interval {
        "hour" => (ts / 3_600 * 3_600, ts / 3_600 * 3_600 + 3_600),
        "day" => (ts / DAY * DAY, ts / DAY * DAY + DAY),
        "week" => {
            // 1970-01-05 was a Monday.
            let monday = 4 * DAY;
            let start = monday + (ts - monday) / (7 * DAY) * 7 * DAY;
            (start, start + 7 * DAY)
        }
        "month" => {
            let mut start = 0;
            for y in 1970.. {
                for m in 0..12 {
                    let end = start + month_days(y, m) * DAY;
                    if ts < end {
                        return (start, end);
                    }
                    start = end;
                }
            }
            unreachable!()
        }
        other => panic!("no interval {other}"),
    }
}

/// One block as the metrics see it.
struct Blk {
    time: u64,
    gas_used: u64,
    txs: u64,
    fees: u128,
    price_sum: u128,
    price_max: u128,
    senders: BTreeSet<Address>,
    addresses: BTreeSet<Address>,
    contracts: u64,
    deployers: BTreeSet<Address>,
}

fn read_blocks(m: &RecordingModel) -> Vec<Blk> {
    let transfers = m.transfers();
    let creations = m.creations();
    m.blocks
        .iter()
        .map(|b| {
            let mut k = Blk {
                time: q(&b.block["timestamp"]),
                gas_used: q(&b.block["gasUsed"]),
                txs: 0,
                fees: 0,
                price_sum: 0,
                price_max: 0,
                senders: BTreeSet::new(),
                addresses: BTreeSet::new(),
                contracts: 0,
                deployers: BTreeSet::new(),
            };
            let mut saw = |from: Address, to: Option<Address>| {
                k.senders.insert(from);
                k.addresses.insert(from);
                k.addresses.extend(to);
            };
            let txs = b.block["transactions"].as_array().unwrap();
            for (i, tx) in txs.iter().enumerate() {
                let receipt = &b.receipts[i];
                let price: u128 = u(&receipt["effectiveGasPrice"]).to();
                k.fees += u128::from(q(&receipt["gasUsed"])) * price;
                k.price_sum += price;
                k.price_max = k.price_max.max(price);
                let to = match &tx["to"] {
                    Value::Null => None,
                    v => Some(addr(v)),
                };
                saw(addr(&tx["from"]), to);
            }
            for t in transfers.iter().filter(|t| t.block == b.number) {
                saw(t.from, Some(t.to));
            }
            k.txs = txs.len() as u64;
            k.senders.remove(&Address::ZERO);
            k.addresses.remove(&Address::ZERO);
            for c in creations.iter().filter(|c| c.block == b.number) {
                k.contracts += 1;
                k.deployers.insert(c.factory.unwrap_or(c.deployer));
            }
            k
        })
        .collect()
}

/// Every bucket of every interval of the recording: `(interval, start) -> bucket`.
pub fn expected_metrics(m: &RecordingModel) -> BTreeMap<(&'static str, u64), ExpectedBucket> {
    let blocks = read_blocks(m);
    let last_time = blocks.last().map_or(0, |b| b.time);
    let mut out = BTreeMap::new();
    for interval in INTERVALS {
        let mut groups: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
        for (i, b) in blocks.iter().enumerate() {
            groups
                .entry(bucket(interval, b.time).0)
                .or_default()
                .push(i);
        }
        for (start, members) in groups {
            let first = members[0];
            let last = *members.last().unwrap();
            let inside = || members.iter().map(|i| &blocks[*i]);
            let upto = || blocks[..=last].iter();
            let count = |n: u64| Expected::Count(u128::from(n));
            let distinct = |f: &dyn Fn(&Blk) -> &BTreeSet<Address>, all: bool| {
                let set: BTreeSet<Address> = if all {
                    upto().flat_map(f).copied().collect()
                } else {
                    inside().flat_map(f).copied().collect()
                };
                count(set.len() as u64)
            };
            let txs: u64 = inside().map(|b| b.txs).sum();
            let gas: u64 = inside().map(|b| b.gas_used).sum();
            let from = if first == 0 {
                blocks[0].time
            } else {
                blocks[first - 1].time
            };
            let span = (blocks[last].time - from).max(1) as f64;
            // Per block: amount over the seconds since the parent (at least 1); block 0 has none.
            let peak = |amount: &dyn Fn(&Blk) -> u64| {
                members
                    .iter()
                    .filter(|i| **i > 0)
                    .map(|i| {
                        let dt = (blocks[*i].time - blocks[i - 1].time).max(1);
                        amount(&blocks[*i]) as f64 / dt as f64
                    })
                    .fold(0.0, f64::max)
            };
            let price_sum: u128 = inside().map(|b| b.price_sum).sum();
            let values: BTreeMap<&'static str, Expected> = [
                ("activeAddresses", distinct(&|b| &b.addresses, false)),
                ("activeSenders", distinct(&|b| &b.senders, false)),
                ("cumulativeTxCount", count(upto().map(|b| b.txs).sum())),
                ("cumulativeAddresses", distinct(&|b| &b.addresses, true)),
                (
                    "cumulativeContracts",
                    count(upto().map(|b| b.contracts).sum()),
                ),
                ("cumulativeDeployers", distinct(&|b| &b.deployers, true)),
                ("contracts", count(inside().map(|b| b.contracts).sum())),
                ("deployers", distinct(&|b| &b.deployers, false)),
                ("gasUsed", count(gas)),
                ("txCount", count(txs)),
                ("avgGps", Expected::Ratio(gas as f64 / span)),
                ("maxGps", Expected::Ratio(peak(&|b| b.gas_used))),
                ("avgTps", Expected::Ratio(txs as f64 / span)),
                ("maxTps", Expected::Ratio(peak(&|b| b.txs))),
                (
                    "avgGasPrice",
                    Expected::Ratio(if txs == 0 {
                        0.0
                    } else {
                        price_sum as f64 / txs as f64
                    }),
                ),
                (
                    "maxGasPrice",
                    Expected::Count(inside().map(|b| b.price_max).max().unwrap_or(0)),
                ),
                ("feesPaid", Expected::Count(inside().map(|b| b.fees).sum())),
            ]
            .into_iter()
            .collect();
            let in_progress = last_time < bucket(interval, start).1;
            out.insert(
                (interval, start),
                ExpectedBucket {
                    values,
                    in_progress,
                },
            );
        }
    }
    out
}

/// The rolling windows by name, with their length in hours (`None`: all time).
pub const WINDOWS: [(&str, Option<u64>); 7] = [
    ("lastHour", Some(1)),
    ("lastDay", Some(24)),
    ("lastWeek", Some(7 * 24)),
    ("lastMonth", Some(30 * 24)),
    ("last90Days", Some(90 * 24)),
    ("lastYear", Some(365 * 24)),
    ("allTime", None),
];

/// The first second of a window of `hours` hours (`None`: all time) ending with the hour
/// holding `tip`: the start of the hour `hours - 1` hours before the tip's.
pub fn window_start(hours: Option<u64>, tip: u64) -> u64 {
    hours.map_or(0, |h| (tip / 3_600 * 3_600).saturating_sub((h - 1) * 3_600))
}

/// The time of the recording's last block.
pub fn last_time(m: &RecordingModel) -> u64 {
    m.blocks.last().map_or(0, |b| q(&b.block["timestamp"]))
}

/// `metric` over the recording's blocks at or after `start` (`None` when there are none): sums,
/// maxima and distinct sets over those blocks, averages over the seconds from the block before
/// the first of them (the first block's own time for the chain's first) to the last block.
pub fn expected_window(m: &RecordingModel, metric: &str, start: u64) -> Option<Expected> {
    let blocks = read_blocks(m);
    let first = blocks.iter().position(|b| b.time >= start)?;
    let inside = &blocks[first..];
    let tip = blocks.last()?.time;
    let from = if first == 0 {
        blocks[0].time
    } else {
        blocks[first - 1].time
    };
    let span = (tip - from).max(1) as f64;
    let txs: u64 = inside.iter().map(|b| b.txs).sum();
    let gas: u64 = inside.iter().map(|b| b.gas_used).sum();
    let peak = |amount: &dyn Fn(&Blk) -> u64| {
        (first.max(1)..blocks.len())
            .map(|i| {
                let dt = (blocks[i].time - blocks[i - 1].time).max(1);
                amount(&blocks[i]) as f64 / dt as f64
            })
            .fold(0.0, f64::max)
    };
    let distinct = |f: &dyn Fn(&Blk) -> &BTreeSet<Address>| {
        let set: BTreeSet<&Address> = inside.iter().flat_map(f).collect();
        Expected::Count(set.len() as u128)
    };
    Some(match metric {
        "txCount" => Expected::Count(txs.into()),
        "gasUsed" => Expected::Count(gas.into()),
        "feesPaid" => Expected::Count(inside.iter().map(|b| b.fees).sum()),
        "contracts" => Expected::Count(inside.iter().map(|b| b.contracts).sum::<u64>().into()),
        "maxGasPrice" => Expected::Count(inside.iter().map(|b| b.price_max).max().unwrap_or(0)),
        "avgGasPrice" if txs == 0 => Expected::Ratio(0.0),
        "avgGasPrice" => {
            Expected::Ratio(inside.iter().map(|b| b.price_sum).sum::<u128>() as f64 / txs as f64)
        }
        "avgTps" => Expected::Ratio(txs as f64 / span),
        "avgGps" => Expected::Ratio(gas as f64 / span),
        "maxTps" => Expected::Ratio(peak(&|b| b.txs)),
        "maxGps" => Expected::Ratio(peak(&|b| b.gas_used)),
        "activeAddresses" => distinct(&|b| &b.addresses),
        "activeSenders" => distinct(&|b| &b.senders),
        "deployers" => distinct(&|b| &b.deployers),
        other => panic!("no rolling metric {other}"),
    })
}

/// A recording's text with block `n`'s timestamp moved to `start + Σ gaps[..n]` (blocks past
/// the gaps keep the last gap), so a short recording spans hours, days, weeks and months.
pub fn retime(text: &str, start: u64, gaps: &[u64]) -> String {
    let time_of = |n: usize| -> u64 {
        start
            + (0..n)
                .map(|i| gaps.get(i).or(gaps.last()).copied().unwrap_or(0))
                .sum::<u64>()
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut v: Value = serde_json::from_str(line).unwrap();
            if v["method"] == "eth_getBlockByNumber" && v["result"].is_object() {
                let n = q(&v["result"]["number"]) as usize;
                v["result"]["timestamp"] = Value::from(format!("{:#x}", time_of(n)));
            }
            serde_json::to_string(&v).unwrap() + "\n"
        })
        .collect()
}

/// Gaps between blocks (seconds) that put a 13-block recording's blocks in the same second,
/// the same hour, the same day, and across days, a week boundary and a month boundary.
pub const SPREAD_GAPS: [u64; 12] = [
    2,
    0,
    1_500,
    3 * 3_600,
    20 * 3_600,
    2 * DAY,
    5 * DAY,
    1,
    9 * DAY,
    1_800,
    14 * DAY,
    3,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_buckets() {
        // 2023-11-14 22:13:20 UTC, a Tuesday.
        let ts = 1_700_000_000;
        assert_eq!(bucket("week", ts), (1_699_833_600, 1_700_438_400));
        assert_eq!(bucket("month", ts), (1_698_796_800, 1_701_388_800));
        // 2024-02: 29 days.
        let (s, e) = bucket("month", 1_707_000_000);
        assert_eq!((e - s) / DAY, 29);
    }
}
