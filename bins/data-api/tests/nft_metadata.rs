//! NFT metadata end to end: the real `data-api` indexing the recorded devnet C-Chain with
//! `--fetch-nft-metadata`. The recording's `tokenURI` / `uri` answers name
//! `https://devnet.snowline.invalid/...`; `--fetch-rewrite` sends them to a metadata server in
//! the test on loopback, which `--fetch-allow-private` opens. What each token's metadata says is
//! compared with the document the server gave for it (the URIs read from the recording's JSON,
//! ERC-1155's `{id}` substituted as EIP-1155 specifies, by this test); a bad document, a huge
//! one and a redirect to a refused address get their statuses; a changed document is picked up
//! by `reindexNft`, at most once an hour; without the allowance nothing reaches the server and
//! every token is `UNREACHABLE_TOKEN_URI`; tokens queued while fetching was off are fetched
//! after a restart with it (`docs/evm-indexing.md`, "NFT metadata").

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use common::{DataApi, request, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::{RecordingModel, bytes};
use snowline_evm_devnet::{C_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, U256};

const HOST: &str = "https://devnet.snowline.invalid/";

/// What the metadata server answers for a path.
#[derive(Debug, Clone)]
enum Answer {
    Body(Vec<u8>),
    Redirect(String),
}

/// A metadata server on 127.0.0.1 answering by path; it records every path asked.
#[derive(Clone)]
struct MetadataServer {
    addr: String,
    answers: Arc<Mutex<BTreeMap<String, Answer>>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl MetadataServer {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let server = MetadataServer {
            addr: listener.local_addr().unwrap().to_string(),
            answers: Arc::default(),
            asked: Arc::default(),
        };
        let s = server.clone();
        std::thread::spawn(move || {
            for mut conn in listener.incoming().map_while(Result::ok) {
                let mut lines = BufReader::new(conn.try_clone().unwrap()).lines();
                let Some(Ok(first)) = lines.next() else {
                    continue;
                };
                while let Some(Ok(l)) = lines.next() {
                    if l.is_empty() {
                        break;
                    }
                }
                let path = first.split(' ').nth(1).unwrap_or("/").to_owned();
                s.asked.lock().unwrap().push(path.clone());
                let answer = s.answers.lock().unwrap().get(&path).cloned();
                let (head, body) = match answer {
                    Some(Answer::Body(b)) => ("200 OK".to_owned(), b),
                    Some(Answer::Redirect(to)) => (format!("302 Found\r\nlocation: {to}"), vec![]),
                    None => ("404 Not Found".to_owned(), vec![]),
                };
                let head = format!(
                    "HTTP/1.1 {head}\r\nconnection: close\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\n\r\n",
                    body.len()
                );
                drop(conn.write_all(head.as_bytes()));
                drop(conn.write_all(&body));
            }
        });
        server
    }

    fn set(&self, path: &str, answer: Answer) {
        self.answers.lock().unwrap().insert(path.to_owned(), answer);
    }

    fn asked(&self) -> usize {
        self.asked.lock().unwrap().len()
    }
}

/// An ABI-encoded `string` return value.
fn abi_string(data: &[u8]) -> String {
    let word = |i: usize| U256::from_be_slice(&data[32 * i..32 * i + 32]).to::<usize>();
    let (at, len) = (word(0), word(word(0) / 32));
    String::from_utf8(data[at + 32..at + 32 + len].to_vec()).unwrap()
}

/// One NFT of the recording.
#[derive(Debug, Clone)]
struct Nft {
    token: Address,
    id: U256,
    standard: u16,
    /// The metadata URI: the contract's last `tokenURI` / `uri` answer, `{id}` substituted.
    uri: String,
}

/// Every NFT id the recording's transfer logs move, with its URI from the recorded `eth_call`s.
fn nfts(m: &RecordingModel) -> Vec<Nft> {
    let mut out: BTreeMap<(Address, U256), u16> = BTreeMap::new();
    for t in m.transfers().iter().filter(|t| t.standard != 20) {
        out.insert((t.token, t.id), t.standard);
    }
    out.into_iter()
        .map(|((token, id), standard)| {
            let selector = if standard == 721 {
                "c87b56dd"
            } else {
                "0e89341c"
            };
            let data = format!("0x{selector}{}", hex::encode(id.to_be_bytes::<32>()));
            let to = format!("{token:#x}");
            let answered = m
                .lines
                .iter()
                .filter(|l| {
                    l["method"] == "eth_call"
                        && l["params"][0]["to"] == to.as_str()
                        && l["params"][0]["data"] == data.as_str()
                })
                .filter_map(|l| l.get("result").map(|r| abi_string(&bytes(r))))
                .next_back()
                .unwrap();
            // EIP-1155, "Metadata": `{id}` is the id in lowercase hex, 64 characters.
            let uri = answered.replace("{id}", &hex::encode(id.to_be_bytes::<32>()));
            Nft {
                token,
                id,
                standard,
                uri,
            }
        })
        .collect()
}

/// The document the server gives for `nft`.
fn document(nft: &Nft, name: &str) -> Value {
    json!({
        "name": name,
        "description": format!("token {} of {:#x}", nft.id, nft.token),
        "image": format!("ipfs://QmImage/{}.png", nft.id),
        "external_url": format!("https://example.com/{}", nft.id),
        "attributes": [{"trait_type": "standard", "value": nft.standard}],
    })
}

fn serve(dir: &std::path::Path, url: &str, server: &MetadataServer, allow: bool) -> DataApi {
    serve_with(dir, url, server, allow, true)
}

/// [`serve`], fetching only when `fetch`.
fn serve_with(
    dir: &std::path::Path,
    url: &str,
    server: &MetadataServer,
    allow: bool,
    fetch: bool,
) -> DataApi {
    let config = json!({"chains": [{"chainId": C_CHAIN_ID, "rpcUrl": url}]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let rewrite = format!("{HOST}=http://{}/", server.addr);
    let mut args = vec![
        "--network",
        "local",
        "--no-rate-limits",
        "--evm-config",
        path.to_str().unwrap(),
        "--fetch-rewrite",
        &rewrite,
        "--fetch-retries",
        "",
    ];
    if allow {
        args.extend(["--fetch-allow-private", "127.0.0.1/32"]);
    }
    if fetch {
        args.push("--fetch-nft-metadata");
    }
    let api = start(&dir.join("data"), &args);
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    api
}

fn details_path(nft: &Nft) -> String {
    format!(
        "/v1/chains/{C_CHAIN_ID}/nfts/collections/{}/tokens/{}",
        nft.token.to_checksum(None),
        nft.id
    )
}

/// The token's metadata once it is no longer `UNINDEXED` (and `until` holds of it).
fn fetched(api: &DataApi, nft: &Nft, until: impl Fn(&Value) -> bool) -> Value {
    let path = details_path(nft);
    let mut last = Value::Null;
    let done = api.wait_until(60, |a| {
        let r = a.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        last = r.json()["metadata"].clone();
        last["indexStatus"] != "UNINDEXED" && until(&last)
    });
    assert!(done, "{path}: {last}");
    last
}

fn now() -> u64 {
    common::now_secs()
}

#[test]
fn metadata_is_fetched_in_the_background_and_served_as_the_server_gave_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let all = nfts(&m);
    assert!(all.iter().any(|n| n.standard == 721) && all.iter().any(|n| n.standard == 1155));
    let server = MetadataServer::start();
    // Three tokens answer badly: not JSON, over the 1 MiB cap, a redirect to a loopback address
    // outside the allowed 127.0.0.1/32.
    let (bad_json, huge, redirected) = (&all[0], &all[1], &all[2]);
    for nft in &all {
        let path = nft.uri.strip_prefix(HOST).map(|p| format!("/{p}")).unwrap();
        let answer = if nft.id == bad_json.id && nft.token == bad_json.token {
            Answer::Body(b"{\"name\": ".to_vec())
        } else if nft.id == huge.id && nft.token == huge.token {
            Answer::Body(format!("{{\"name\":\"{}\"}}", "x".repeat(2 << 20)).into_bytes())
        } else if nft.id == redirected.id && nft.token == redirected.token {
            let port = server.addr.rsplit(':').next().unwrap();
            Answer::Redirect(format!("http://127.0.0.2:{port}{path}"))
        } else {
            Answer::Body(
                document(nft, &format!("Snow {}", nft.id))
                    .to_string()
                    .into_bytes(),
            )
        };
        server.set(&path, answer);
    }
    let started = now();
    let api = serve(dir.path(), &urls[0].1, &server, true);

    for nft in &all {
        let got = fetched(&api, nft, |_| true);
        let status = got["indexStatus"].as_str().unwrap();
        let same = |n: &Nft| n.token == nft.token && n.id == nft.id;
        if same(bad_json) {
            assert_eq!(status, "INVALID_METADATA_JSON", "{got}");
        } else if same(huge) {
            assert_eq!(status, "METADATA_CONTENT_TOO_LARGE", "{got}");
        } else if same(redirected) {
            assert_eq!(status, "UNREACHABLE_TOKEN_URI", "{got}");
        } else {
            let want = document(nft, &format!("Snow {}", nft.id));
            assert_eq!(status, "INDEXED", "{got}");
            assert_eq!(got["name"], want["name"]);
            assert_eq!(got["description"], want["description"]);
            assert_eq!(got["imageUri"], want["image"]);
            assert_eq!(got["externalUrl"], want["external_url"]);
            let attributes: Value = serde_json::from_str(got["attributes"].as_str().unwrap_or(
                // ERC-1155 metadata has no attributes member in the OpenAPI: only properties.
                "null",
            ))
            .unwrap();
            if nft.standard == 721 {
                assert_eq!(attributes, want["attributes"], "{got}");
            } else {
                assert!(got.get("attributes").is_none(), "{got}");
            }
        }
        let at = got["metadataLastUpdatedTimestamp"].as_u64().unwrap();
        assert!(started <= at && at <= now(), "{got}");
        // Never `null`: absent members are omitted.
        assert!(
            got.as_object().unwrap().values().all(|v| !v.is_null()),
            "{got}"
        );
    }
    // The collection's listing and the owner's balances carry the same metadata.
    let first = all.iter().find(|n| n.standard == 721).unwrap();
    let listed = common::all_pages(
        &api,
        &format!(
            "/v1/chains/{C_CHAIN_ID}/nfts/collections/{}/tokens",
            first.token.to_checksum(None)
        ),
        "tokens",
    );
    let one = api.get(&details_path(first)).json();
    assert!(listed.contains(&one), "{one}");

    // Reindex: a changed document is fetched again; a second request within the hour is a 429.
    let changed = all
        .iter()
        .find(|n| n.standard == 721 && ![bad_json.id, huge.id, redirected.id].contains(&n.id))
        .unwrap();
    let path = changed
        .uri
        .strip_prefix(HOST)
        .map(|p| format!("/{p}"))
        .unwrap();
    server.set(
        &path,
        Answer::Body(document(changed, "Renamed").to_string().into_bytes()),
    );
    let reindex = format!("{}:reindex", details_path(changed));
    let r = request(&api.addr, "POST", &reindex, &[], "");
    assert_eq!(r.status, 200, "{}", r.body);
    // No body, so no JSON content-type: a client parsing a body so labelled fails on it.
    assert_eq!(r.body, "");
    assert_eq!(r.header("content-type"), None);
    let got = fetched(&api, changed, |m| m["name"] == "Renamed");
    assert_eq!(got["indexStatus"], "INDEXED");
    let again = request(&api.addr, "POST", &reindex, &[], "");
    let message = again.error(429, "Too Many Requests");
    assert!(message.contains("hour"), "{message}");
    // A token the collection never moved, and a malformed id.
    let unknown = format!(
        "/v1/chains/{C_CHAIN_ID}/nfts/collections/{}/tokens/999999:reindex",
        changed.token.to_checksum(None)
    );
    request(&api.addr, "POST", &unknown, &[], "").error(404, "Not Found");
    let malformed = format!(
        "/v1/chains/{C_CHAIN_ID}/nfts/collections/{}/tokens/x1:reindex",
        changed.token.to_checksum(None)
    );
    let message = request(&api.addr, "POST", &malformed, &[], "").error(400, "Bad Request");
    assert!(message.contains("tokenId"), "{message}");
}

#[test]
fn without_the_allowance_nothing_reaches_a_private_server() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let all = nfts(&m);
    let server = MetadataServer::start();
    for nft in &all {
        let path = nft.uri.strip_prefix(HOST).map(|p| format!("/{p}")).unwrap();
        server.set(
            &path,
            Answer::Body(document(nft, "x").to_string().into_bytes()),
        );
    }
    let api = serve(dir.path(), &urls[0].1, &server, false);
    for nft in &all {
        let got = fetched(&api, nft, |_| true);
        assert_eq!(got["indexStatus"], "UNREACHABLE_TOKEN_URI", "{got}");
        assert!(got.get("name").is_none(), "{got}");
    }
    assert_eq!(
        server.asked(),
        0,
        "the private-network rule refuses before connecting"
    );
}

#[test]
fn tokens_queued_while_fetching_is_off_are_fetched_after_a_restart_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let all = nfts(&m);
    let server = MetadataServer::start();
    for nft in &all {
        let path = nft.uri.strip_prefix(HOST).map(|p| format!("/{p}")).unwrap();
        let doc = document(nft, &format!("Later {}", nft.id));
        server.set(&path, Answer::Body(doc.to_string().into_bytes()));
    }
    {
        // Indexed with fetching off: every token stays UNINDEXED, nothing is asked.
        let api = serve_with(dir.path(), &urls[0].1, &server, true, false);
        for nft in &all {
            let r = api.get(&details_path(nft));
            assert_eq!(
                r.json()["metadata"]["indexStatus"],
                "UNINDEXED",
                "{}",
                r.body
            );
        }
        assert_eq!(server.asked(), 0);
    }
    // The queue was written with the blocks: a restart with fetching on works it off.
    let api = serve_with(dir.path(), &urls[0].1, &server, true, true);
    for nft in &all {
        let got = fetched(&api, nft, |_| true);
        assert_eq!(got["indexStatus"], "INDEXED", "{got}");
        assert_eq!(got["name"], format!("Later {}", nft.id), "{got}");
    }
}
