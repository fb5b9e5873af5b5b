//! Child services the commands start: awaited until they say where they listen, and stopped
//! with SIGTERM and a grace period before a kill.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Stops `child`: SIGTERM first when `term` (otherwise it was told to stop some other way),
/// then up to `grace` for it to exit, then a kill.
pub fn stop(child: &mut Child, term: bool, grace: Duration) {
    if term {
        let pid = child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
    }
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A child service, stopped with SIGTERM (then killed) when dropped.
pub struct Service {
    child: Child,
    /// Where it listens.
    pub addr: String,
}

impl Drop for Service {
    fn drop(&mut self) {
        stop(&mut self.child, true, Duration::from_secs(5));
    }
}

/// Starts `bin args` and waits for its "listening on http://ADDR" line (stdout is drained
/// after it).
pub fn start(bin: &Path, args: &[&str]) -> Result<Service, String> {
    let mut child = Command::new(bin)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap_or("").to_owned();
                let _ = tx.send(addr);
            }
        }
    });
    let service = |addr| Service { child, addr };
    match rx.recv_timeout(Duration::from_secs(300)) {
        Ok(addr) => Ok(service(addr)),
        Err(_) => {
            drop(service(String::new()));
            Err(format!("{} did not start listening", bin.display()))
        }
    }
}
