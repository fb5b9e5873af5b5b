//! A webhook receiver for the tests: an HTTP/1.1 server on loopback (a thread per connection)
//! that records every delivery and answers as told: 500 for the next `fail` deliveries, or no
//! answer at all (holding the connection) once `stall_at` deliveries were acknowledged. It
//! counts the connections it accepted and the most deliveries it held unanswered at once; it
//! may hold each delivery a while before answering, and keep connections open for more.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One delivery as received.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// Header names lowercased.
    pub headers: BTreeMap<String, String>,
    /// The raw body.
    pub body: String,
    /// The status answered (0: none).
    pub answered: u16,
}

#[derive(Debug, Default)]
struct State {
    log: Vec<Delivery>,
    fail: usize,
    stall_at: Option<usize>,
    released: bool,
    redirect: Option<String>,
    hold: Option<Duration>,
    keep_alive: bool,
    connections: usize,
    in_flight: usize,
    max_in_flight: usize,
}

/// A running receiver.
#[derive(Clone)]
pub struct Receiver {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    state: Arc<Mutex<State>>,
}

impl Receiver {
    /// Starts a receiver answering 200.
    pub fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let state = Arc::new(Mutex::new(State::default()));
        let s = Arc::clone(&state);
        std::thread::spawn(move || {
            for conn in listener.incoming().map_while(Result::ok) {
                let s = Arc::clone(&s);
                std::thread::spawn(move || serve(conn, &s));
            }
        });
        Receiver { addr, state }
    }

    /// Its URL.
    pub fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    /// Answers 500 to the next `n` deliveries.
    pub fn fail_next(&self, n: usize) {
        self.state.lock().unwrap().fail = n;
    }

    /// Answers nothing (holding the connection) once `n` deliveries were acknowledged.
    pub fn stall_at(&self, n: usize) {
        self.state.lock().unwrap().stall_at = Some(n);
    }

    /// Answers `307 Temporary Redirect` to `location` from now on.
    pub fn redirect_to(&self, location: &str) {
        self.state.lock().unwrap().redirect = Some(location.to_owned());
    }

    /// Answers again, dropping the held connections unanswered.
    pub fn release(&self) {
        let mut s = self.state.lock().unwrap();
        s.stall_at = None;
        s.released = true;
    }

    /// Holds each delivery `d` before answering it.
    pub fn hold(&self, d: Duration) {
        self.state.lock().unwrap().hold = Some(d);
    }

    /// Keeps each connection open for more deliveries (no `Connection: close`).
    pub fn keep_alive(&self) {
        self.state.lock().unwrap().keep_alive = true;
    }

    /// The TCP connections accepted so far.
    pub fn connections(&self) -> usize {
        self.state.lock().unwrap().connections
    }

    /// The most deliveries read and not yet answered at one time.
    pub fn max_in_flight(&self) -> usize {
        self.state.lock().unwrap().max_in_flight
    }

    /// Every delivery received, in arrival order.
    pub fn all(&self) -> Vec<Delivery> {
        self.state.lock().unwrap().log.clone()
    }

    /// The deliveries answered 200, in order.
    pub fn acked(&self) -> Vec<Delivery> {
        self.all()
            .into_iter()
            .filter(|d| d.answered == 200)
            .collect()
    }

    /// Waits up to `secs` for `f` to hold.
    pub fn wait(&self, secs: u64, f: impl Fn(&Receiver) -> bool) -> bool {
        for _ in 0..secs * 20 {
            if f(self) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

fn serve(conn: TcpStream, state: &Mutex<State>) {
    state.lock().unwrap().connections += 1;
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut conn = conn;
    while answer(&mut reader, &mut conn, state) && state.lock().unwrap().keep_alive {}
}

/// Reads one delivery and answers it; whether the connection may carry another.
fn answer(reader: &mut BufReader<TcpStream>, conn: &mut TcpStream, state: &Mutex<State>) -> bool {
    let mut headers = BTreeMap::new();
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return false;
    }
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return false;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.insert(n.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    if reader.read_exact(&mut body).is_err() {
        return false;
    }
    let body = String::from_utf8(body).unwrap();
    let (status, hold) = {
        let mut s = state.lock().unwrap();
        s.in_flight += 1;
        s.max_in_flight = s.max_in_flight.max(s.in_flight);
        let acked = s.log.iter().filter(|d| d.answered == 200).count();
        let status = if s.redirect.is_some() {
            307
        } else if s.fail > 0 {
            s.fail -= 1;
            500
        } else if s.stall_at == Some(acked) {
            0
        } else {
            200
        };
        s.log.push(Delivery {
            headers,
            body,
            answered: status,
        });
        (status, s.hold)
    };
    if let Some(d) = hold {
        std::thread::sleep(d);
    }
    if status == 0 {
        while !state.lock().unwrap().released {
            std::thread::sleep(Duration::from_millis(20));
        }
        state.lock().unwrap().in_flight -= 1;
        return false;
    }
    let (location, keep) = {
        let mut s = state.lock().unwrap();
        s.in_flight -= 1;
        (s.redirect.clone().unwrap_or_default(), s.keep_alive)
    };
    let head = match status {
        200 => "200 OK".to_owned(),
        307 => format!("307 Temporary Redirect\r\nLocation: {location}"),
        _ => "500 Internal Server Error".to_owned(),
    };
    let close = if keep { "" } else { "Connection: close\r\n" };
    conn.write_all(format!("HTTP/1.1 {head}\r\nContent-Length: 0\r\n{close}\r\n").as_bytes())
        .is_ok()
}
