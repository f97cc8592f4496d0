//! The language server's framing on stdin and stdout, with bounds: a
//! header line of at most 8 KiB, a message of at most 64 MiB. A message
//! that is not JSON, not a JSON-RPC message, too large or framed wrongly is
//! answered with a JSON-RPC error (-32700 or -32600) and the server goes
//! on; nothing an editor sends makes it allocate without a bound, abort or
//! exit.

use std::io::{BufRead, Read, Write};
use std::sync::Mutex;

use lsp_server::{Connection, Message};
use serde_json::{json, Value};

/// The largest message body read.
pub const MAX_MESSAGE: usize = 64 << 20;
/// The longest header line read.
pub const MAX_HEADER_LINE: usize = 8 << 10;

/// Writes one framed message, whole, under the lock.
fn write_frame(out: &Mutex<impl Write>, value: &Value) -> std::io::Result<()> {
    let body = serde_json::to_string(value).unwrap_or_default();
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// One header line, at most [`MAX_HEADER_LINE`] bytes kept; `None` at the
/// end of input; `Some(Err)` for a line too long (read to its end, not kept).
fn header_line(input: &mut impl BufRead) -> Option<Result<String, ()>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf().ok()?;
        if buf.is_empty() {
            return if line.is_empty() && !too_long {
                None
            } else {
                Some(Err(()))
            };
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        if line.len() + chunk.len() > MAX_HEADER_LINE {
            too_long = true;
        } else {
            line.extend_from_slice(chunk);
        }
        let n = chunk.len();
        input.consume(n);
        if done {
            return Some(if too_long {
                Err(())
            } else {
                Ok(String::from_utf8_lossy(&line).trim_end().to_string())
            });
        }
    }
}

/// A frame's headers that cannot be read.
#[derive(Debug, thiserror::Error)]
enum Framing {
    #[error("a header line is too long")]
    LongHeader,
    #[error("bad Content-Length `{0}`")]
    BadLength(String),
}

/// Reads framed messages from `input`, forwards the good ones to `to`,
/// and answers the bad ones on `out`. Returns at the end of input.
pub fn read_loop(mut input: impl BufRead, to: &crossbeam_like::Sender, out: &Mutex<impl Write>) {
    loop {
        // Headers up to the blank line.
        let mut length: Option<Result<usize, Framing>> = None;
        loop {
            match header_line(&mut input) {
                None => return,
                Some(Err(())) => length = Some(Err(Framing::LongHeader)),
                Some(Ok(line)) if line.is_empty() => break,
                Some(Ok(line)) => {
                    if let Some(v) = line.strip_prefix("Content-Length:") {
                        length = Some(
                            v.trim()
                                .parse::<usize>()
                                .map_err(|_| Framing::BadLength(v.trim().to_string())),
                        );
                    }
                }
            }
        }
        let n = match length {
            Some(Ok(n)) if n <= MAX_MESSAGE => n,
            Some(Ok(n)) => {
                let _ = write_frame(
                    out,
                    &error(
                        Value::Null,
                        -32700,
                        &format!("message of {n} bytes is larger than {MAX_MESSAGE}"),
                    ),
                );
                // Skip the body as it comes, keeping nothing.
                if std::io::copy(&mut (&mut input).take(n as u64), &mut std::io::sink()).is_err() {
                    return;
                }
                continue;
            }
            Some(Err(e)) => {
                let _ = write_frame(out, &error(Value::Null, -32700, &e.to_string()));
                continue;
            }
            None => {
                let _ = write_frame(out, &error(Value::Null, -32700, "no Content-Length header"));
                continue;
            }
        };
        let mut body = vec![0u8; n];
        if input.read_exact(&mut body).is_err() {
            return;
        }
        let value: Value = match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => {
                let _ = write_frame(out, &error(Value::Null, -32700, &format!("not JSON: {e}")));
                continue;
            }
        };
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        if !value.is_object() {
            let _ = write_frame(
                out,
                &error(Value::Null, -32600, "a message is a JSON object"),
            );
            continue;
        }
        match serde_json::from_value::<Message>(value) {
            Ok(msg) => {
                if to.send(msg).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = write_frame(
                    out,
                    &error(id, -32600, &format!("not a JSON-RPC message: {e}")),
                );
            }
        }
    }
}

/// The sender type of an in-memory connection.
pub mod crossbeam_like {
    pub type Sender = crossbeam_channel::Sender<lsp_server::Message>;
}

/// Serves the protocol on stdin and stdout through the bounded reader.
pub fn run_stdio<T, E>(serve: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E> {
    let (server, client) = Connection::memory();
    let out: &'static Mutex<std::io::Stdout> = Box::leak(Box::new(Mutex::new(std::io::stdout())));
    // The reader owns the only sender: at the end of input the server's
    // receiver disconnects and the protocol loop ends.
    let to_server = client.sender;
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        read_loop(stdin.lock(), &to_server, out);
    });
    let from_server = client.receiver;
    let writer = std::thread::spawn(move || {
        for msg in from_server {
            if write_frame(out, &serde_json::to_value(msg).unwrap_or(Value::Null)).is_err() {
                break;
            }
        }
    });
    let result = serve(&server);
    drop(server);
    let _ = writer.join();
    result
}
