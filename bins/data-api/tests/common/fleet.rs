//! What the fleet tests read off a node's `/metrics` and `/readyz`.

use super::DataApi;

/// The value of an unlabelled metric on `/metrics` (a counter by its name or with `_total`).
pub fn metric(api: &DataApi, name: &str) -> Option<f64> {
    let body = api.get("/metrics").body;
    body.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let (n, v) = l.split_once(' ')?;
        (n == name || n == format!("{name}_total")).then(|| v.trim().parse().ok())?
    })
}

/// Whether the primary has indexed all `held` containers of its upstream and has every batch
/// acknowledged. (Its own "nothing behind" is not enough: it counts from the upstream's head as
/// last asked, and a round goes on past that head, so between two batches of containers
/// appended since it reads 0.)
pub fn primary_settled(p: &DataApi, held: usize) -> bool {
    p.get("/readyz").status == 200
        && metric(p, "snowline_ingest_indexed_containers") == Some(held as f64)
        && metric(p, "snowline_ingest_behind_containers") == Some(0.0)
        && metric(p, "snowline_fleet_position")
            .is_some_and(|pos| pos > 0.0 && metric(p, "snowline_fleet_acked") == Some(pos))
}
