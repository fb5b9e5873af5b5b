//! The outbound client against servers in the test on loopback: the private-network rule
//! (RFC 6890's loopback refused unless allowed, by address, by name and on a redirect), redirects
//! refused or followed, the body cap (declared and streamed), the timeout, HTTPS to a TLS
//! server whose self-signed certificate the client is told to trust, and keep-alive: one
//! connection for many requests, kept within its bounds, and the rule still checked with
//! connections kept.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use snowline_outbound::{
    AllowList, Client, ClientConfig, OutboundError, PoolConfig, Redirects, Request,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;

const BIG: usize = 2 << 20;

/// A request as the test server read it.
struct Asked {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

async fn read_request<S: AsyncRead + Unpin>(s: &mut S) -> Option<Asked> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let end = loop {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
    };
    let head = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[end + 4..].to_vec();
    while body.len() < len {
        let n = s.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Asked {
        method,
        path,
        headers,
        body,
    })
}

/// Answers one request by its path.
async fn answer<S: AsyncRead + AsyncWrite + Unpin>(mut s: S, port: u16) {
    let Some(req) = read_request(&mut s).await else {
        return;
    };
    let plain = |status: &str, extra: &str, body: &[u8]| {
        let mut out = format!(
            "HTTP/1.1 {status}\r\nconnection: close\r\n{extra}content-length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        out.extend_from_slice(body);
        out
    };
    let out = match req.path.as_str() {
        "/ok" => plain("200 OK", "content-type: text/plain\r\n", b"hello"),
        "/echo" => {
            let agent = req
                .headers
                .iter()
                .find(|(n, _)| n == "x-test")
                .map_or("", |(_, v)| v.as_str());
            let body = format!(
                "{} {agent} {}",
                req.method,
                String::from_utf8_lossy(&req.body)
            );
            plain("200 OK", "", body.as_bytes())
        }
        "/to-ok" => plain("302 Found", "location: /ok\r\n", b""),
        "/to-other-loopback" => {
            let location = format!("location: http://127.0.0.2:{port}/ok\r\n");
            plain("307 Temporary Redirect", &location, b"")
        }
        "/loop" => plain("302 Found", "location: loop\r\n", b""),
        "/big" => plain("200 OK", "", &vec![b'x'; BIG]),
        "/big-chunked" => {
            let head = "HTTP/1.1 200 OK\r\nconnection: close\r\ntransfer-encoding: chunked\r\n\r\n";
            if s.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            let piece = vec![b'y'; 64 << 10];
            for _ in 0..(BIG / piece.len()) {
                let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
                chunk.extend_from_slice(&piece);
                chunk.extend_from_slice(b"\r\n");
                if s.write_all(&chunk).await.is_err() {
                    return;
                }
            }
            b"0\r\n\r\n".to_vec()
        }
        "/hang" => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return;
        }
        _ => plain("404 Not Found", "", b""),
    };
    drop(s.write_all(&out).await);
    drop(s.shutdown().await);
}

/// A plain HTTP server on 127.0.0.1; its port.
async fn http_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            tokio::spawn(answer(s, port));
        }
    });
    port
}

/// A TLS server on 127.0.0.1 with a fresh self-signed certificate for `localhost` and
/// `127.0.0.1`; its port and the certificate (DER).
async fn https_server() -> (u16, Vec<u8>) {
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap();
    let cert = certified.cert.der().to_vec();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert.clone().into()], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                if let Ok(tls) = acceptor.accept(s).await {
                    answer(tls, port).await;
                }
            });
        }
    });
    (port, cert)
}

fn client(allow: &str, redirects: Redirects, roots: Vec<Vec<u8>>) -> Client {
    Client::new(ClientConfig {
        allow: allow.parse::<AllowList>().unwrap(),
        allow_flag: "--test-allow-private".to_owned(),
        timeout: Duration::from_secs(5),
        max_body: 1 << 20,
        redirects,
        extra_roots: roots,
        ..ClientConfig::default()
    })
    .unwrap()
}

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let port = http_server().await;
    let strict = client("", Redirects::Refuse, Vec::new());
    for url in [
        format!("http://127.0.0.1:{port}/ok"),
        format!("http://localhost:{port}/ok"),
        format!("http://[::ffff:127.0.0.1]:{port}/ok"),
    ] {
        match strict.send(Request::get(&url)).await {
            Err(OutboundError::Refused(m)) => assert!(m.contains("--test-allow-private"), "{m}"),
            other => panic!("{url} without the allowance: {other:?}"),
        }
    }
    // Allowed: by address and by name (localhost may resolve to ::1 first, where nothing
    // listens: the next permitted address is tried).
    let open = client("127.0.0.0/8,::1", Redirects::Refuse, Vec::new());
    for url in [
        format!("http://127.0.0.1:{port}/ok"),
        format!("http://localhost:{port}/ok"),
    ] {
        let r = open.send(Request::get(&url)).await.unwrap();
        assert_eq!((r.status, &r.body[..]), (200, &b"hello"[..]), "{url}");
        assert_eq!(r.header("content-type"), Some("text/plain"));
    }
    // Another network's allowance opens nothing here.
    let other = client("10.0.0.0/8", Redirects::Refuse, Vec::new());
    let url = format!("http://127.0.0.1:{port}/ok");
    assert!(matches!(
        other.send(Request::get(&url)).await,
        Err(OutboundError::Refused(_))
    ));
}

#[tokio::test]
async fn redirects_are_refused_or_followed_and_checked_again() {
    let port = http_server().await;
    let base = format!("http://127.0.0.1:{port}");
    // Refused: the 3xx is the answer.
    let refuse = client("127.0.0.1", Redirects::Refuse, Vec::new());
    let r = refuse
        .send(Request::get(&format!("{base}/to-ok")))
        .await
        .unwrap();
    assert_eq!((r.status, r.header("location")), (302, Some("/ok")));
    // Followed: to the same host, and the rule again at each hop (127.0.0.2 is loopback, and only
    // 127.0.0.1 is allowed).
    let follow = client("127.0.0.1", Redirects::Follow(3), Vec::new());
    let r = follow
        .send(Request::get(&format!("{base}/to-ok")))
        .await
        .unwrap();
    assert_eq!((r.status, &r.body[..]), (200, &b"hello"[..]));
    assert_eq!(r.url, format!("{base}/ok"));
    match follow
        .send(Request::get(&format!("{base}/to-other-loopback")))
        .await
    {
        Err(OutboundError::Refused(m)) => assert!(m.contains("127.0.0.2"), "{m}"),
        other => panic!("a redirect to a refused network: {other:?}"),
    }
    assert!(matches!(
        follow.send(Request::get(&format!("{base}/loop"))).await,
        Err(OutboundError::Redirect(_))
    ));
    // A POST is not redirected: its 3xx is the answer.
    let r = follow
        .send(Request::post(&format!("{base}/to-ok"), "x".into()))
        .await
        .unwrap();
    assert_eq!(r.status, 302);
}

#[tokio::test]
async fn bodies_are_capped_and_exchanges_timed_out() {
    let port = http_server().await;
    let base = format!("http://127.0.0.1:{port}");
    let c = client("127.0.0.1", Redirects::Refuse, Vec::new());
    for path in ["/big", "/big-chunked"] {
        assert_eq!(
            c.send(Request::get(&format!("{base}{path}"))).await.err(),
            Some(OutboundError::TooLarge { limit: 1 << 20 }),
            "{path}"
        );
    }
    // Only the status counts: the body is not read.
    let r = c
        .send(Request::get(&format!("{base}/big")).status_only())
        .await
        .unwrap();
    assert_eq!((r.status, r.body.len()), (200, 0));
    let quick = Client::new(ClientConfig {
        timeout: Duration::from_millis(200),
        ..c.config().clone()
    })
    .unwrap();
    assert!(matches!(
        quick.send(Request::get(&format!("{base}/hang"))).await,
        Err(OutboundError::Timeout(_))
    ));
    for bad in ["ftp://127.0.0.1/", "http://user:pw@127.0.0.1/", "nonsense"] {
        assert!(
            matches!(c.send(Request::get(bad)).await, Err(OutboundError::Url(_))),
            "{bad}"
        );
    }
}

#[tokio::test]
async fn https_reaches_a_server_whose_root_is_trusted() {
    let (port, cert) = https_server().await;
    let trusting = client("127.0.0.0/8,::1", Redirects::Refuse, vec![cert]);
    for host in ["localhost", "127.0.0.1"] {
        let url = format!("https://{host}:{port}/echo");
        let r = trusting
            .send(Request::post(&url, "signed body".into()).header("x-test", "delivered"))
            .await
            .unwrap();
        assert_eq!(
            (r.status, String::from_utf8_lossy(&r.body).into_owned()),
            (200, "POST delivered signed body".to_owned()),
            "{url}"
        );
    }
    // Without the root, the certificate is not trusted (Mozilla's roots do not include it).
    let strangers = client("127.0.0.0/8,::1", Redirects::Refuse, Vec::new());
    let url = format!("https://localhost:{port}/echo");
    match strangers.send(Request::get(&url)).await {
        Err(OutboundError::Unreachable(m)) => assert!(m.contains("TLS"), "{m}"),
        other => panic!("an untrusted certificate: {other:?}"),
    }
    // The private-network rule holds for https as for http.
    let strict = client("", Redirects::Refuse, Vec::new());
    assert!(matches!(
        strict.send(Request::get(&url)).await,
        Err(OutboundError::Refused(_))
    ));
}

/// What a keep-alive server saw: connections accepted and still open.
#[derive(Default)]
struct Conns {
    accepted: AtomicUsize,
    open: AtomicUsize,
}

impl Conns {
    fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }
}

/// Answers requests on one connection until the client closes it: `/ka` 200 with a body,
/// `/empty` 200 without one, `/slow` 200 after 100 ms, `/once` 200 and then the connection
/// closed without saying so, `/to-other-loopback` a redirect to 127.0.0.2, each without
/// `Connection: close`.
async fn keep_alive<S: AsyncRead + AsyncWrite + Unpin>(mut s: S, port: u16, conns: &Conns) {
    conns.accepted.fetch_add(1, Ordering::SeqCst);
    conns.open.fetch_add(1, Ordering::SeqCst);
    while let Some(req) = read_request(&mut s).await {
        let (head, body): (String, &[u8]) = match req.path.as_str() {
            "/ka" => ("200 OK".to_owned(), b"kept"),
            "/empty" | "/once" => ("200 OK".to_owned(), b""),
            "/slow" => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                ("200 OK".to_owned(), b"slow")
            }
            "/to-other-loopback" => (
                format!("307 Temporary Redirect\r\nlocation: http://127.0.0.2:{port}/ka"),
                b"",
            ),
            _ => ("404 Not Found".to_owned(), b""),
        };
        let mut out =
            format!("HTTP/1.1 {head}\r\ncontent-length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        if s.write_all(&out).await.is_err() || req.path == "/once" {
            break;
        }
    }
    conns.open.fetch_sub(1, Ordering::SeqCst);
}

/// A keep-alive HTTP server on 127.0.0.1; its port.
async fn keep_alive_server(conns: Arc<Conns>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            let conns = Arc::clone(&conns);
            tokio::spawn(async move { keep_alive(s, port, &conns).await });
        }
    });
    port
}

fn pooled(allow: &str, redirects: Redirects, pool: PoolConfig) -> Client {
    Client::new(ClientConfig {
        pool,
        ..client(allow, redirects, Vec::new()).config().clone()
    })
    .unwrap()
}

#[tokio::test]
async fn many_requests_share_one_kept_connection() {
    let conns = Arc::new(Conns::default());
    let port = keep_alive_server(Arc::clone(&conns)).await;
    let base = format!("http://127.0.0.1:{port}");
    let c = client("127.0.0.1", Redirects::Refuse, Vec::new());
    for i in 0..20 {
        // Bodies read, bodies not read (empty, and drained after the answer), POSTs and GETs.
        let r = match i % 3 {
            0 => c.send(Request::get(&format!("{base}/ka"))).await.unwrap(),
            1 => c
                .send(Request::post(&format!("{base}/empty"), "x".into()).status_only())
                .await
                .unwrap(),
            _ => c
                .send(Request::post(&format!("{base}/ka"), "x".into()).status_only())
                .await
                .unwrap(),
        };
        assert_eq!(r.status, 200);
        if i % 3 == 0 {
            assert_eq!(&r.body[..], b"kept");
        }
        // A drained connection goes back to the pool off the answer's path: let it land.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(conns.accepted(), 1, "twenty requests, one connection");
    // A clone shares the kept connections.
    let twin = c.clone();
    twin.send(Request::get(&format!("{base}/ka")))
        .await
        .unwrap();
    assert_eq!(conns.accepted(), 1);
    // A server that closes a kept connection without a word: the next request still gets its
    // answer, over a new connection.
    for _ in 0..3 {
        let r = c.send(Request::get(&format!("{base}/once"))).await.unwrap();
        assert_eq!(r.status, 200);
    }
    assert_eq!(
        conns.accepted(),
        3,
        "the kept one, then one for each after it"
    );
}

#[tokio::test]
async fn kept_connections_stay_within_their_bounds() {
    let conns = Arc::new(Conns::default());
    let port = keep_alive_server(Arc::clone(&conns)).await;
    let url = format!("http://127.0.0.1:{port}/slow");
    let c = pooled(
        "127.0.0.1",
        Redirects::Refuse,
        PoolConfig {
            idle_timeout: Duration::from_millis(300),
            max_idle_per_destination: 2,
            max_idle: 2,
        },
    );
    let burst = |c: &Client| {
        let tasks: Vec<_> = (0..6)
            .map(|_| {
                let (c, url) = (c.clone(), url.clone());
                tokio::spawn(async move { c.send(Request::get(&url)).await.unwrap().status })
            })
            .collect();
        async move {
            for t in tasks {
                assert_eq!(t.await.unwrap(), 200);
            }
        }
    };
    // Six at once need six connections; two are kept, four closed.
    burst(&c).await;
    assert_eq!(conns.accepted(), 6);
    let mut settled = false;
    for _ in 0..100 {
        if conns.open() == 2 {
            settled = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(settled, "{} open, 2 kept", conns.open());
    // The next six reuse the two.
    burst(&c).await;
    assert_eq!(conns.accepted(), 10);
    // Idle past the timeout, the kept ones are closed without another request.
    let mut closed = false;
    for _ in 0..200 {
        if conns.open() == 0 {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(closed, "{} still open past the idle timeout", conns.open());
}

#[tokio::test]
async fn kept_connections_do_not_open_a_way_past_the_rule() {
    let conns = Arc::new(Conns::default());
    let port = keep_alive_server(Arc::clone(&conns)).await;
    // Only 127.0.0.1 is allowed; 127.0.0.2 (loopback too, the same port) is not.
    let c = client("127.0.0.1", Redirects::Follow(3), Vec::new());
    let warm = format!("http://127.0.0.1:{port}/ka");
    for _ in 0..3 {
        assert_eq!(c.send(Request::get(&warm)).await.unwrap().status, 200);
    }
    assert_eq!(conns.accepted(), 1, "the pool is warm");
    for url in [
        format!("http://127.0.0.2:{port}/ka"),
        format!("http://[::ffff:127.0.0.2]:{port}/ka"),
    ] {
        match c.send(Request::get(&url)).await {
            Err(OutboundError::Refused(m)) => assert!(m.contains("127.0.0.2"), "{m}"),
            other => panic!("{url} with the pool warm: {other:?}"),
        }
    }
    // A redirect from the kept connection to the refused address is refused.
    match c
        .send(Request::get(&format!(
            "http://127.0.0.1:{port}/to-other-loopback"
        )))
        .await
    {
        Err(OutboundError::Refused(m)) => assert!(m.contains("127.0.0.2"), "{m}"),
        other => panic!("a redirect to a refused network with the pool warm: {other:?}"),
    }
    assert_eq!(conns.accepted(), 1, "nothing connected past the rule");
    assert_eq!(
        c.send(Request::get(&warm)).await.unwrap().status,
        200,
        "the kept connection still serves its own destination"
    );
}

#[tokio::test]
async fn https_connections_are_kept_too() {
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap();
    let cert = certified.cert.der().to_vec();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert.clone().into()], key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let conns = Arc::new(Conns::default());
    let seen = Arc::clone(&conns);
    tokio::spawn(async move {
        while let Ok((s, _)) = listener.accept().await {
            let (acceptor, conns) = (acceptor.clone(), Arc::clone(&seen));
            tokio::spawn(async move {
                if let Ok(tls) = acceptor.accept(s).await {
                    keep_alive(tls, port, &conns).await;
                }
            });
        }
    });
    let c = client("127.0.0.1", Redirects::Refuse, vec![cert]);
    for _ in 0..10 {
        let r = c
            .send(Request::get(&format!("https://127.0.0.1:{port}/ka")))
            .await
            .unwrap();
        assert_eq!((r.status, &r.body[..]), (200, &b"kept"[..]));
    }
    assert_eq!(conns.accepted(), 1, "ten requests, one TLS session");
}
