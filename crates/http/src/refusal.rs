//! The answers hyper writes itself, before any handler runs, to a request it cannot take (not
//! HTTP/1.1: 400; a URI over 65,534 bytes: 414; headers over the read buffer: 431), given the
//! edge's own error shape: hyper writes them with an empty body and no content type, so the
//! connection's writes are watched for exactly that head and it is replaced with the edge's answer.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use hyper::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// What an edge answers for a request refused before any handler ran: the content type and
/// body of its error for `status`. It is also where the edge counts the refusal (metrics, usage).
pub type Refuse = Arc<dyn Fn(StatusCode) -> (&'static str, Bytes) + Send + Sync>;

/// A connection's stream whose automatic error answers are rewritten with [`Refuse`].
pub(crate) struct Shaped<T> {
    inner: T,
    refuse: Refuse,
    /// The replacement being written, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<T> Shaped<T> {
    pub(crate) fn new(inner: T, refuse: Refuse) -> Self {
        Self {
            inner,
            refuse,
            pending: None,
        }
    }
}

/// The status of `buf` if it is a whole response head as hyper writes its automatic errors: a
/// 4xx or 5xx status line, `content-length: 0` and no `content-type` (every answer of the edges
/// has one).
fn automatic_error(buf: &[u8]) -> Option<StatusCode> {
    let rest = buf.strip_prefix(b"HTTP/1.1 ")?;
    let code = rest.get(..3)?;
    if !matches!(code.first(), Some(b'4' | b'5')) {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    // Up to and including the CRLF ending the last header line. Every error answer of the
    // edges passes here, so the head is searched in place, without a lowercased copy.
    let head = buf.get(..end + 2)?;
    let has = |name: &[u8]| {
        head.windows(name.len())
            .any(|w| w.eq_ignore_ascii_case(name))
    };
    if !has(b"\r\ncontent-length: 0\r\n") || has(b"\r\ncontent-type:") {
        return None;
    }
    StatusCode::from_bytes(code).ok()
}

/// The full replacement answer: status line, the edge's content type and body, closing.
fn replacement(status: StatusCode, (content_type, body): (&'static str, Bytes)) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    out
}

impl<T: AsyncWrite + Unpin> Shaped<T> {
    /// Writes the rest of the replacement; then `claimed` (hyper's own head) counts as written.
    fn drain(&mut self, cx: &mut Context<'_>, claimed: usize) -> Poll<io::Result<usize>> {
        while let Some((bytes, done)) = &mut self.pending {
            let Some(left) = bytes.get(*done..).filter(|l| !l.is_empty()) else {
                self.pending = None;
                break;
            };
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, left))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *done += n;
        }
        Poll::Ready(Ok(claimed))
    }

    /// Starts the replacement when `buf` is an automatic error head.
    fn intercept(&mut self, buf: &[u8]) -> bool {
        if self.pending.is_some() {
            return true;
        }
        match automatic_error(buf) {
            Some(status) => {
                self.pending = Some((replacement(status, (self.refuse)(status)), 0));
                true
            }
            None => false,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Shaped<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Shaped<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.intercept(buf) {
            return self.drain(cx, buf.len());
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &**b);
        if self.intercept(first) {
            return self.drain(cx, first.len());
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bodiless_error_heads_are_taken() {
        let hyper_431 =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert_eq!(
            automatic_error(hyper_431),
            Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
        let edge_404 = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(automatic_error(edge_404), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(automatic_error(ok), None);
        let body_chunk = b"{\"message\":\"HTTP/1.1 400\"}";
        assert_eq!(automatic_error(body_chunk), None);
        let cut = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n";
        assert_eq!(automatic_error(cut), None);
    }

    #[test]
    fn the_replacement_is_a_whole_closing_answer() {
        let r = replacement(
            StatusCode::URI_TOO_LONG,
            ("application/json", Bytes::from_static(b"{\"a\":1}")),
        );
        assert_eq!(
            String::from_utf8(r).unwrap_or_default(),
            "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\ncontent-length: 7\r\n\
             connection: close\r\n\r\n{\"a\":1}"
        );
    }
}
