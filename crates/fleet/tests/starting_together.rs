//! Three nodes of a fleet starting at the same moment on a three-node `nats-server` cluster,
//! each creating the fleet's bucket and usage log (kept three times) as it comes: they agree on
//! one page-token secret (the first `create` wins, JetStream's key-value convention), and every
//! node reads every node's rows, its own included, although the log's stream is created by
//! whichever node comes first and used before its leader is known everywhere (a publish then
//! finds no stream and is sent again under the same id).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use snowline_fleet::{FleetConfig, SharedLog, shared_secret};
use snowline_test_support::nats::NatsCluster;
use tokio::sync::mpsc;

fn config(cluster: &NatsCluster, stream: &str) -> FleetConfig {
    FleetConfig {
        url: cluster.urls(),
        stream: stream.to_owned(),
        replicas: 3,
        max_age: Duration::from_secs(3600),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_starting_together_agree_on_the_secret_and_read_every_row() {
    let cluster = NatsCluster::start();

    let config_a = config(&cluster, "together");
    let secrets: Vec<_> = (0..3u8)
        .map(|i| {
            let config = config_a.clone();
            tokio::spawn(async move {
                let mine = vec![b'a' + i; 64];
                // A node retries until NATS answers (data-api's `serve` does the same).
                loop {
                    if let Ok(s) = shared_secret(&config, &mine).await {
                        return s;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        })
        .collect();
    let mut got = Vec::new();
    for t in secrets {
        got.push(t.await.unwrap());
    }
    assert!(got.iter().all(|s| *s == got[0]), "{got:?}");
    assert!(
        (0..3u8).any(|i| got[0] == vec![b'a' + i; 64]),
        "a secret no node proposed: {got:?}"
    );

    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut senders = Vec::new();
    for node in 0..3u64 {
        let log = SharedLog::new(config_a.clone(), "usage", Duration::from_secs(3600));
        let (out, outgoing) = mpsc::channel(8);
        tokio::spawn(log.clone().append(outgoing));
        out.send((format!("n{node}.1"), Bytes::from(format!("row of {node}"))))
            .await
            .unwrap();
        senders.push(out);
        let tx = tx.clone();
        let deliver = Arc::new(move |seq: u64, id: Option<&str>, payload: Bytes| {
            tx.send((node, seq, id.map(str::to_owned), payload))
                .map_err(|e| e.to_string())
        });
        tokio::spawn(log.read(0, deliver, std::future::pending()));
    }
    let mut read: Vec<Vec<(u64, String, Bytes)>> = vec![Vec::new(); 3];
    while read.iter().map(Vec::len).sum::<usize>() < 9 {
        let (node, seq, id, payload) = rx.recv().await.unwrap();
        read[node as usize].push((seq, id.unwrap_or_default(), payload));
    }
    // Each node read the three rows once, in the stream's order, the same on every node.
    assert_eq!(read[0].iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(read[1], read[0]);
    assert_eq!(read[2], read[0]);
    let mut ids: Vec<_> = read[0].iter().map(|r| r.1.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["n0.1", "n1.1", "n2.1"]);
    for (_, id, payload) in &read[0] {
        assert_eq!(payload, &format!("row of {}", &id[1..2]).into_bytes()[..]);
    }
}
