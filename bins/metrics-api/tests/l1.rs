//! The real `metrics-api` binary on port 0 over an index holding a devnet's P-Chain (converted
//! to an L1 whose validators are registered, reweighted, topped up and disabled): every L1
//! validator metric over HTTP, for the network, every validation id, every node and every
//! subnet, equals the daily points `PChainPages::l1_metrics` reads (itself checked against a
//! per-second model of the txs in `crates/chain-p/tests/l1_metrics.rs`); ranges; and the errors
//! in the spec's shape: 400 for bad parameters, 404 for an unknown validation, node or subnet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};
use snowline_chain_p::metrics::{L1Figure, L1MetricsQuery, L1Point, L1Scope};
use snowline_chain_p::pages::{L1Query, PChainPages};
use snowline_types::{Id, NodeId, ShortId};

use common::pchain::{index_devnet, start};

/// A route's path up to the metric, whose series it reads, and its metric names.
type Route = (String, L1Scope, Vec<(&'static str, L1Figure)>);

fn json_points(points: &[L1Point]) -> Vec<Value> {
    points
        .iter()
        .map(|p| {
            let mut v = json!({"timestamp": p.timestamp, "value": p.value});
            if p.in_progress {
                v["inProgress"] = json!(true);
            }
            v
        })
        .collect()
}

#[test]
fn l1_validator_metrics_over_http_equal_the_p_chain_reads() {
    let dir = tempfile::tempdir().unwrap();
    let store = index_devnet(dir.path());
    let pages = PChainPages::new(Arc::clone(&store));
    let validators = pages
        .l1_validators(
            &L1Query {
                include_inactive: true,
                page_size: 1_000,
                ..L1Query::default()
            },
            None,
        )
        .unwrap()
        .validators;
    assert!(validators.len() > 3, "{} L1 validators", validators.len());
    let api = start(dir.path());
    let read = |scope: L1Scope, figure, from, to| {
        pages
            .l1_metrics(&L1MetricsQuery {
                scope,
                figure,
                from,
                to,
            })
            .unwrap()
    };
    // Every route, metric and scope, whole and over a one-day range.
    let mut routes: Vec<Route> = vec![(
        "/v2/validators/metrics".into(),
        L1Scope::Total,
        vec![
            ("totalCumulativeFeesDaily", L1Figure::CumulativeFees),
            ("totalValidatorFeesDaily", L1Figure::Fees),
            ("totalPayingValidatorsDaily", L1Figure::PayingValidators),
        ],
    )];
    let mut subnets = BTreeSet::new();
    let mut nodes = BTreeSet::new();
    for (id, row) in &validators {
        routes.push((
            format!("/v2/validation/{id}/metrics"),
            L1Scope::Validation(*id),
            vec![
                ("validationCumulativeFeesDaily", L1Figure::CumulativeFees),
                ("validationFeesDaily", L1Figure::Fees),
            ],
        ));
        subnets.insert(row.subnet_id);
        nodes.insert(row.node_id.clone());
    }
    for node in &nodes {
        let id = NodeId(ShortId::from_slice(node).unwrap());
        routes.push((
            format!("/v2/validator/{id}/metrics"),
            L1Scope::Node(node.clone()),
            vec![
                ("perNodeCumulativeFeesPaid", L1Figure::CumulativeFees),
                ("perNodeDailyFeesPaid", L1Figure::Fees),
            ],
        ));
    }
    for subnet in &subnets {
        routes.push((
            format!("/v2/subnet/{subnet}/metrics"),
            L1Scope::Subnet(*subnet),
            vec![
                ("perSubnetDailyFeesPaid", L1Figure::Fees),
                ("perSubnetCumulativeFeesPaid", L1Figure::CumulativeFees),
                ("perSubnetPayingValidators", L1Figure::PayingValidators),
            ],
        ));
    }
    let mut nonzero = 0;
    for (base, scope, metrics) in &routes {
        for (name, figure) in metrics {
            let want = read(scope.clone(), *figure, 0, u64::MAX);
            assert!(!want.is_empty(), "{base}/{name}");
            nonzero += want.iter().filter(|p| p.value > 0).count();
            let path = format!("{base}/{name}");
            let (status, v) = api.get(&path);
            assert_eq!(status, 200, "{path}: {v}");
            assert_eq!(v, json!({"results": json_points(&want)}), "{path}");
            // The day holding startTimestamp up to endTimestamp.
            let day = want.last().unwrap().timestamp;
            let path = format!(
                "{base}/{name}?startTimestamp={}&endTimestamp={}",
                day + 5,
                day + 10
            );
            let (status, v) = api.get(&path);
            assert_eq!(status, 200, "{path}: {v}");
            let one = read(scope.clone(), *figure, day, day + 10);
            assert_eq!(one.len(), 1);
            assert_eq!(v["results"], json!(json_points(&one)), "{path}");
        }
    }
    assert!(nonzero > routes.len(), "{nonzero} nonzero points");

    // Errors: the spec's shape with an array message.
    let vid = validators[0].0;
    let unknown = Id::from([7; 32]);
    let unknown_node = NodeId(ShortId([7; 20]));
    let cases = [
        ("/v2/validators/metrics/validationFeesDaily".to_owned(), 400),
        (
            format!("/v2/validation/{vid}/metrics/totalValidatorFeesDaily"),
            400,
        ),
        (
            "/v2/validation/nope/metrics/validationFeesDaily".to_owned(),
            400,
        ),
        (
            "/v2/validator/nope/metrics/perNodeDailyFeesPaid".to_owned(),
            400,
        ),
        (
            "/v2/subnet/nope/metrics/perSubnetDailyFeesPaid".to_owned(),
            400,
        ),
        (
            "/v2/validators/metrics/totalValidatorFeesDaily?startTimestamp=-1".to_owned(),
            400,
        ),
        (
            "/v2/validators/metrics/totalValidatorFeesDaily?startTimestamp=10&endTimestamp=5"
                .to_owned(),
            400,
        ),
        (
            format!("/v2/validation/{unknown}/metrics/validationFeesDaily"),
            404,
        ),
        (
            format!("/v2/validator/{unknown_node}/metrics/perNodeDailyFeesPaid"),
            404,
        ),
        (
            format!("/v2/subnet/{unknown}/metrics/perSubnetDailyFeesPaid"),
            404,
        ),
    ];
    for (path, status) in &cases {
        let (got, v) = api.get(path);
        assert_eq!(got, *status, "{path}: {v}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
        assert_eq!(v["statusCode"], json!(status), "{path}: {v}");
    }
    // A range before any L1 has no points.
    let (status, v) = api.get("/v2/validators/metrics/totalValidatorFeesDaily?endTimestamp=5");
    assert_eq!((status, v), (200, json!({"results": []})));
}
