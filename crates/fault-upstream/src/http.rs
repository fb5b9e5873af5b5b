//! Just enough HTTP/1.1 for the proxy: one request read from a connection, one forwarded to the
//! upstream with `Connection: close`, one answer written back.

use std::io::{self, Read, Write};
use std::net::TcpStream;

/// A request as read: its target and body (the proxy forwards only POSTs of JSON-RPC).
pub(crate) struct Request {
    pub(crate) target: String,
    pub(crate) body: Vec<u8>,
}

/// An answer: status and body (the content type is JSON unless said otherwise).
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
}

/// Largest head read.
const MAX_HEAD: usize = 64 << 10;

/// Reads the head (up to the blank line) and what follows it.
fn read_head(stream: &mut impl Read) -> io::Result<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            let rest = buf.split_off(end + 4);
            return Ok((String::from_utf8_lossy(&buf).into_owned(), rest));
        }
        if buf.len() > MAX_HEAD {
            return Err(io::Error::other("head too large"));
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The value of header `name` (case-insensitive) in `head`.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Reads one request from a client.
pub(crate) fn read_request(stream: &mut TcpStream) -> io::Result<Request> {
    let (head, mut body) = read_head(stream)?;
    let target = head
        .split_whitespace()
        .nth(1)
        .ok_or_else(|| io::Error::other("no request target"))?
        .to_owned();
    let len: usize = header(&head, "content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while body.len() < len {
        let mut chunk = vec![0u8; len - body.len()];
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(len);
    Ok(Request { target, body })
}

/// Sends `req` to `upstream` (`host:port`) and reads its whole answer.
pub(crate) fn forward(upstream: &str, req: &Request) -> io::Result<Answer> {
    let mut s = TcpStream::connect(upstream)?;
    write!(
        s,
        "POST {} HTTP/1.1\r\nHost: {upstream}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        req.target,
        req.body.len()
    )?;
    s.write_all(&req.body)?;
    let (head, mut body) = read_head(&mut s)?;
    s.read_to_end(&mut body)?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| io::Error::other("no status"))?;
    if header(&head, "transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        body = dechunk(&body)?;
    } else if let Some(len) = header(&head, "content-length").and_then(|v| v.parse().ok()) {
        body.truncate(len);
    }
    Ok(Answer { status, body })
}

fn dechunk(mut rest: &[u8]) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = find(rest, b"\r\n").ok_or_else(|| io::Error::other("bad chunk"))?;
        let size = std::str::from_utf8(&rest[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .ok_or_else(|| io::Error::other("bad chunk size"))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = rest
            .get(..size)
            .ok_or_else(|| io::Error::other("short chunk"))?;
        out.extend_from_slice(chunk);
        rest = rest.get(size + 2..).unwrap_or_default();
    }
}

/// Writes `answer` and ends the exchange (`Connection: close`).
pub(crate) fn write_answer(stream: &mut TcpStream, answer: &Answer) -> io::Result<()> {
    let reason = match answer.status {
        200 => "OK",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        _ => "Status",
    };
    let kind = if answer.status == 200 {
        "application/json"
    } else {
        "text/plain; charset=utf-8"
    };
    write!(
        stream,
        "HTTP/1.1 {} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        answer.status,
        answer.body.len()
    )?;
    stream.write_all(&answer.body)?;
    stream.flush()
}
