//! A headless Chromium driven over the DevTools protocol (a websocket of JSON messages): enough
//! to load a page, read what it requested, evaluate JavaScript in it and take a screenshot.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The Chromium to drive: `$SNOWLINE_CHROMIUM`, else `chromium` (Debian's package, which
/// `cargo xtask setup` installs) or `chromium-browser` on `PATH`.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SNOWLINE_CHROMIUM").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// A running headless Chromium and a DevTools session on its one page; killed on drop.
pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Every event received so far, in order.
    pub events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long any one wait lasts before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

impl Browser {
    /// Starts `exe` headless with a fresh profile, no network of its own (no component
    /// updates, sync or background requests) and the DevTools server on a free port, and
    /// attaches to its page.
    pub fn launch(exe: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                "--window-size=1280,1800",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        // Chromium writes the port it chose, then the browser's websocket path, to this file.
        let port_file = profile.path().join("DevToolsActivePort");
        let end = Instant::now() + PATIENCE;
        let port = loop {
            if let Ok(text) = std::fs::read_to_string(&port_file)
                && let Some(port) = text
                    .lines()
                    .next()
                    .and_then(|l| l.trim().parse::<u16>().ok())
                && text.lines().count() >= 2
            {
                break port;
            }
            assert!(Instant::now() < end, "Chromium wrote no DevToolsActivePort");
            std::thread::sleep(Duration::from_millis(100));
        };
        let targets = loop {
            let list = http_get(&format!("127.0.0.1:{port}"), "/json/list");
            let targets: Value = serde_json::from_str(&list).unwrap_or(Value::Null);
            let has_page = targets
                .as_array()
                .is_some_and(|a| a.iter().any(|t| t["type"] == "page"));
            if has_page {
                break targets;
            }
            assert!(Instant::now() < end, "Chromium lists no page: {list}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let url = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .unwrap()
            .to_owned();
        let (ws, _) = tungstenite::connect(url.as_str()).expect("connect to the page");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(100)))
                .unwrap();
        }
        Browser {
            child,
            ws,
            next_id: 0,
            events: Vec::new(),
            _profile: profile,
        }
    }

    /// One message if one arrives within the socket's read timeout.
    fn receive(&mut self) -> Option<Value> {
        match self.ws.read() {
            Ok(Message::Text(t)) => Some(serde_json::from_str(t.as_str()).unwrap()),
            Ok(_) => None,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                None
            }
            Err(e) => panic!("DevTools connection failed: {e}"),
        }
    }

    /// Calls a DevTools method and returns its result, keeping the events that arrive
    /// meanwhile.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let msg = json!({ "id": id, "method": method, "params": params });
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .expect("send to DevTools");
        let end = Instant::now() + PATIENCE;
        loop {
            assert!(Instant::now() < end, "{method} got no answer");
            let Some(m) = self.receive() else { continue };
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {}", m["error"]);
                return m["result"].clone();
            }
            if m.get("method").is_some() {
                self.events.push(m);
            }
        }
    }

    /// Keeps the events that arrive until nothing has for a moment.
    pub fn drain(&mut self) {
        while let Some(m) = self.receive() {
            if m.get("method").is_some() {
                self.events.push(m);
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "{expression}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Evaluates `expression` until it is truthy and returns it; fails naming `what`.
    pub fn wait_for(&mut self, expression: &str, what: &str) -> Value {
        let end = Instant::now() + PATIENCE;
        loop {
            let v = self.eval(expression);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(Instant::now() < end, "never: {what}");
            self.drain();
        }
    }

    /// The events named `method` so far.
    pub fn events_named(&self, method: &str) -> Vec<&Value> {
        self.events
            .iter()
            .filter(|e| e["method"] == method)
            .collect()
    }

    /// A PNG of the page as the viewport shows it.
    pub fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine as _;
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap()
    }
}

/// The body of `GET path` from the DevTools HTTP server at `addr`.
fn http_get(addr: &str, path: &str) -> String {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return String::new();
    };
    s.set_read_timeout(Some(Duration::from_secs(10))).ok();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return String::new();
    }
    let mut raw = String::new();
    let _ = s.read_to_string(&mut raw);
    raw.split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default()
}
