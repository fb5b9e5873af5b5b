//! A service binary started by a test on port 0: its address read from its "listening on" line,
//! its stdout and stderr drained for its whole life (so it never blocks on a full pipe) and kept
//! as lines, and the process killed when the test drops it.

#![allow(clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::http::{Response, request};

/// Lines a child wrote on one stream, shared with the thread that reads them.
type Lines = Arc<Mutex<Vec<String>>>;

/// A running service, killed on drop.
pub struct Service {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its "listening on" line.
    pub listening: String,
    stderr: Lines,
    stdout: Lines,
}

/// Reads `stream` line by line into a shared list until it closes.
fn drain(stream: impl std::io::Read + Send + 'static) -> Lines {
    let lines: Lines = Arc::default();
    let kept = Arc::clone(&lines);
    thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            kept.lock().expect("lines").push(line);
        }
    });
    lines
}

impl Service {
    /// Spawns `cmd` with piped output and waits for its `listening on http://ADDR` line; if it
    /// exits first, the test fails with what it wrote on stderr.
    pub fn start(mut cmd: Command) -> Service {
        let name = cmd.get_program().to_string_lossy().into_owned();
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {name}: {e}"));
        let stderr = drain(child.stderr.take().expect("stderr"));
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let (addr, listening) = loop {
            let Some(line) = lines.next() else {
                let _ = child.wait();
                // The drain thread ends with the child's stderr; give it a moment to keep the rest.
                thread::sleep(Duration::from_millis(100));
                panic!(
                    "{name} exited before listening; stderr:\n{}",
                    stderr.lock().expect("lines").join("\n")
                );
            };
            let line = line.expect("read stdout");
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.split_whitespace().next().expect("address").to_owned();
                break (addr, line);
            }
        };
        let stdout: Lines = Arc::default();
        let kept = Arc::clone(&stdout);
        thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().expect("lines").push(line);
            }
        });
        Service {
            child,
            addr,
            listening,
            stderr,
            stdout,
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// How the process exited, once it has (`None` while it runs).
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Sends `kill -SIGNAL` (`STOP`, `CONT`, ...) to the process.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args([format!("-{signal}").as_str(), &pid])
            .status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -{signal} {pid}");
    }

    /// Sends SIGTERM (as Ctrl-C or a service manager would) and waits for the exit.
    pub fn terminate(mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -TERM {pid}");
        self.child.wait().expect("wait for the service")
    }

    /// `GET path` with extra headers.
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        request(&self.addr, "GET", path, headers, "")
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.get_with(path, &[])
    }

    /// The first line written on stderr so far that contains `needle`.
    pub fn stderr_line(&self, needle: &str) -> Option<String> {
        self.stderr_lines(needle).into_iter().next()
    }

    /// Every line written on stderr so far that contains `needle`.
    pub fn stderr_lines(&self, needle: &str) -> Vec<String> {
        let lines = self.stderr.lock().expect("lines");
        lines
            .iter()
            .filter(|l| l.contains(needle))
            .cloned()
            .collect()
    }

    /// The first line on stdout after the "listening on" line that contains `needle`, waiting
    /// up to 30 s for it.
    pub fn stdout_line(&self, needle: &str) -> Option<String> {
        let mut found = None;
        self.wait_until(30, |s| {
            let lines = s.stdout.lock().expect("lines");
            found = lines.iter().find(|l| l.contains(needle)).cloned();
            found.is_some()
        });
        found
    }

    /// Every line on stdout after the "listening on" line so far that contains `needle`.
    pub fn stdout_lines(&self, needle: &str) -> Vec<String> {
        let lines = self.stdout.lock().expect("lines");
        lines
            .iter()
            .filter(|l| l.contains(needle))
            .cloned()
            .collect()
    }

    /// Polls `f` until it returns true, for at most `secs` seconds.
    pub fn wait_until(&self, secs: u64, mut f: impl FnMut(&Self) -> bool) -> bool {
        poll_until(secs, || f(self))
    }
}

/// Calls `f` every 100 ms until it returns true, for at most `secs` seconds; whether it did.
pub fn poll_until(secs: u64, mut f: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if f() {
            return true;
        }
        thread::sleep(Duration::from_millis(100));
    }
    false
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
