//! Malformed editor traffic: the language server answers with JSON-RPC
//! errors and keeps serving; it never allocates what a header claims.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use serde_json::{json, Value};

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn malformed_messages_get_errors_and_the_server_goes_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel::<Value>();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                if line.trim_end().is_empty() {
                    break;
                }
                if let Some(n) = line.trim_end().strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let _ = tx.send(serde_json::from_slice(&body).unwrap());
        }
    });
    let next = || rx.recv_timeout(Duration::from_secs(20)).expect("an answer");
    // A body that is not JSON, a JSON value that is not a message.
    stdin.write_all(&frame(r#"{"jsonrpc":,"#)).unwrap();
    assert_eq!(next()["error"]["code"], -32700);
    stdin.write_all(&frame("[1,2,3]")).unwrap();
    assert_eq!(next()["error"]["code"], -32600);
    // A negative length, and a header line of 2 MiB.
    stdin.write_all(b"Content-Length: -5\r\n\r\n").unwrap();
    assert_eq!(next()["error"]["code"], -32700);
    let mut long = b"X-Padding: ".to_vec();
    long.extend(std::iter::repeat_n(b'a', 2 << 20));
    long.extend_from_slice(b"\r\n\r\n");
    stdin.write_all(&long).unwrap();
    assert_eq!(next()["error"]["code"], -32700);
    // A length of 99 TB, followed by a real message: refused, not allocated.
    stdin
        .write_all(b"Content-Length: 99999999999999\r\n\r\n")
        .unwrap();
    assert_eq!(next()["error"]["code"], -32700);
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.code().is_some(), "killed by a signal: {status:?}");
    assert_ne!(status.code(), Some(101));
}

#[test]
fn after_garbage_a_real_session_still_works() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(&frame("not json at all")).unwrap();
    let init =
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
    stdin.write_all(&frame(&init.to_string())).unwrap();
    let mut answers = Vec::new();
    for _ in 0..2 {
        let mut length = 0;
        loop {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            if line.trim_end().is_empty() {
                break;
            }
            if let Some(n) = line.trim_end().strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        stdout.read_exact(&mut body).unwrap();
        answers.push(serde_json::from_slice::<Value>(&body).unwrap());
    }
    assert_eq!(answers[0]["error"]["code"], -32700);
    assert_eq!(answers[1]["id"], 1);
    assert!(answers[1]["result"]["capabilities"].is_object());
    let _ = child.kill();
    let _ = child.wait();
}

/// The protocol: `exit` without `shutdown` ends the server with status 1.
#[test]
fn exit_without_shutdown_is_status_1() {
    for (shutdown, code) in [(false, 1), (true, 0)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}});
        stdin.write_all(&frame(&init.to_string())).unwrap();
        let initialized = json!({"jsonrpc": "2.0", "method": "initialized", "params": {}});
        stdin.write_all(&frame(&initialized.to_string())).unwrap();
        if shutdown {
            let s = json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"});
            stdin.write_all(&frame(&s.to_string())).unwrap();
        }
        let exit = json!({"jsonrpc": "2.0", "method": "exit"});
        stdin.write_all(&frame(&exit.to_string())).unwrap();
        stdin.flush().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "shutdown first: {shutdown}");
        drop(stdin);
    }
}
