//! An established connection after the handshake: a writer task fed by a bounded queue, and the
//! reading half for the owner's loop.

use tokio::io::{AsyncRead, AsyncWrite, ReadHalf, WriteHalf};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::frame::write_frame;
use crate::proto::{self, Kind, Message};

/// Messages waiting to be written, per connection.
const SEND_QUEUE: usize = 64;

/// The sending side of a connection: messages queued here are written in order.
pub type Outbox = mpsc::Sender<Kind>;

/// Splits `stream`, spawns its writer and returns the reading half with the outbox.
pub fn split<S>(stream: S) -> (ReadHalf<S>, Outbox, JoinHandle<()>)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (rd, wr) = tokio::io::split(stream);
    let (tx, rx) = mpsc::channel(SEND_QUEUE);
    let writer = tokio::spawn(write_loop(wr, rx));
    (rd, tx, writer)
}

async fn write_loop<S: AsyncWrite>(mut wr: WriteHalf<S>, mut rx: mpsc::Receiver<Kind>) {
    while let Some(kind) = rx.recv().await {
        let bytes = proto::encode_message(&Message { kind: Some(kind) });
        if let Err(e) = write_frame(&mut wr, &bytes).await {
            tracing::debug!(error = %e, "p2p write failed");
            break;
        }
    }
}

/// Aborts a task when dropped.
#[derive(Debug)]
pub struct AbortOnDrop(pub JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
