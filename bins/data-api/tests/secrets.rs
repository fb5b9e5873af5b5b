//! Secrets through the real binary: an API key, good or bad, never reaches the logs (at
//! `RUST_LOG=trace`) nor any file of the data directory; the token secret is the owner's alone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use common::{create_key, request, run};

/// The forms a leaked key could take: as shown, its base58 part, the 32 bytes in hex and base64.
fn forms(shown: &str) -> Vec<Vec<u8>> {
    let b58 = shown.strip_prefix("snl_").unwrap();
    let raw = bs58::decode(b58).into_vec().unwrap();
    vec![
        shown.as_bytes().to_vec(),
        b58.as_bytes().to_vec(),
        b58.as_bytes()[..b58.len() / 2].to_vec(),
        raw.clone(),
        hex::encode(&raw).into_bytes(),
        base64::engine::general_purpose::STANDARD_NO_PAD
            .encode(&raw)
            .into_bytes(),
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(&raw)
            .into_bytes(),
    ]
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Every file under `dir`, recursively: (path, bytes).
fn files(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            files(&entry.path(), out);
        } else if kind.is_file() {
            out.push((
                entry.path().display().to_string(),
                std::fs::read(entry.path()).unwrap(),
            ));
        }
    }
}

#[test]
fn keys_never_reach_the_logs_or_the_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (_, good) = create_key(dir.path(), "ci", "acme", "pro");
    let (disabled_id, disabled) = create_key(dir.path(), "old", "acme", "free");
    assert!(run(&["keys", "--data-dir", d, "disable", &disabled_id]).0);
    // A well-formed key this server never issued.
    let other = tempfile::tempdir().unwrap();
    let (_, unknown) = create_key(other.path(), "x", "y", "free");

    let mut child = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(["serve", "--data-dir", d, "--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn data-api");
    let said = Arc::new(Mutex::new(Vec::<u8>::new()));
    let kept = Arc::clone(&said);
    let stderr = child.stderr.take().unwrap();
    let err_thread = std::thread::spawn(move || {
        for line in BufReader::new(stderr).split(b'\n').map_while(Result::ok) {
            let mut k = kept.lock().unwrap();
            k.extend_from_slice(&line);
            k.push(b'\n');
        }
    });
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).split(b'\n');
    let addr = loop {
        let line = lines.next().expect("listening line").unwrap();
        said.lock().unwrap().extend_from_slice(&line);
        let text = String::from_utf8_lossy(&line).into_owned();
        if let Some(rest) = text.split("listening on http://").nth(1) {
            break rest.split_whitespace().next().unwrap().to_owned();
        }
    };
    let kept = Arc::clone(&said);
    let out_thread = std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let mut k = kept.lock().unwrap();
            k.extend_from_slice(&line);
            k.push(b'\n');
        }
    });

    // The last character changed (to one it is not: a key ending in `x` once made this the
    // valid key itself, about one run in sixty).
    let last = if good.ends_with('x') { "y" } else { "x" };
    let mangled = format!("{}{last}", &good[..good.len() - 1]);
    assert_ne!(mangled, good);
    let cases: [(&str, u16); 4] = [
        (&good, 200),
        (&disabled, 401),
        (&unknown, 401),
        (&mangled, 401),
    ];
    for (key, status) in cases {
        for path in ["/v1/chains", "/v1/chains/nope", "/v1/apiUsageMetrics"] {
            for header in ["x-data-api-key", "X-Data-Api-Key"] {
                let r = request(&addr, "GET", path, &[(header, key)], "");
                if path == "/v1/chains" && status == 200 {
                    assert_eq!(r.status, 200, "{path}: {}", r.body);
                } else if status != 200 {
                    assert!((400..500).contains(&r.status), "{path}: {}", r.body);
                }
                assert!(r.status < 500, "{path}: {}", r.body);
                // Nor is a key echoed back.
                assert!(!r.body.contains(key), "{path} echoes the key: {}", r.body);
            }
        }
    }
    // Let the usage writer flush (every 200 ms), then stop the server.
    std::thread::sleep(std::time::Duration::from_millis(600));
    child.kill().unwrap();
    child.wait().unwrap();
    err_thread.join().unwrap();
    out_thread.join().unwrap();

    let logs = said.lock().unwrap().clone();
    let mut stored = Vec::new();
    files(dir.path(), &mut stored);
    assert!(stored.iter().any(|(p, _)| p.ends_with(".log")));
    for key in [&good, &disabled, &unknown, &mangled] {
        let key_forms = if key == &mangled {
            vec![mangled.as_bytes().to_vec()]
        } else {
            forms(key)
        };
        for needle in key_forms {
            assert!(!contains(&logs, &needle), "a key reached the logs");
            for (path, bytes) in &stored {
                assert!(!contains(bytes, &needle), "a key is stored in {path}");
            }
        }
    }
}
