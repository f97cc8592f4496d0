//! The page's server: HTTP/1.1 on loopback, on `std::net`, one short
//! thread per connection and every connection closed after one answer.
//! Requests are bounded in size and time; a bad one gets a 4xx and the
//! server goes on.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use super::page;
use crate::verdicts::ledger::{self, Ledger, Review, Verdict};

/// The longest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// The longest request body.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest a request may take to arrive.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);
/// Connections served at once; more are answered 503 straight away.
pub const MAX_CONNECTIONS: usize = 32;

/// What the server holds while it runs.
pub struct State {
    pub dir: PathBuf,
    /// The folder's name as the page shows it.
    pub folder: String,
    pub reviewer: String,
    /// The rows as the page's JSON ([`page::rows_json`]).
    pub rows_json: String,
    /// Row id to its hash, as the rows were when the server started.
    pub hashes: HashMap<String, String>,
    /// Held while the ledger is appended to.
    pub write: Mutex<()>,
    pub port: u16,
}

/// A listener on 127.0.0.1 (`port` 0: any free port).
pub fn bind(port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port))
}

/// Serves until the process ends.
pub fn serve(listener: TcpListener, state: Arc<State>) -> std::io::Result<()> {
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond(&mut stream, &Response::error(503, "busy; try again"));
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (state, mine) = (Arc::clone(&state), Arc::clone(&active));
        let spawned = std::thread::Builder::new().spawn(move || {
            let _ = handle(&mut stream, &state);
            mine.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
    Ok(())
}

struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Response {
    fn json(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(value).expect("values serialize"),
        }
    }
    fn error(status: u16, message: &str) -> Response {
        Response::json(status, &json!({ "error": message }))
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

fn respond(stream: &mut TcpStream, r: &Response) -> std::io::Result<()> {
    stream.set_write_timeout(Some(REQUEST_TIME))?;
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}; charset=utf-8\r\nContent-Length: {}\r\n\
         Content-Security-Policy: {}\r\nX-Content-Type-Options: nosniff\r\n\
         Referrer-Policy: no-referrer\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len(),
        page::csp(),
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

/// A request as far as the server reads it.
struct Request {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

fn handle(stream: &mut TcpStream, state: &State) -> std::io::Result<()> {
    let response = match read_request(stream) {
        Ok(req) => route(&req, state),
        Err(r) => r,
    };
    respond(stream, &response)
}

/// Reads one request within [`MAX_HEAD`], [`MAX_BODY`] and [`REQUEST_TIME`].
fn read_request(stream: &mut TcpStream) -> Result<Request, Response> {
    let deadline = Instant::now() + REQUEST_TIME;
    let mut buf = Vec::with_capacity(1024);
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(Response::error(431, "the request head is too long"));
        }
        read_some(stream, &mut buf, deadline)?;
    };
    let mut body = buf.split_off(head_end + 4);
    let head = std::str::from_utf8(&buf[..head_end])
        .map_err(|_| Response::error(400, "the request head is not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(path), Some(version), None) =
        (first.next(), first.next(), first.next(), first.next())
    else {
        return Err(Response::error(400, "a malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Response::error(400, "HTTP/1.x only"));
    }
    let mut headers = HashMap::new();
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            return Err(Response::error(400, "a malformed header"));
        };
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
    }
    if headers.contains_key("transfer-encoding") {
        return Err(Response::error(411, "send a Content-Length, not chunks"));
    }
    let length = match headers.get("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| Response::error(400, "a malformed Content-Length"))?,
    };
    if length > MAX_BODY {
        return Err(Response::error(413, "the request body is too long"));
    }
    while body.len() < length {
        read_some(stream, &mut body, deadline)?;
    }
    body.truncate(length);
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        headers,
        body,
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn read_some(stream: &mut TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> Result<(), Response> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Response::error(408, "the request took too long"));
    }
    let timeout = Response::error(408, "the request took too long");
    stream.set_read_timeout(Some(left)).map_err(|_| timeout)?;
    let mut chunk = [0u8; 8192];
    match stream.read(&mut chunk) {
        Ok(0) => Err(Response::error(400, "the request ended early")),
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(())
        }
        Err(_) => Err(Response::error(408, "the request took too long")),
    }
}

/// Whether the request comes from the page itself: a Host of this
/// loopback server (no name rebound to it) and no Origin of another site.
fn same_site(req: &Request, state: &State) -> bool {
    let ours = |v: &str| {
        [
            format!("127.0.0.1:{}", state.port),
            format!("localhost:{}", state.port),
        ]
        .iter()
        .any(|h| v == h)
    };
    let host_ok = req.headers.get("host").is_some_and(|h| ours(h));
    let origin_ok = req
        .headers
        .get("origin")
        .is_none_or(|o| o.strip_prefix("http://").is_some_and(ours));
    host_ok && origin_ok
}

fn route(req: &Request, state: &State) -> Response {
    if !same_site(req, state) {
        return Response::error(403, "only the page on this loopback address may ask");
    }
    let path = req.path.split('?').next().unwrap_or("");
    match (req.method.as_str(), path) {
        ("GET", "/" | "/index.html") => match current(state) {
            Ok(ledger) => Response {
                status: 200,
                content_type: "text/html",
                body: page::page(
                    &state.rows_json,
                    &ledger,
                    &page::Context {
                        folder: &state.folder,
                        reviewer: &state.reviewer,
                        live: true,
                    },
                )
                .into_bytes(),
            },
            Err(e) => Response::error(500, &e.to_string()),
        },
        ("GET", "/api/reviews") => match current(state) {
            Ok(l) => Response::json(200, &json!({ "reviews": l.current, "stale": l.stale })),
            Err(e) => Response::error(500, &e.to_string()),
        },
        ("POST", "/api/review") => post_review(req, state),
        (_, "/" | "/index.html" | "/api/reviews" | "/api/review") => {
            Response::error(405, "method not allowed")
        }
        _ => Response::error(404, "not found"),
    }
}

fn current(state: &State) -> std::io::Result<Ledger> {
    Ok(Ledger::resolve(&ledger::read(&state.dir)?, &state.hashes))
}

#[derive(Deserialize)]
struct Posted {
    id: String,
    hash: String,
    verdict: Verdict,
    #[serde(default)]
    note: String,
}

fn post_review(req: &Request, state: &State) -> Response {
    let json_type = req
        .headers
        .get("content-type")
        .is_some_and(|t| t.split(';').next().unwrap_or("").trim() == "application/json");
    if !json_type {
        return Response::error(415, "send application/json");
    }
    let posted: Posted = match serde_json::from_slice(&req.body) {
        Ok(p) => p,
        Err(e) => return Response::error(400, &format!("a malformed verdict: {e}")),
    };
    if posted.note.chars().count() > ledger::MAX_NOTE {
        return Response::error(413, "the note is too long");
    }
    let Some(hash) = state.hashes.get(&posted.id) else {
        return Response::error(404, "no row has this id");
    };
    if *hash != posted.hash {
        return Response::error(
            409,
            "stale: the row changed since the page was made; reload the page",
        );
    }
    let review = Review {
        id: posted.id,
        hash: posted.hash,
        verdict: posted.verdict,
        note: posted.note,
        reviewer: state.reviewer.clone(),
        time: ledger::now(),
    };
    let _guard = state.write.lock().unwrap_or_else(|p| p.into_inner());
    match ledger::append(&state.dir, &review) {
        Ok(()) => Response::json(200, &json!({ "review": review })),
        Err(e) => Response::error(500, &format!("the verdict was not saved: {e}")),
    }
}
