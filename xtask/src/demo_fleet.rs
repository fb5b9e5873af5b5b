//! `cargo xtask demo --fleet`: a fleet on one machine (`docs/fleet.md`). Builds as `demo` does,
//! then starts a three-node `nats-server` cluster with JetStream (clients on 127.0.0.1:4221-4223,
//! monitoring on 8221-8223), `node-rpc` on the devnet, live; a primary `data-api` following it
//! and publishing its batches to the cluster, kept three times (127.0.0.1:8080); two replicas
//! applying them (8081, 8082); and `metrics-api` over the primary's index (8083). Each
//! service's address is announced once it answers a request over HTTP. Ctrl-C stops all.
//!
//! The start-up is [`start`], which takes its ports and data directory from a [`FleetSetup`],
//! so a test runs the same code on free ports in a directory of its own.

use std::path::PathBuf;
use std::process::Command;

use crate::demo::{
    Announced, LIVE_RATE, Service, Setup, Try, answers, listening, spawn, wait_line,
};
use crate::shell::status;

/// The ports of one NATS node.
#[derive(Debug, Clone, Copy)]
pub struct NatsPorts {
    /// Where clients connect (`nats://127.0.0.1:PORT`).
    pub client: u16,
    /// Where the other nodes of the cluster connect.
    pub cluster: u16,
    /// The monitoring endpoint (`/healthz`).
    pub monitor: u16,
}

/// Where the fleet's services listen and keep their data.
pub struct FleetSetup {
    /// The binaries, the data directory, and the addresses of `node-rpc`, the primary
    /// (`data_api`) and `metrics-api`.
    pub base: Setup,
    /// The replicas' addresses.
    pub replicas: [String; 2],
    /// The NATS nodes' ports.
    pub nats: [NatsPorts; 3],
}

impl FleetSetup {
    /// The demo's fixed addresses, with data in `snowline-fleet/`.
    fn demo(bin: PathBuf) -> Self {
        let nats = [1, 2, 3].map(|i| NatsPorts {
            client: 4220 + i,
            cluster: 5220 + i,
            monitor: 8220 + i,
        });
        Self {
            base: Setup {
                bin,
                data_dir: PathBuf::from("snowline-fleet"),
                node_rpc: "127.0.0.1:9650".into(),
                data_api: "127.0.0.1:8080".into(),
                metrics_api: "127.0.0.1:8083".into(),
                evm_ports: [0, 0],
                anvil: None,
                echo: true,
            },
            replicas: ["127.0.0.1:8081".into(), "127.0.0.1:8082".into()],
            nats,
        }
    }

    /// Every NATS node's client URL, comma-separated (what `--publish` and `--replica-of`
    /// take).
    fn nats_urls(&self) -> String {
        self.nats
            .iter()
            .map(|n| format!("nats://127.0.0.1:{}", n.client))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The running fleet: its services (stopped when it is dropped, last started first) and what
/// it announced.
pub struct Fleet {
    /// Every service with a URL, in start order, each of which answered.
    pub announced: Vec<Announced>,
    /// The primary's URL (`http://HOST:PORT`).
    pub primary: String,
    /// The replicas' URLs.
    pub replicas: Vec<String>,
    services: Vec<Service>,
}

impl Fleet {
    /// The primary, whose exit ends the demo.
    fn primary_service(&mut self) -> Option<&mut Service> {
        self.services.iter_mut().find(|s| s.name == "primary")
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        while let Some(s) = self.services.pop() {
            drop(s);
        }
    }
}

/// The `nats-server` binary: the first on `PATH` or in `/usr/sbin` (where Debian puts it).
fn nats_server() -> Result<PathBuf, String> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|d| d.join("nats-server"))
        .find(|p| p.is_file())
        .ok_or_else(|| "nats-server is not installed: run `cargo xtask setup`".to_owned())
}

/// Writes node `i`'s configuration (JetStream, routes to every node of the cluster, its log in
/// a file of its own) and returns its path.
fn nats_config(setup: &FleetSetup, i: usize) -> Result<PathBuf, String> {
    let dir = setup.base.data_dir.join("nats");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let me = setup.nats[i];
    let routes: Vec<String> = setup
        .nats
        .iter()
        .map(|n| format!("nats://127.0.0.1:{}", n.cluster))
        .collect();
    let n = i + 1;
    let store = std::path::absolute(dir.join(format!("js{n}")))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let log = std::path::absolute(dir.join(format!("n{n}.log")))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let conf = format!(
        "server_name: n{n}\nlisten: 127.0.0.1:{}\nhttp: 127.0.0.1:{}\nmax_payload: 8MB\n\
         log_file: \"{}\"\njetstream {{\n  store_dir: \"{}\"\n}}\n\
         cluster {{\n  name: snowline\n  listen: 127.0.0.1:{}\n  routes: [{}]\n}}\n",
        me.client,
        me.monitor,
        log.display(),
        store.display(),
        me.cluster,
        routes.join(", ")
    );
    let path = dir.join(format!("n{n}.conf"));
    std::fs::write(&path, conf).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Starts the three NATS nodes and returns once each one's `/healthz` answers 200 (JetStream
/// up, the cluster formed).
fn start_nats(setup: &FleetSetup, fleet: &mut Fleet) -> Result<(), String> {
    let bin = nats_server()?;
    let mut started = Vec::new();
    for i in 0..setup.nats.len() {
        let conf = nats_config(setup, i)?;
        let (service, _lines) = spawn(
            &setup.base,
            &format!("nats-n{}", i + 1),
            Command::new(&bin).arg("-c").arg(&conf),
            false,
        )?;
        started.push(service);
    }
    for (mut service, ports) in started.into_iter().zip(setup.nats) {
        let announced = Announced {
            name: format!(
                "{} (JetStream; clients at nats://127.0.0.1:{})",
                service.name.replace('-', " "),
                ports.client
            ),
            url: format!("http://127.0.0.1:{}", ports.monitor),
            check: Try::get("/healthz"),
        };
        let healthy = answers(&mut service, &announced);
        fleet.services.push(service);
        healthy?;
        fleet.announced.push(announced);
    }
    Ok(())
}

/// Starts a `data-api` named `name` with `args` after `serve`, waits until it answers, and
/// returns its URL.
fn start_data_api(
    setup: &FleetSetup,
    fleet: &mut Fleet,
    name: &str,
    what: &str,
    args: &[&str],
) -> Result<String, String> {
    let (mut service, lines) = spawn(
        &setup.base,
        name,
        Command::new(setup.base.bin.join("data-api"))
            .arg("serve")
            .args(args),
        false,
    )?;
    let url = wait_line(&mut service, &lines, listening);
    let url = match url {
        Ok(url) => url,
        Err(e) => {
            fleet.services.push(service);
            return Err(e);
        }
    };
    let announced = Announced {
        name: format!("{name} ({what})"),
        url: url.clone(),
        check: Try::get("/v1/chains"),
    };
    let answered = answers(&mut service, &announced);
    fleet.services.push(service);
    answered?;
    fleet.announced.push(announced);
    Ok(url)
}

/// Starts every service of the fleet as `setup` says and returns once each one answers over
/// HTTP.
pub fn start(setup: &FleetSetup) -> Result<Fleet, String> {
    let base = &setup.base;
    std::fs::create_dir_all(&base.data_dir)
        .map_err(|e| format!("{}: {e}", base.data_dir.display()))?;
    let mut fleet = Fleet {
        announced: Vec::new(),
        primary: String::new(),
        replicas: Vec::new(),
        services: Vec::new(),
    };
    start_nats(setup, &mut fleet)?;
    let nats = setup.nats_urls();

    let (mut node, lines) = spawn(
        base,
        "node-rpc",
        Command::new(base.bin.join("node-rpc")).args([
            "serve",
            "--source",
            "devnet",
            "--live-rate",
            LIVE_RATE,
            "--data-dir",
            &base.dir("node-rpc"),
            "--listen",
            &base.node_rpc,
        ]),
        false,
    )?;
    let node_url = wait_line(&mut node, &lines, listening);
    fleet.services.push(node);
    let node_url = node_url?;
    let announced = Announced {
        name: format!("node-rpc (the devnet, live at {LIVE_RATE} containers/s)"),
        url: node_url.clone(),
        check: Try::rpc(
            "/ext/index/X/block",
            "index.getLastAccepted",
            r#"{"encoding":"hex"}"#,
        ),
    };
    if let Some(node) = fleet.services.last_mut() {
        answers(node, &announced)?;
    }
    fleet.announced.push(announced);

    fleet.primary = start_data_api(
        setup,
        &mut fleet,
        "primary",
        "data-api following node-rpc, publishing its batches to NATS",
        &[
            "--data-dir",
            &base.dir("primary"),
            "--listen",
            &base.data_api,
            "--upstream",
            &node_url,
            "--genesis",
            "devnet",
            "--publish",
            &nats,
            "--stream-replicas",
            "3",
        ],
    )?;
    for (i, listen) in setup.replicas.iter().enumerate() {
        let name = format!("replica-{}", i + 1);
        let url = start_data_api(
            setup,
            &mut fleet,
            &name,
            "data-api applying the primary's batches",
            &[
                "--data-dir",
                &base.dir(&name),
                "--listen",
                listen,
                "--replica-of",
                &nats,
                "--stream-replicas",
                "3",
            ],
        )?;
        fleet.replicas.push(url);
    }

    let (mut metrics, lines) = spawn(
        base,
        "metrics-api",
        Command::new(base.bin.join("metrics-api")).args([
            "serve",
            "--index-dir",
            &base.dir("primary"),
            "--data-dir",
            &base.dir("metrics-api"),
            "--listen",
            &base.metrics_api,
        ]),
        false,
    )?;
    let url = wait_line(&mut metrics, &lines, listening);
    fleet.services.push(metrics);
    let announced = Announced {
        name: "metrics-api (over the primary's index)".into(),
        url: url?,
        check: Try::get("/v2/chains"),
    };
    if let Some(metrics) = fleet.services.last_mut() {
        answers(metrics, &announced)?;
    }
    fleet.announced.push(announced);
    Ok(fleet)
}

/// Runs the fleet until Ctrl-C (or until the primary stops).
pub fn run() -> Result<(), String> {
    status(Command::new("cargo").args(crate::builds::DEMO_BUILD))?;
    let bin = crate::demo::target_dir().join("debug");
    let setup = FleetSetup::demo(bin);
    let mut fleet = start(&setup)?;
    println!("\nxtask: the fleet is up; every service below answered the request shown:");
    for a in &fleet.announced {
        println!("  {}: {}\n    {}", a.name, a.url, a.check.curl(&a.url));
    }
    println!(
        "xtask: NATS clients: {}\nxtask: Ctrl-C stops all (data in {}/, logs there)",
        setup.nats_urls(),
        setup.base.data_dir.display()
    );
    let exit = match fleet.primary_service() {
        Some(p) => p.child.wait().map_err(|e| format!("primary: {e}"))?,
        None => return Ok(()),
    };
    if exit.success() {
        Ok(())
    } else {
        Err(format!("the primary failed ({exit})"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    use super::*;

    /// A port nothing listens on now.
    fn free_port() -> u16 {
        TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or(0)
    }

    /// Waits until `ok` holds, checking every 200 ms up to [`crate::demo::START_LIMIT`].
    fn eventually(mut ok: impl FnMut() -> bool) -> bool {
        let deadline = Instant::now() + crate::demo::START_LIMIT;
        while Instant::now() < deadline {
            if ok() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        false
    }

    /// The body of a 200 to `GET path` on `url`, or why not.
    fn get(url: &str, path: &str) -> Result<String, String> {
        let addr = url.strip_prefix("http://").unwrap_or(url);
        match crate::http::request(addr, "GET", path, None)? {
            (200, body) => Ok(body),
            (code, body) => Err(format!("GET {path}: HTTP {code}: {body}")),
        }
    }

    /// The fleet's own start-up, on free ports in a directory of its own: every service it
    /// announces answers, and the X- and P-Chain block listings (page tokens included) of each
    /// replica become the primary's, byte for byte.
    #[test]
    fn replicas_of_the_demo_fleet_list_what_the_primary_lists() {
        let bin = crate::demo::built_bins();
        for b in ["node-rpc", "data-api", "metrics-api"] {
            assert!(
                bin.join(b).is_file(),
                "{} is not built: cargo build --workspace --bins",
                bin.join(b).display()
            );
        }
        let dir = std::env::temp_dir().join(format!("xtask-fleet-{}", std::process::id()));
        let setup = FleetSetup {
            base: Setup {
                bin,
                data_dir: dir.clone(),
                node_rpc: "127.0.0.1:0".into(),
                data_api: "127.0.0.1:0".into(),
                metrics_api: "127.0.0.1:0".into(),
                evm_ports: [0, 0],
                anvil: None,
                echo: false,
            },
            replicas: ["127.0.0.1:0".into(), "127.0.0.1:0".into()],
            nats: [(); 3].map(|()| NatsPorts {
                client: free_port(),
                cluster: free_port(),
                monitor: free_port(),
            }),
        };
        let logs = || {
            let mut logs = Vec::new();
            for d in [dir.clone(), dir.join("nats")] {
                for f in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    if f.path().extension().is_some_and(|x| x == "log") {
                        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
                        logs.push(format!("{}:\n{text}", f.path().display()));
                    }
                }
            }
            logs.join("\n")
        };
        let fleet = start(&setup).unwrap_or_else(|e| panic!("{e}\n{}", logs()));
        let names: Vec<&str> = fleet
            .announced
            .iter()
            .map(|a| a.name.split(' ').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "nats",
                "nats",
                "nats",
                "node-rpc",
                "primary",
                "replica-1",
                "replica-2",
                "metrics-api"
            ]
        );
        assert_eq!(fleet.replicas.len(), 2);
        for a in &fleet.announced {
            let answer = a.check.send(&a.url);
            assert!(answer.is_ok(), "{}: {answer:?}", a.name);
        }

        // The primary ingests live blocks all along. The second page (through the primary's
        // page token) lists blocks that never change: each replica gives the same bytes once
        // it has applied them. The first page moves: a replica's counts once it equals the
        // primary's as read both before and after it.
        for chain in ["x-chain", "p-chain"] {
            let path = format!("/v1/networks/local/blockchains/{chain}/blocks?pageSize=5");
            let first = get(&fleet.primary, &path).unwrap();
            let token = serde_json::from_str::<serde_json::Value>(&first).unwrap()["nextPageToken"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| panic!("{path}: no second page: {first}"));
            let second = format!("{path}&pageToken={token}");
            let page2 = get(&fleet.primary, &second).unwrap();
            assert!(page2.contains("\"blockNumber\""), "{second}: {page2}");
            for replica in &fleet.replicas {
                let mut theirs = String::new();
                let same = eventually(|| {
                    theirs = get(replica, &second).unwrap_or_else(|e| e);
                    theirs == page2
                });
                assert!(
                    same,
                    "{replica}{second} never listed what the primary lists:\n\
                     primary: {page2}\nreplica: {theirs}"
                );
                let mut last = (String::new(), String::new());
                let same = eventually(|| {
                    let (Ok(before), Ok(theirs), Ok(after)) = (
                        get(&fleet.primary, &path),
                        get(replica, &path),
                        get(&fleet.primary, &path),
                    ) else {
                        return false;
                    };
                    let equal = before == after && theirs == before;
                    last = (before, theirs);
                    equal
                });
                assert!(
                    same,
                    "{replica}{path} never listed what the primary lists:\nprimary: {}\n\
                     replica: {}",
                    last.0, last.1
                );
            }
        }
        drop(fleet);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
