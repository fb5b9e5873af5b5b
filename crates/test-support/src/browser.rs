//! A headless Chromium driven over the DevTools protocol: enough to load a page, read what it
//! requested, evaluate JavaScript in it and take a screenshot. The protocol runs over
//! `--remote-debugging-pipe` (JSON messages ended by a NUL byte, commands on the browser's fd 3,
//! answers and events on its fd 4), given two FIFOs by `sh`: no port, no websocket, no crate.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

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
    commands: File,
    messages: Receiver<Value>,
    next_id: u64,
    /// The page's session, which page-level commands name.
    session: String,
    /// Every event received so far, in order.
    pub events: Vec<Value>,
    _dir: tempfile::TempDir,
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
    /// Starts `exe` headless with a fresh profile and no network of its own (no component
    /// updates, sync or background requests), and attaches to its page.
    pub fn launch(exe: &Path) -> Browser {
        let dir = tempfile::tempdir().unwrap();
        let (to, from) = (
            dir.path().join("to-browser"),
            dir.path().join("from-browser"),
        );
        for fifo in [&to, &from] {
            let made = Command::new("mkfifo").arg(fifo).status().unwrap();
            assert!(made.success(), "mkfifo {}", fifo.display());
        }
        let child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<"$TO_BROWSER" 4>"$FROM_BROWSER""#)
            .arg(exe)
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
                "--remote-debugging-pipe",
                "--window-size=1280,1800",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .arg("about:blank")
            .env("TO_BROWSER", &to)
            .env("FROM_BROWSER", &from)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        // Opened in the order the shell opens them, each open waiting for the other side.
        let commands = OpenOptions::new().write(true).open(&to).unwrap();
        let answers = File::open(&from).unwrap();
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(answers);
            let mut buf = Vec::new();
            while r.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                if buf.last() == Some(&0) {
                    buf.pop();
                }
                let Ok(v) = serde_json::from_slice::<Value>(&buf) else {
                    return;
                };
                if tx.send(v).is_err() {
                    return;
                }
                buf.clear();
            }
        });
        let mut b = Browser {
            child,
            commands,
            messages,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            _dir: dir,
        };
        let end = Instant::now() + PATIENCE;
        let page = loop {
            let targets = b.send(None, "Target.getTargets", json!({}));
            let page = targets["targetInfos"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| t["type"] == "page")
                .and_then(|t| t["targetId"].as_str())
                .map(str::to_owned);
            if let Some(p) = page {
                break p;
            }
            assert!(Instant::now() < end, "Chromium has no page: {targets}");
            std::thread::sleep(Duration::from_millis(100));
        };
        let attached = b.send(
            None,
            "Target.attachToTarget",
            json!({ "targetId": page, "flatten": true }),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_owned();
        b
    }

    /// Sends a command (to the page's session, or the browser's) and returns its result,
    /// keeping the events that arrive meanwhile.
    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: Chromium is gone ({e})"));
        let end = Instant::now() + PATIENCE;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let m = match self.messages.recv_timeout(left) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => panic!("{method} got no answer"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: Chromium closed"),
            };
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {}", m["error"]);
                return m["result"].clone();
            }
            if m.get("method").is_some() {
                self.events.push(m);
            }
        }
    }

    /// Calls a DevTools method on the page and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    /// Keeps the events that arrive until none has for a moment.
    pub fn drain(&mut self) {
        while let Ok(m) = self.messages.recv_timeout(Duration::from_millis(100)) {
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
