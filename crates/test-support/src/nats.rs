//! `nats-server` with JetStream for the fleet's tests: a single node or a cluster of three on
//! loopback, each on free ports with its store in a temporary directory, started from a
//! configuration file so a killed node comes back where it was. `cargo xtask setup` installs
//! the server (Debian's `nats-server`).

#![allow(clippy::panic)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `nats-server` binary: `$NATS_SERVER`, else the first on `PATH` or in `/usr/sbin`.
pub fn binary() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("NATS_SERVER") {
        return Ok(PathBuf::from(p));
    }
    // Debian installs it in /usr/sbin, which not every PATH lists.
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|d| d.join("nats-server"))
        .find(|p| p.is_file())
        .ok_or_else(|| "nats-server is not installed: run `cargo xtask setup`".to_owned())
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(0)
}

/// One `nats-server`, killed on drop.
pub struct NatsServer {
    child: Option<Child>,
    /// `nats://127.0.0.1:PORT`.
    pub url: String,
    /// The monitoring port (`/healthz`).
    monitor: u16,
    config: PathBuf,
    name: String,
    _dir: tempfile::TempDir,
}

impl NatsServer {
    /// A single node with JetStream.
    pub fn start() -> Self {
        let (port, monitor) = (free_port(), free_port());
        let server = Self::configure("n1", port, monitor, None);
        server.spawned()
    }

    fn configure(name: &str, port: u16, monitor: u16, cluster: Option<(u16, &[u16])>) -> Self {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let store = dir.path().join("jetstream");
        let mut conf = format!(
            "server_name: {name}\nlisten: 127.0.0.1:{port}\nhttp: 127.0.0.1:{monitor}\n\
             max_payload: 8MB\njetstream {{\n  store_dir: \"{}\"\n}}\n",
            store.display()
        );
        if let Some((cport, routes)) = cluster {
            let routes: Vec<String> = routes
                .iter()
                .map(|p| format!("nats://127.0.0.1:{p}"))
                .collect();
            conf.push_str(&format!(
                "cluster {{\n  name: snowline-test\n  listen: 127.0.0.1:{cport}\n  routes: [{}]\n}}\n",
                routes.join(", ")
            ));
        }
        let config = dir.path().join("nats.conf");
        std::fs::write(&config, conf).unwrap_or_else(|e| panic!("write {}: {e}", config.display()));
        Self {
            child: None,
            url: format!("nats://127.0.0.1:{port}"),
            monitor,
            config,
            name: name.to_owned(),
            _dir: dir,
        }
    }

    fn spawned(mut self) -> Self {
        self.spawn();
        self.wait_healthy(&[]);
        self
    }

    fn spawn(&mut self) {
        let bin = binary().unwrap_or_else(|e| panic!("{e}"));
        let log = self.config.with_extension("log");
        let out = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .unwrap_or_else(|e| panic!("open {}: {e}", log.display()));
        let err = out
            .try_clone()
            .unwrap_or_else(|e| panic!("open {}: {e}", log.display()));
        let child = Command::new(bin)
            .arg("-c")
            .arg(&self.config)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("start nats-server: {e}"));
        self.child = Some(child);
    }

    /// Waits up to three minutes until `/healthz` answers 200 (`query`: extra query parameters):
    /// a restarted cluster node is healthy only once its JetStream has caught up, slow on a
    /// loaded machine.
    fn wait_healthy(&self, query: &[&str]) {
        let path = if query.is_empty() {
            "/healthz".to_owned()
        } else {
            format!("/healthz?{}", query.join("&"))
        };
        let end = Instant::now() + Duration::from_secs(180);
        while Instant::now() < end {
            if http_status(self.monitor, &path) == Some(200) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "nats-server {} never became healthy; its log:\n{}",
            self.name,
            std::fs::read_to_string(self.config.with_extension("log")).unwrap_or_default()
        );
    }

    /// Kills the server with SIGKILL.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts a killed server again, on the same ports with the same store.
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
        self.wait_healthy(&[]);
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.config.with_extension("log")).unwrap_or_default()
    }

    /// Its directory (configuration, log, JetStream store).
    pub fn dir(&self) -> &Path {
        self._dir.path()
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Three `nats-server`s clustered on loopback, each with JetStream.
pub struct NatsCluster {
    /// The nodes.
    pub nodes: Vec<NatsServer>,
}

impl NatsCluster {
    /// Starts three nodes routed to one another; returns once each is healthy.
    pub fn start() -> Self {
        let ports: Vec<(u16, u16, u16)> = (0..3)
            .map(|_| (free_port(), free_port(), free_port()))
            .collect();
        let mut nodes: Vec<NatsServer> = ports
            .iter()
            .enumerate()
            .map(|(i, (port, monitor, cport))| {
                let routes: Vec<u16> = ports
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, p)| p.2)
                    .collect();
                NatsServer::configure(
                    &format!("n{}", i + 1),
                    *port,
                    *monitor,
                    Some((*cport, &routes)),
                )
            })
            .collect();
        for n in &mut nodes {
            n.spawn();
        }
        for n in &nodes {
            n.wait_healthy(&[]);
        }
        Self { nodes }
    }

    /// Every node's URL, comma-separated (what `--publish` and `--replica-of` take).
    pub fn urls(&self) -> String {
        self.nodes
            .iter()
            .map(|n| n.url.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The status of `GET path` on 127.0.0.1:`port`, or `None` when nothing answers.
fn http_status(port: u16, path: &str) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut head = String::new();
    s.read_to_string(&mut head).ok()?;
    head.split_whitespace().nth(1)?.parse().ok()
}
