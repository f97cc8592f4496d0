//! `cici review`: the built binary serving a copy of the counterfactual
//! sample, spoken to over raw HTTP; and `counterfactual` leaving out what a
//! reviewer rejected.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use cici::verdicts::ledger::row_hash;
use serde_json::Value;

use super::common::{cici, root, tempdir};

/// A copy of the committed sample in a temporary folder.
fn sample(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("data");
    for sub in ["decision", "flow"] {
        std::fs::create_dir_all(out.join(sub)).unwrap();
        for e in std::fs::read_dir(root().join("generated/counterfactuals").join(sub)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, out.join(sub).join(p.file_name().unwrap())).unwrap();
        }
    }
    out
}

fn rows(dir: &Path) -> Vec<Value> {
    cici::review::data::rows(dir).unwrap()
}

struct Server(Child, u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(dir: &Path, reviewer: &str) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["review", dir.to_str().unwrap(), "--reviewer", reviewer])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .strip_prefix("http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no address: {line:?}"))
        .parse()
        .unwrap();
    Server(child, port)
}

/// Sends raw bytes; the status and body of the answer.
fn raw(port: u16, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(request).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_string();
    (status, body)
}

fn post(port: u16, body: &str) -> (u16, String) {
    let req = format!(
        "POST /api/review HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(port, req.as_bytes())
}

fn verdict(row: &Value, verdict: &str, note: &str) -> String {
    serde_json::json!({"id": row["id"], "hash": row_hash(row), "verdict": verdict, "note": note})
        .to_string()
}

fn ledger(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("review.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_server_records_verdicts_and_survives_bad_requests() {
    let tmp = tempdir("review-serve");
    let dir = sample(&tmp);
    let rows = rows(&dir);
    let server = start(&dir, "alice");
    let port = server.1;
    let get = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let (status, page) = raw(port, get.as_bytes());
    assert_eq!(status, 200);
    assert!(page.contains("id=\"cici-data\""));

    assert_eq!(post(port, &verdict(&rows[0], "accept", "fine")).0, 200);
    assert_eq!(post(port, &verdict(&rows[1], "reject", "")).0, 200);
    let got = ledger(&dir);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["id"], rows[0]["id"]);
    assert_eq!(got[0]["verdict"], "accept");
    assert_eq!(got[0]["note"], "fine");
    assert_eq!(got[0]["reviewer"], "alice");
    assert_eq!(got[1]["verdict"], "reject");
    assert_eq!(got[1]["hash"], row_hash(&rows[1]));

    // Bad requests: each a 4xx, none written, and the server goes on.
    let mut stale = serde_json::from_str::<Value>(&verdict(&rows[2], "accept", "")).unwrap();
    stale["hash"] = "0".repeat(64).into();
    let long = format!(
        "POST /api/review HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n"
    );
    let foreign = format!("GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n");
    let typed = format!(
        "POST /api/review HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    let cases: Vec<(Vec<u8>, u16)> = vec![
        (b"\x00\xff garbage\r\n\r\n".to_vec(), 400),
        (long.into_bytes(), 413),
        (foreign.into_bytes(), 403),
        (typed.into_bytes(), 415),
        (vec![b'A'; 20_000], 431),
    ];
    for (req, want) in cases {
        assert_eq!(
            raw(port, &req).0,
            want,
            "{}",
            String::from_utf8_lossy(&req[..40.min(req.len())])
        );
    }
    assert_eq!(post(port, &stale.to_string()).0, 409);
    assert_eq!(post(port, "{not json").0, 400);
    assert_eq!(
        post(port, r#"{"id":"nope","hash":"x","verdict":"accept"}"#).0,
        404
    );
    assert_eq!(post(port, &verdict(&rows[2], "maybe", "")).0, 400);
    assert_eq!(
        post(port, &verdict(&rows[2], "accept", &"x".repeat(3000))).0,
        413
    );
    assert_eq!(ledger(&dir).len(), 2);
    let (status, body) = raw(
        port,
        format!("GET /api/reviews HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["reviews"].as_array().unwrap().len(), 2);
    drop(server);

    // The rejected row changes under the same id: the verdict is stale,
    // listed apart and applied to nothing.
    let file = ["train", "validation", "test"]
        .iter()
        .map(|s| dir.join(format!("{}/{s}.jsonl", rows[1]["kind"].as_str().unwrap())))
        .find(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .contains(rows[1]["id"].as_str().unwrap())
        })
        .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut changed = rows[1].clone();
    changed["anchor_answer"] = "something else".into();
    let line = serde_json::to_string(&rows[1]).unwrap();
    assert!(text.contains(&line));
    std::fs::write(
        &file,
        text.replace(&line, &serde_json::to_string(&changed).unwrap()),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["review", dir.to_str().unwrap(), "--out"])
        .arg(tmp.join("page.html"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("1 stale verdict") && said.contains(rows[1]["id"].as_str().unwrap()),
        "{said}"
    );
    let server = start(&dir, "alice");
    let (_, body) = raw(
        server.1,
        format!(
            "GET /api/reviews HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            server.1
        )
        .as_bytes(),
    );
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["stale"][0]["id"], rows[1]["id"]);
    assert_eq!(body["reviews"].as_array().unwrap().len(), 1);
}

#[test]
fn counterfactual_leaves_out_rejected_rows_and_the_card_counts_verdicts() {
    let tmp = tempdir("review-rejected");
    let dir = sample(&tmp);
    let rows = rows(&dir);
    let (gone, split) = (&rows[0], &rows[1]);
    let line = |row: &Value, reviewer: &str, verdict: &str| {
        serde_json::json!({"id": row["id"], "hash": row_hash(row), "verdict": verdict,
            "note": "", "reviewer": reviewer, "time": "2026-01-01T00:00:00Z"})
        .to_string()
            + "\n"
    };
    let ledger = [
        line(gone, "alice", "reject"),
        line(split, "alice", "accept"),
        line(gone, "bob", "reject"),
        line(split, "bob", "reject"),
    ]
    .concat();
    std::fs::write(dir.join("review.jsonl"), ledger).unwrap();
    let out = cici(&[
        "counterfactual",
        "seeds/",
        "--out",
        dir.to_str().unwrap(),
        "--per-seed",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after: Vec<String> = self::rows(&dir)
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    // Both rows some reviewer's latest verdict rejects are gone; every
    // other row stays.
    for (i, r) in rows.iter().enumerate() {
        let id = r["id"].as_str().unwrap().to_string();
        assert_eq!(after.contains(&id), i > 1, "{id}");
    }
    let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(card.contains("## Human review"), "{card}");
    assert!(
        card.contains("4 verdicts on 2 rows by 2 reviewer(s)"),
        "{card}"
    );
    assert!(card.contains("1 accepted (25.0%), 3 rejected"), "{card}");
    // alice (reject, accept) against bob (reject, reject): agreement 1/2,
    // chance 1/2, so κ is 0.
    assert!(card.contains("| alice and bob | 2 | 1 | 0.00 |"), "{card}");
}

/// A data file over its bound is refused before it is read (a sparse file:
/// nothing is written to disk), with the bound in the help line; the
/// sample's files, far under it, read.
#[test]
fn a_data_file_over_its_bound_is_refused_with_the_bounds() {
    let tmp = tempdir("review-bound");
    let dir = sample(tmp.as_path());
    assert!(!rows(&dir).is_empty());
    let big = std::fs::File::create(dir.join("flow/test.jsonl")).unwrap();
    big.set_len(cici::io::MAX_DATA_FILE_BYTES + 1).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["review", "data", "--out", "page.html"])
        .current_dir(tmp.as_path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!tmp.as_path().join("page.html").exists());
    let err = String::from_utf8(out.stderr).unwrap();
    insta::assert_snapshot!("review_data_file_too_large", err);
}

/// A reviewer name the ledger cannot keep is refused before anything is
/// read or written, each with its reason and the flag that names one.
#[test]
fn a_reviewer_name_the_ledger_cannot_keep_is_refused() {
    let tmp = tempdir("review-reviewer");
    sample(tmp.as_path());
    let long = "r".repeat(cici::verdicts::ledger::MAX_REVIEWER + 1);
    for (name, reason) in [
        ("   ", "the reviewer name is empty"),
        ("ann\u{7}", "the reviewer name has a control character"),
        (long.as_str(), "the reviewer name is over"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_cici"))
            .args(["review", "data", "--out", "page.html", "--reviewer", name])
            .current_dir(tmp.as_path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(reason), "{name:?}: {err}");
        assert!(err.contains("--reviewer NAME"), "{err}");
        assert!(!tmp.as_path().join("page.html").exists());
    }
}
