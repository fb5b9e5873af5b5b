//! A shared log read back from a real `nats-server`: every message with its stream sequence
//! and the message id it was appended with (a node tells its own rows from the others' by
//! it), and a message appended again under the same id stored once (the stream's duplicate
//! window keys on `Nats-Msg-Id`, nats-server's JetStream).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use snowline_fleet::{FleetConfig, SharedLog};
use snowline_test_support::nats::NatsServer;
use tokio::sync::mpsc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_hands_back_each_message_once_with_its_id() {
    let server = NatsServer::start();
    let config = FleetConfig {
        url: server.url.clone(),
        stream: "idtest".to_owned(),
        replicas: 1,
        max_age: Duration::from_secs(3600),
    };
    let log = SharedLog::new(config, "usage", Duration::from_secs(3600));

    let (out, outgoing) = mpsc::channel(8);
    let appended = tokio::spawn(log.clone().append(outgoing));
    for (id, body) in [("n1.1", "a"), ("n2.1", "b"), ("n1.1", "a"), ("n1.2", "c")] {
        out.send((id.to_owned(), Bytes::from(body))).await.unwrap();
    }
    drop(out);
    appended.await.unwrap();

    let (tx, mut read) = mpsc::unbounded_channel();
    let deliver = Arc::new(move |seq: u64, id: Option<&str>, payload: Bytes| {
        tx.send((seq, id.map(str::to_owned), payload))
            .map_err(|e| e.to_string())
    });
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let reader = tokio::spawn(log.read(0, deliver, async {
        let _ = stopped.await;
    }));
    let mut got = Vec::new();
    while got.len() < 3 {
        got.push(read.recv().await.expect("the reader stopped"));
    }
    let _ = stop.send(());
    reader.await.unwrap();

    let seen: Vec<(u64, Option<&str>, &[u8])> = got
        .iter()
        .map(|(seq, id, p)| (*seq, id.as_deref(), p.as_ref()))
        .collect();
    assert_eq!(
        seen,
        [
            (1, Some("n1.1"), &b"a"[..]),
            (2, Some("n2.1"), &b"b"[..]),
            (3, Some("n1.2"), &b"c"[..]),
        ]
    );
}
