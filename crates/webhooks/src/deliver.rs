//! Delivery: one task per active webhook reads the next few events of its outbox in one scan,
//! POSTs each in turn signed ([`crate::sign`]) to a checked address ([`crate::net`]), and on a
//! 2xx answer hands it to the acknowledgements ([`crate::acks`]), which delete it and advance the
//! webhook's cursor in one batch with the other deliveries done by then; anything else is retried after each delay of the
//! schedule in turn, and a webhook whose schedule runs out is deactivated (its events stay
//! queued). So each webhook's events arrive in order, at least once; only an event whose
//! acknowledgement was not written (a crash between the receiver's 2xx and the group's write)
//! is sent again.
//! Requests go through the outbound client (`snowline-outbound`, http or https, keep-alive
//! connections reused per destination); redirects are not followed: a 3xx is a failed attempt.
//!
//! Deliveries in flight are capped across all webhooks ([`DeliveryConfig::concurrency`]): each
//! attempt holds one permit of a fair (first come, first served) semaphore, asked for again for
//! every attempt, so the webhooks with events take turns, one delivery each, and a long backlog
//! waits in line like any other; a webhook waiting to retry holds none.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use snowline_outbound::{Client, ClientConfig, PoolConfig, Redirects, Request};
use snowline_store::{Direction, ReadView, StoreError};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

use crate::acks::Acks;
use crate::model::Status;
use crate::net::{ALLOW_FLAG, AllowList};
use crate::outbox::Wakers;
use crate::service::Webhooks;
use crate::sign::{body_signature, timestamped_signature};
use crate::tables::{WhAcked, WhEvents};

/// How deliveries are made.
#[derive(Debug, Clone)]
pub struct DeliveryConfig {
    /// Private networks deliveries may reach.
    pub allow: AllowList,
    /// The delays between attempts; when they run out the webhook is deactivated.
    pub retries: Vec<Duration>,
    /// Resolving, connecting (TLS included) and the answer, all within this.
    pub timeout: Duration,
    /// Most deliveries in flight at once, across all webhooks (each webhook has at most one).
    pub concurrency: usize,
}

/// The default cap on deliveries in flight: enough to keep a receiver 100 ms away busy at some
/// 2,500 deliveries a second, few enough that its connections fit any descriptor limit.
pub const DEFAULT_CONCURRENCY: usize = 256;

/// Glacier's retry schedule: 10 s, then 1 m, 5 m, 10 m, 30 m, 2 h, 6 h, 12 h and 24 h.
pub const GLACIER_RETRIES: &str = "10s,1m,5m,10m,30m,2h,6h,12h,24h";

impl Default for DeliveryConfig {
    fn default() -> Self {
        Self {
            allow: AllowList::default(),
            retries: parse_schedule(GLACIER_RETRIES).unwrap_or_default(),
            timeout: Duration::from_secs(10),
            concurrency: DEFAULT_CONCURRENCY,
        }
    }
}

/// A schedule `D,D,...`, each a whole number with `ms`, `s`, `m` or `h`.
pub fn parse_schedule(s: &str) -> Result<Vec<Duration>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let split = d.find(|c: char| !c.is_ascii_digit()).unwrap_or(d.len());
            let (n, unit) = d.split_at(split);
            let n: u64 = n
                .parse()
                .map_err(|_| format!("{d:?} is not a duration such as 500ms, 10s, 5m or 2h"))?;
            match unit {
                "ms" => Ok(Duration::from_millis(n)),
                "s" => Ok(Duration::from_secs(n)),
                "m" => Ok(Duration::from_secs(n.saturating_mul(60))),
                "h" => Ok(Duration::from_secs(n.saturating_mul(3600))),
                _ => Err(format!("{d:?}: the unit must be ms, s, m or h")),
            }
        })
        .collect()
}

/// How long an idle worker waits before looking at its outbox again when its bell did not ring
/// (a safety net: a written batch rings every webhook it holds events of). Ten thousand idle
/// webhooks look once a minute each, not once a second.
const IDLE: Duration = Duration::from_secs(60);

impl DeliveryConfig {
    /// The outbound client of deliveries: this config's networks and timeout, redirects refused,
    /// the receiver's body not read; it keeps as many idle connections as deliveries may be in
    /// flight (to one receiver or spread over many), no more.
    pub fn client(&self) -> Result<Client, String> {
        let cap = self.concurrency.max(1);
        Client::new(ClientConfig {
            allow: self.allow.clone(),
            allow_flag: ALLOW_FLAG.to_owned(),
            timeout: self.timeout,
            redirects: Redirects::Refuse,
            user_agent: "snowline-webhooks/1".to_owned(),
            pool: PoolConfig {
                max_idle_per_destination: cap,
                max_idle: cap,
                ..PoolConfig::default()
            },
            ..ClientConfig::default()
        })
    }
}

/// Runs the delivery of every active webhook until aborted; `written` rings a webhook when the
/// block hooks have written events of it.
pub async fn run(webhooks: Arc<Webhooks>, config: DeliveryConfig, written: Arc<Wakers>) {
    let client = match config.client() {
        Ok(c) => Arc::new(c),
        Err(e) => {
            tracing::error!(error = %e, "webhook deliveries cannot start");
            return;
        }
    };
    let to = Delivering {
        client,
        permits: Arc::new(Semaphore::new(config.concurrency.max(1))),
        acks: Acks::start(Arc::clone(webhooks.store())),
    };
    let config = Arc::new(config);
    let mut workers: HashMap<String, JoinHandle<()>> = HashMap::new();
    loop {
        workers.retain(|_, h| !h.is_finished());
        for sub in webhooks.registry().active(None) {
            let id = sub.webhook.id.clone();
            if workers.contains_key(&id) {
                continue;
            }
            let task = tokio::spawn(worker(
                Arc::clone(&webhooks),
                Arc::clone(&config),
                to.clone(),
                Arc::clone(&written),
                id.clone(),
            ));
            workers.insert(id, task);
        }
        tokio::select! {
            () = webhooks.changed().notified() => {}
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

/// Most events a delivery task reads ahead in one scan of its outbox, and the bytes after which
/// it stops reading (one event at least): few enough that ten thousand webhooks with a backlog
/// hold some 160 MiB at most.
const READ_AHEAD: usize = 8;
const READ_AHEAD_BYTES: usize = 16 * 1024;

/// Events read ahead and not yet delivered: `(sequence, body)`, in order.
type Pending = VecDeque<(u64, Vec<u8>)>;

/// The events of webhook `id` from sequence `from` on (from its first when `None`), up to the
/// read-ahead bound, in one scan; and whether the scan reached the end of the outbox.
fn read_ahead(
    webhooks: &Webhooks,
    id: &str,
    from: Option<u64>,
) -> Result<(Pending, bool), StoreError> {
    let id = id.to_owned();
    let after = from.and_then(|n| n.checked_sub(1)).map(|n| (id.clone(), n));
    let scan =
        webhooks
            .store()
            .prefix_scan::<WhEvents, _>(&id, after.as_ref(), Direction::Forward)?;
    let mut events = VecDeque::new();
    let mut bytes = 0;
    for entry in scan {
        if events.len() >= READ_AHEAD || bytes >= READ_AHEAD_BYTES {
            return Ok((events, false));
        }
        let ((_, seq), body) = entry?;
        bytes += body.len();
        events.push_back((seq, body));
    }
    Ok((events, true))
}

/// Where webhook `id`'s delivery starts: past what this process acknowledged, else past the
/// written cursor (so the scan seeks over the deleted events' tombstones), else its first event.
fn start(webhooks: &Webhooks, acks: &Acks, id: &str) -> Option<u64> {
    acks.next(id).or_else(|| {
        webhooks
            .store()
            .get::<WhAcked>(&id.to_owned())
            .ok()
            .flatten()
    })
}

/// Delivers webhook `id`'s events while it is active: reads the next few in one scan, delivers
/// them one at a time, hands each delivered one to the acknowledgements, then reads on from
/// the sequence after it. A scan that reached the end of the outbox waits for the bell before
/// the next: a batch written after the scan began rings it.
async fn worker(
    webhooks: Arc<Webhooks>,
    config: Arc<DeliveryConfig>,
    to: Delivering,
    written: Arc<Wakers>,
    id: String,
) {
    let bell = written.of(&id);
    let mut next = start(&webhooks, &to.acks, &id);
    let mut pending = Pending::new();
    let mut drained = false;
    loop {
        let Some(sub) = webhooks.registry().get(&id) else {
            return;
        };
        if sub.webhook.status != Status::Active {
            return;
        }
        let Some((seq, body)) = pending.pop_front() else {
            if drained {
                // A ring after the scan and before this wait is kept, so no event waits for IDLE.
                tokio::select! {
                    () = bell.notified() => {}
                    () = tokio::time::sleep(IDLE) => {}
                }
                drained = false;
                continue;
            }
            match read_ahead(&webhooks, &id, next) {
                Ok((events, end)) => {
                    pending = events;
                    drained = end;
                }
                Err(e) => {
                    tracing::warn!(webhook = %id, error = %e, "reading the outbox failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            continue;
        };
        let via = Delivery {
            client: &to.client,
            permits: &to.permits,
        };
        if !deliver(&webhooks, &config, via, &id, seq, body).await {
            return;
        }
        to.acks.ack(&id, seq);
        next = Some(seq + 1);
    }
}

/// What each delivery task shares: the client, the permits and the acknowledgements.
#[derive(Clone)]
struct Delivering {
    client: Arc<Client>,
    permits: Arc<Semaphore>,
    acks: Arc<Acks>,
}

/// What every attempt goes through: the client and the permits of deliveries in flight.
#[derive(Clone, Copy)]
struct Delivery<'a> {
    client: &'a Client,
    permits: &'a Semaphore,
}

/// Delivers one event, retrying on the schedule: true once the receiver answered 2xx, false
/// when the webhook stopped being active (or was deactivated because the schedule ran out).
async fn deliver(
    webhooks: &Webhooks,
    config: &DeliveryConfig,
    to: Delivery<'_>,
    id: &str,
    seq: u64,
    body: Vec<u8>,
) -> bool {
    let body = Bytes::from(body);
    let mut attempt = 0usize;
    loop {
        // Held for this attempt only: the next one (this webhook's next event, or a retry)
        // asks again and so queues behind the webhooks already waiting.
        let Ok(permit) = to.permits.acquire().await else {
            return false;
        };
        let Some(sub) = webhooks.registry().get(id) else {
            return false;
        };
        if sub.webhook.status != Status::Active {
            return false;
        }
        let w = &sub.webhook;
        let outcome = match webhooks.secret(&w.org_id) {
            Ok(secret) => post(to.client, &w.url, body.clone(), &secret).await,
            Err(e) => Err(e.to_string()),
        };
        drop(permit);
        match outcome {
            Ok(()) => return true,
            Err(e) => {
                tracing::info!(webhook = %id, seq, attempt, error = %e, "delivery failed");
                let Some(delay) = config.retries.get(attempt) else {
                    tracing::warn!(webhook = %id, "retries exhausted: webhook deactivated");
                    if let Err(e) = webhooks.deactivate(&w.org_id, id) {
                        tracing::warn!(webhook = %id, error = %e, "deactivating failed");
                    }
                    return false;
                };
                attempt += 1;
                tokio::select! {
                    () = tokio::time::sleep(*delay) => {}
                    // A change (a new URL, reactivation) is tried at once.
                    () = webhooks.changed().notified() => {}
                }
            }
        }
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One POST of `body` to `url`, signed with `secret`; Ok on a 2xx answer.
async fn post(client: &Client, url: &str, body: Bytes, secret: &str) -> Result<(), String> {
    let ts = now_secs();
    let request = Request::post(url, body.clone())
        .header("content-type", "application/json")
        .header("x-signature", body_signature(secret, &body))
        .header("x-snowline-timestamp", ts.to_string())
        .header(
            "x-snowline-signature",
            timestamped_signature(secret, ts, &body),
        )
        .status_only();
    match client.send(request).await {
        Ok(answer) if answer.is_success() => Ok(()),
        Ok(answer) => Err(format!("{url} answered {}", answer.status)),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_parse_with_units() {
        let glacier = parse_schedule(GLACIER_RETRIES).unwrap_or_default();
        let secs: Vec<u64> = glacier.iter().map(Duration::as_secs).collect();
        assert_eq!(
            secs,
            [10, 60, 300, 600, 1800, 7200, 21600, 43200, 86400],
            "the issue's schedule"
        );
        assert_eq!(
            parse_schedule("5ms, 1s").ok(),
            Some(vec![Duration::from_millis(5), Duration::from_secs(1)])
        );
        for bad in ["5", "x", "5d", "1.5s"] {
            assert!(parse_schedule(bad).is_err(), "{bad}");
        }
    }
}
