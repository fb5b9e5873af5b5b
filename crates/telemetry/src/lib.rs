//! Prometheus exposition for collectors that read a status snapshot at each scrape (the
//! follower's, the fleet's): each figure written as a constant gauge or counter, so a scrape
//! shows the value of that moment and nothing is kept between scrapes; a distribution the
//! status keeps itself (a histogram) is written as it stands.

use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::Histogram;

/// Writes `value` as the gauge `name`.
pub fn gauge<G: EncodeMetric>(
    e: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: G,
) -> std::fmt::Result {
    value.encode(e.encode_descriptor(name, help, None, value.metric_type())?)
}

/// Writes `value` as the gauge `name`, saturating at `i64::MAX`.
pub fn gauge_u64(
    e: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: u64,
) -> std::fmt::Result {
    gauge(
        e,
        name,
        help,
        ConstGauge::new(i64::try_from(value).unwrap_or(i64::MAX)),
    )
}

/// Writes a flag as the gauge `name`: 1 when set, else 0.
pub fn flag(e: &mut DescriptorEncoder, name: &str, help: &str, value: bool) -> std::fmt::Result {
    gauge(e, name, help, ConstGauge::new(i64::from(value)))
}

/// Writes `value` as the counter `name` (exposed as `name_total`).
pub fn counter(e: &mut DescriptorEncoder, name: &str, help: &str, value: u64) -> std::fmt::Result {
    let c = ConstCounter::new(value);
    c.encode(e.encode_descriptor(name, help, None, c.metric_type())?)
}

/// Writes `value` as the histogram `name` (its `_bucket`, `_sum` and `_count` series).
pub fn histogram(
    e: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: &Histogram,
) -> std::fmt::Result {
    value.encode(e.encode_descriptor(name, help, None, value.metric_type())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prometheus_client::collector::Collector;
    use prometheus_client::registry::Registry;

    #[derive(Debug)]
    struct Fixed(Histogram);

    impl Collector for Fixed {
        fn encode(&self, mut e: DescriptorEncoder) -> std::fmt::Result {
            gauge_u64(&mut e, "big", "past i64", u64::MAX)?;
            flag(&mut e, "up", "a flag", true)?;
            gauge(&mut e, "ratio", "a float", ConstGauge::new(0.5))?;
            counter(&mut e, "done", "a counter", 3)?;
            histogram(&mut e, "wait_seconds", "a histogram", &self.0)
        }
    }

    #[test]
    fn writes_each_kind_in_the_exposition_format() {
        let waits = Histogram::new([0.5, 2.0]);
        for v in [0.25, 1.0, 1.5, 3.0] {
            waits.observe(v);
        }
        let mut registry = Registry::default();
        registry.register_collector(Box::new(Fixed(waits)));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        for line in [
            "# TYPE big gauge",
            &format!("big {}", i64::MAX),
            "up 1",
            "ratio 0.5",
            "# TYPE done counter",
            "done_total 3",
            "# TYPE wait_seconds histogram",
            "wait_seconds_sum 5.75",
            "wait_seconds_count 4",
            "wait_seconds_bucket{le=\"0.5\"} 1",
            "wait_seconds_bucket{le=\"2.0\"} 3",
            "wait_seconds_bucket{le=\"+Inf\"} 4",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
        }
    }
}
