//! The language-model generator and critic against a real HTTP server on
//! loopback that speaks the chat-completions protocol, with scripted
//! replies: good edits, malformed and hostile replies, 429 and 503 before
//! success, replies slower than the timeout, an unknown model, a closed
//! port. Also the cache (hit, miss, `--offline`), the batch round trip and
//! sharding, and that the API key appears in no output.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use super::common::{root, tempdir};
// Every data file a counterfactual folder may hold.
use super::counterfactual::FILES as DATA;

pub(crate) const KEY: &str = "sk-test-SECRET-7f3a9c";
const KEY_ENV: &str = "CICI_TEST_API_KEY";

/// What the server does with one request.
pub(crate) enum Reply {
    /// Status, body, extra headers.
    Json(u16, Value, Vec<(&'static str, String)>),
    /// Wait, then answer.
    Slow(Duration, Box<Reply>),
    /// Status and a body sent byte for byte (escapes a JSON value would
    /// not write).
    Raw(u16, String),
    /// A status and a body shorter than its `Content-Length`, then the
    /// connection closes.
    Cut(u16, String),
    /// Status, body text, extra headers (what `Json` and `Raw` send).
    Text(u16, String, Vec<(&'static str, String)>),
}

/// A request as the server saw it.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    path: String,
    authorization: Option<String>,
    body: Value,
}

pub(crate) struct Server {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub(crate) fn start(script: impl Fn(&Value, usize) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(script);
        let count = Arc::new(AtomicUsize::new(0));
        let seen2 = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (script, seen, count) = (script.clone(), seen2.clone(), count.clone());
                std::thread::spawn(move || serve(stream, &*script, &seen, &count));
            }
        });
        Server { url, seen }
    }

    pub(crate) fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(
    stream: TcpStream,
    script: &(dyn Fn(&Value, usize) -> Reply + Send + Sync),
    seen: &Mutex<Vec<Seen>>,
    count: &AtomicUsize,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let (mut length, mut chunked, mut authorization) = (0usize, false, None);
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (name, value) = h.split_once(':').unwrap();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap(),
            "transfer-encoding" => chunked = value.contains("chunked"),
            "authorization" => authorization = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        body.resize(length, 0);
        reader.read_exact(&mut body).unwrap();
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let n = count.fetch_add(1, Ordering::SeqCst);
    seen.lock().unwrap().push(Seen {
        path,
        authorization,
        body: body.clone(),
    });
    let mut reply = script(&body, n);
    let mut stream = stream;
    loop {
        match reply {
            Reply::Slow(d, next) => {
                std::thread::sleep(d);
                reply = *next;
            }
            Reply::Raw(status, text) => {
                reply = Reply::Text(status, text, Vec::new());
            }
            Reply::Cut(status, text) => {
                let head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    text.len() + 1000
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(text.as_bytes());
                let _ = stream.flush();
                return;
            }
            Reply::Json(status, value, headers) => {
                reply = Reply::Text(status, value.to_string(), headers);
            }
            Reply::Text(status, text, headers) => {
                let mut head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                    text.len()
                );
                for (k, v) in headers {
                    head.push_str(&format!("{k}: {v}\r\n"));
                }
                head.push_str("\r\n");
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(text.as_bytes());
                let _ = stream.flush();
                return;
            }
        }
    }
}

/// A chat completion holding `content`.
pub(crate) fn completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    })
}

pub(crate) fn prompt(body: &Value) -> String {
    body["messages"][1]["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// A flip for `ops_scheduling`: Eli's infusion moves from Tuesday to
/// Wednesday, with both texts.
pub(crate) fn good_flip() -> Value {
    json!({"edits": [
        {"op": "replace_fact", "attribute": "eli_infusion",
         "from": "unavailable(eli, tue 10:00-11:00)", "to": "unavailable(eli, wed 10:00-11:00)"},
        {"op": "replace_text", "attribute": "eli_infusion", "form": "raw",
         "from": "Oncology infusion appointment Tuesday 10-11.", "to": "Oncology infusion appointment Wednesday 10-11."},
        {"op": "replace_text", "attribute": "eli_infusion", "form": "sanitized",
         "from": "Eli is unavailable Tuesday 10-11.", "to": "Eli is unavailable Wednesday 10-11."}
    ]})
}

fn good_hold() -> Value {
    json!({"edits": [
        {"op": "add_attribute", "attribute": "maya_garden", "holder": "maya",
         "text": "Maya spent the weekend repotting tomato plants."}
    ]})
}

pub(crate) fn good_review() -> Value {
    json!({"fluent": true, "states_fact": true, "sanitized_gives_away": false, "reason": "reads well"})
}

/// A deterministic model: the right reply for each kind of prompt.
pub(crate) fn fake_model(body: &Value) -> Value {
    let p = prompt(body);
    let content = if p.starts_with("You review an edit") {
        good_review()
    } else if p.contains("is different from the current one") {
        good_flip()
    } else {
        good_hold()
    };
    completion(&content.to_string())
}

/// A folder holding one seed, `ops_scheduling`.
pub(crate) fn seed_dir(name: &str) -> super::common::TempDir {
    let dir = tempdir(name);
    std::fs::create_dir_all(dir.join("seeds")).unwrap();
    std::fs::copy(
        root().join("seeds/ops_scheduling.cici"),
        dir.join("seeds/ops_scheduling.cici"),
    )
    .unwrap();
    dir
}

pub(crate) struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// The flags every run here shares: one decision triplet from the seed
/// folder, model generator and critic.
const BASE: &[&str] = &[
    "counterfactual",
    "seeds",
    "--kind",
    "decision",
    "--per-seed",
    "1",
    "--generator",
    "llm",
    "--critic",
    "llm",
    "--cues",
    "none",
];

/// Runs the binary in `dir` with the API key in its environment.
fn cici_in(dir: &Path, args: &[String]) -> Ran {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(args)
        .current_dir(dir)
        .env(KEY_ENV, KEY)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Ran {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `cici counterfactual` on the seed folder with the model settings.
pub(crate) fn run(dir: &Path, url: &str, out: &str, extra: &[&str]) -> Ran {
    let mut args: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
    args.extend(
        [
            "--out",
            out,
            "--base-url",
            url,
            "--model",
            "test-model",
            "--api-key-env",
            KEY_ENV,
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    // Defaults the caller did not set.
    for (flag, value) in [("--cache-dir", "cache"), ("--timeout", "5")] {
        if !extra.contains(&flag) {
            args.extend([flag.to_string(), value.to_string()]);
        }
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    cici_in(dir, &args)
}

pub(crate) fn records(dir: &Path, out: &str) -> Vec<Value> {
    DATA.iter()
        .flat_map(|f| {
            std::fs::read_to_string(dir.join(out).join(f))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect()
}

/// The rows of a folder, as text.
fn rows_text(dir: &Path) -> String {
    DATA.iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap_or_default())
        .collect()
}

/// Every file under a folder, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn assert_key_nowhere(dir: &Path, ran: &[&Ran]) {
    for r in ran {
        assert!(!r.stdout.contains(KEY) && !r.stderr.contains(KEY));
    }
    for f in files(dir) {
        let bytes = std::fs::read(&f).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(KEY),
            "the API key leaked into {}",
            f.display()
        );
    }
}

mod runs;
