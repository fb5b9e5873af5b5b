//! A NATS client for the fleet tests' own looks at the stream and the buckets.

/// Connects to `url`, trying again for up to 10 s: a loaded machine (the test's servers and a
/// build on the same cores) can refuse the first connection.
pub async fn connect(url: &str) -> async_nats::Client {
    let mut tries = 0;
    loop {
        match async_nats::connect(url).await {
            Ok(c) => return c,
            Err(e) if tries < 50 => {
                tries += 1;
                eprintln!("connecting to {url}: {e}; again");
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            Err(e) => panic!("connecting to {url}: {e}"),
        }
    }
}
