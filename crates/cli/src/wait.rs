//! Waiting at start for what a service needs and does not have yet (its store, its upstream):
//! attempts paced by a doubling backoff, the wait said once on stderr (again only when its
//! reason changes), and its end said too, so services can be started in any order.

use std::time::Duration;

/// The pauses between attempts: `first`, doubled after each, at most `max`.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
    max: Duration,
}

impl Backoff {
    /// Pauses from `first` up to `max`.
    pub fn new(first: Duration, max: Duration) -> Self {
        Self {
            next: first.min(max),
            max,
        }
    }

    /// The pause before the next attempt.
    pub fn pause(&mut self) -> Duration {
        let pause = self.next;
        self.next = (self.next * 2).min(self.max);
        pause
    }
}

impl Default for Backoff {
    /// 100 ms doubling to 5 s: quick when the other side is seconds away, quiet when it is not.
    fn default() -> Self {
        Self::new(Duration::from_millis(100), Duration::from_secs(5))
    }
}

/// One wait of `service` for `what`, said on stderr once per reason.
#[derive(Debug)]
pub struct Waiting {
    service: String,
    what: String,
    last: Option<String>,
}

impl Waiting {
    /// A wait of `service` (the binary's name) for `what` (e.g. `the data-api index in DIR`).
    pub fn new(service: &str, what: impl Into<String>) -> Self {
        Self {
            service: service.to_owned(),
            what: what.into(),
            last: None,
        }
    }

    /// The sentence `/readyz` and the log show while waiting for `why`.
    pub fn reason(&self, why: &str) -> String {
        format!("waiting for {}: {why}", self.what)
    }

    /// An attempt failed for `why`: says so unless it was already said for that reason.
    pub fn failed(&mut self, why: &str) {
        if self.last.as_deref() != Some(why) {
            eprintln!(
                "{}: {} (retrying with backoff)",
                self.service,
                self.reason(why)
            );
            self.last = Some(why.to_owned());
        }
    }

    /// The wait is over: says so if it was said to have begun.
    pub fn done(&self) {
        if self.last.is_some() {
            eprintln!("{}: {} is there now", self.service, self.what);
        }
    }
}

/// `HOST:PORT` of an `http://` or `https://` URL (the scheme's port when none is given).
pub fn host_port(url: &str) -> Result<String, String> {
    let (rest, port) = if let Some(r) = url.strip_prefix("http://") {
        (r, 80)
    } else if let Some(r) = url.strip_prefix("https://") {
        (r, 443)
    } else {
        return Err(format!("{url:?} is not an http:// or https:// URL"));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    if authority.is_empty() {
        return Err(format!("{url:?} names no host"));
    }
    let has_port = match authority.rfind(':') {
        Some(i) => !authority.ends_with(']') && authority[i + 1..].parse::<u16>().is_ok(),
        None => false,
    };
    Ok(if has_port {
        authority.to_owned()
    } else {
        format!("{authority}:{port}")
    })
}

/// Returns once `upstream` (an `http://` URL) accepts a TCP connection, trying with backoff and
/// saying on stderr, once, that `service` waits for it. The follower then talks to it, with its
/// own retries.
pub async fn wait_for_upstream(service: &str, upstream: &str) -> Result<(), String> {
    let addr = host_port(upstream)?;
    let mut waiting = Waiting::new(service, format!("the upstream {upstream}"));
    let mut backoff = Backoff::default();
    loop {
        let attempt = tokio::time::timeout(
            Duration::from_secs(5),
            tokio::net::TcpStream::connect(&addr),
        )
        .await;
        match attempt {
            Ok(Ok(_)) => {
                waiting.done();
                return Ok(());
            }
            Ok(Err(e)) => waiting.failed(&e.to_string()),
            Err(_) => waiting.failed("no answer to a connection within 5 s"),
        }
        tokio::time::sleep(backoff.pause()).await;
    }
}
