//! `cici check --judge` against a chat-completions server on loopback with
//! scripted replies: its findings, the cache, lint levels, and that a check
//! without `--judge` asks nothing.

use serde_json::{json, Value};

use super::common::tempdir;
use super::llm::{completion, Reply, Server};

const SEED: &str = r#"scenario judged {
  family meeting_allocation
  title "Weekly sync"
  task "Schedule the weekly sync."
  executor maya
  person maya "Maya Ortiz" role "Operations Lead"
  person eli  "Eli Brandt" role "Security Partner"
  person lena "Lena Fox"   role "Designer"
  room cedar capacity 4 features [video]
  meeting sync "Weekly sync" {
    attendees [maya, eli, lena]
    slots [mon 09:00-10:00, tue 10:00-11:00, wed 11:00-12:00]
    rooms [cedar]
  }
  attribute eli_treatment {
    holder eli
    category health
    raw "Eli has chemotherapy on Monday at 9."
    sanitized "Eli is unavailable Monday 9-10 while he is unwell."
    fact unavailable(eli, mon 09:00-10:00)
  }
  attribute lena_scan {
    holder lena
    category health
    raw "Lena has a scan on Wednesday at 11."
    sanitized "Lena is not unavailable on Wednesday at 11."
    fact unavailable(lena, wed 11:00-12:00)
  }
  oracle { sync -> tue 10:00-11:00 @ cedar }
}
"#;

/// The judge a careful reader would be: a negated text does not state its
/// fact; `unwell` gives a health reason away.
fn script(body: &Value, _: usize) -> Reply {
    let user = body["messages"][1]["content"].as_str().unwrap_or("");
    let text = user
        .lines()
        .find_map(|l| l.strip_prefix("Text: "))
        .unwrap_or("");
    let reply = json!({
        "entails": !text.contains("not unavailable"),
        "reveals": text.contains("unwell"),
        "why": if text.contains("unwell") { "it says he is unwell" } else { "a plain reading" },
    });
    Reply::Json(200, completion(&reply.to_string()), Vec::new())
}

fn check(dir: &std::path::Path, url: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "check",
        "--format",
        "json",
        "--judge",
        "--base-url",
        url,
        "--model",
        "test-model",
        "--cache-dir",
        "cache",
    ];
    args.extend_from_slice(extra);
    args.push("seed.cici");
    crate::hostile::files::cici_in(dir, &args)
}

fn codes(out: &std::process::Output) -> Vec<String> {
    super::common::json_diagnostics(out)
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn the_judge_finds_what_the_reader_cannot_and_answers_from_the_cache() {
    let dir = tempdir("judge");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    let server = Server::start(script);
    // Without --judge: the deterministic check passes both texts, and no
    // request is made.
    let plain = crate::hostile::files::cici_in(&dir, &["check", "--format", "json", "seed.cici"]);
    assert_eq!(plain.status.code(), Some(0));
    assert!(codes(&plain).is_empty(), "{:?}", codes(&plain));
    assert_eq!(server.requests().len(), 0);

    let out = check(&dir, &server.url, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found = codes(&out);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found
        .iter()
        .any(|c| c.starts_with("cici::check::judge_entailment") && c.contains("`lena_scan`")));
    assert!(found
        .iter()
        .any(|c| c.starts_with("cici::check::judge_reveals")
            && c.contains("`eli_treatment`")
            && c.contains("unwell")));
    assert_eq!(
        server.requests().len(),
        2,
        "one call per form that carries a fact"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("judge: 2 forms asked of test-model, 2 findings"),
        "{stderr}"
    );

    // Again, offline: the same findings, from the cache.
    let again = check(&dir, &server.url, &["--offline"]);
    assert_eq!(codes(&again), found);
    assert_eq!(server.requests().len(), 2);

    // The findings are lints.
    let allowed = check(
        &dir,
        &server.url,
        &["--allow", "judge_reveals", "--deny", "judge_entailment"],
    );
    assert_eq!(allowed.status.code(), Some(1));
    let left = codes(&allowed);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with("cici::check::judge_entailment"));
}

#[test]
fn an_offline_judge_without_cached_answers_stops_with_one_line() {
    let dir = tempdir("judge-down");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let out = check(&dir, &url, &["--offline"]);
    assert_eq!(out.status.code(), Some(2));
    // Asked for JSON, the error is the one JSON object on stdout.
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = json["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("offline"), "{json}");
    assert_eq!(json["errors"], 1);
}

#[test]
fn the_judge_batches_its_questions_and_reads_the_answers_back() {
    let dir = tempdir("judge-batch");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    let server = Server::start(script);
    let emitted = check(&dir, &server.url, &["--emit-batch", "batch.jsonl"]);
    assert_eq!(
        emitted.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&emitted.stderr)
    );
    assert_eq!(server.requests().len(), 0, "a batch run sends nothing");
    let lines: Vec<Value> = std::fs::read_to_string(dir.join("batch.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    // The batch service answers as the scripted judge would.
    let mut results = String::new();
    for l in &lines {
        let Reply::Json(_, body, _) = script(&l["body"], 0) else {
            unreachable!()
        };
        let line = json!({"custom_id": l["custom_id"], "response": {"status_code": 200, "body": body}, "error": null});
        results.push_str(&format!("{line}\n"));
    }
    std::fs::write(dir.join("results.jsonl"), results).unwrap();
    let out = check(
        &dir,
        &server.url,
        &["--ingest-batch", "results.jsonl", "--offline"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(codes(&out).len(), 2, "{:?}", codes(&out));
    assert_eq!(server.requests().len(), 0);
}
