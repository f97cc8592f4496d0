//! `cici check --judge` against a scripted judge on loopback that echoes
//! the API key inside the JSON it returns, in every encoding a server was
//! seen to use: the key reaches no output, no warning and no cached file.
//! A judge whose replies are all unreadable fails the check; bidirectional
//! controls from the server are escaped; a base URL's credentials are not
//! printed.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use base64::Engine as _;
use serde_json::{json, Value};

use crate::it::common::tempdir;
use crate::it::llm::{completion, Reply, Server};

const KEY: &str = "sk-proj-Q7hZk2Lm9Wx4Rt8Yp3Nc6Vb1";
const KEY_ENV: &str = "CICI_TEST_JUDGE_KEY";

const SEED: &str = r#"scenario judged {
  family meeting_allocation
  title "Weekly sync"
  task "Schedule the weekly sync."
  executor maya
  person maya "Maya Ortiz" role "Operations Lead"
  person eli  "Eli Brandt" role "Security Partner"
  room cedar capacity 4 features [video]
  meeting sync "Weekly sync" {
    attendees [maya, eli]
    slots [mon 09:00-10:00, tue 10:00-11:00]
    rooms [cedar]
  }
  attribute eli_treatment {
    holder eli
    category health
    raw "Eli has chemotherapy on Monday at 9."
    sanitized "Eli is unavailable Monday 9-10."
    fact unavailable(eli, mon 09:00-10:00)
  }
  oracle { sync -> tue 10:00-11:00 @ cedar }
}
"#;

/// The key as a hostile judge hides it in its reason.
fn encodings() -> Vec<(&'static str, String)> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let wrapped: Vec<String> = b64
        .encode(format!("key={KEY}"))
        .as_bytes()
        .chunks(12)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let half = KEY.len() / 2;
    vec![
        ("plain", KEY.to_string()),
        (
            "every other character escaped",
            KEY.chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        format!("\\u{:04x}", c as u32)
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        ),
        ("hex", KEY.bytes().map(|b| format!("{b:02x}")).collect()),
        ("wrapped base64", wrapped.join("\n")),
        (
            "split in two",
            format!("{} ... {}", &KEY[..half], &KEY[half..]),
        ),
        ("spaced", KEY.chars().map(|c| format!("{c} ")).collect()),
        ("reversed", KEY.chars().rev().collect()),
        (
            "html entities",
            KEY.chars().map(|c| format!("&#{};", c as u32)).collect(),
        ),
        ("upper case", KEY.to_uppercase()),
        // A reason longer than the cut, with the key across it.
        ("across the cut", format!("{}{KEY}", "x".repeat(290))),
    ]
}

fn run(dir: &Path, url: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "check",
        "--judge",
        "--base-url",
        url,
        "--model",
        "m",
        "--api-key-env",
        KEY_ENV,
        "--cache-dir",
        "cache",
    ];
    args.extend_from_slice(extra);
    args.push("seed.cici");
    Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(&args)
        .current_dir(dir)
        .env(KEY_ENV, KEY)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Whether any run of eight characters of the key is in `text`, case
/// folded.
fn betrays(text: &str) -> bool {
    let lower = text.to_lowercase();
    let key: Vec<char> = KEY.to_lowercase().chars().collect();
    key.windows(8)
        .any(|w| lower.contains(&w.iter().collect::<String>()))
}

/// Every file under `dir`, as text.
fn files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p));
        } else if let Ok(bytes) = std::fs::read(&p) {
            out.push((
                p.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
    out
}

#[test]
fn a_judge_that_echoes_the_key_in_any_encoding_never_shows_it() {
    for (name, hidden) in encodings() {
        let why = format!("the sanitized text is fine, key {hidden}");
        let server = Server::start(move |_: &Value, _| {
            let inner = json!({"entails": false, "reveals": true, "why": why}).to_string();
            Reply::Json(200, completion(&inner), Vec::new())
        });
        let dir = tempdir(&format!("judge-secret-{}", name.replace(' ', "-")));
        std::fs::write(dir.join("seed.cici"), SEED).unwrap();
        for extra in [&[][..], &["--format", "json"]] {
            let out = run(&dir, &server.url, extra);
            let (stdout, stderr) = (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
            );
            assert!(
                stdout.contains("judge_") || stderr.contains("judge_"),
                "{name}: {stdout}{stderr}"
            );
            assert!(!betrays(&stdout), "{name}: stdout shows the key: {stdout}");
            assert!(!betrays(&stderr), "{name}: stderr shows the key: {stderr}");
        }
        for (path, text) in files(&dir.join("cache")) {
            assert!(!betrays(&text), "{name}: {path} stores the key");
        }
    }
}

#[test]
fn a_judge_of_garbage_fails_the_check_in_one_line() {
    let server = Server::start(|_: &Value, _| {
        Reply::Json(
            200,
            completion("I would rather not answer in JSON."),
            Vec::new(),
        )
    });
    let dir = tempdir("judge-garbage");
    // Three forms to ask about, all answered with garbage; one is allowed.
    let seed = SEED.replace(
        "  oracle {",
        "  attribute eli_room {\n    holder eli\n    raw \"Eli needs a room with video.\"\n    fact needs_feature(sync, video)\n  }\n  attribute maya_room {\n    holder maya\n    raw \"Maya needs a room with video too.\"\n    fact needs_feature(sync, video)\n  }\n  oracle {",
    );
    std::fs::write(dir.join("seed.cici"), seed).unwrap();
    std::fs::write(dir.join("cici.yaml"), "llm:\n  max_failures: 1\n").unwrap();
    let out = run(&dir, &server.url, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.contains("max_failures"))
            .count(),
        1,
        "{stderr}"
    );
}

#[test]
fn bidi_controls_from_the_judge_are_escaped() {
    let server = Server::start(|_: &Value, _| {
        let inner =
            json!({"entails": false, "reveals": false, "why": "looks \u{202e}fine\u{2066} to me"});
        Reply::Json(200, completion(&inner.to_string()), Vec::new())
    });
    let dir = tempdir("judge-bidi");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    let out = run(&dir, &server.url, &[]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("judge_entailment"), "{all}");
    assert!(
        !all.contains('\u{202e}') && !all.contains('\u{2066}'),
        "{all}"
    );
    assert!(all.contains("\\u{202e}"), "{all}");
}

#[test]
fn credentials_in_the_base_url_are_not_printed() {
    let dir = tempdir("judge-url-credentials");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    let url = format!("http://user:{KEY}@127.0.0.1:9/v1?api_key={KEY}&x=1");
    let out = run(&dir, &url, &[]);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.status.code(), Some(0), "{all}");
    assert!(!betrays(&all), "{all}");
}

#[test]
fn an_ingested_batch_that_echoes_the_key_stores_and_prints_none_of_it() {
    let dir = tempdir("judge-ingest");
    std::fs::write(dir.join("seed.cici"), SEED).unwrap();
    // Emit a batch, then answer it with the key in the answers and errors.
    let out = run(
        &dir,
        "http://127.0.0.1:9/v1",
        &["--emit-batch", "batch.jsonl"],
    );
    assert!(
        out.status.code().is_some(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let batch = std::fs::read_to_string(dir.join("batch.jsonl")).unwrap();
    let mut answers = String::new();
    for (n, line) in batch.lines().enumerate() {
        let req: Value = serde_json::from_str(line).unwrap();
        let id = req["custom_id"].as_str().unwrap();
        let answer = if n == 0 {
            let inner = json!({"entails": false, "reveals": true, "why": format!("key {KEY}")});
            json!({"custom_id": id, "response": {"status_code": 200,
                   "body": completion(&inner.to_string())}, "error": null})
        } else {
            json!({"custom_id": id, "response": {"status_code": 401, "body": {}},
                   "error": {"message": format!("invalid key {KEY}")}})
        };
        answers.push_str(&answer.to_string());
        answers.push('\n');
    }
    std::fs::write(dir.join("answers.jsonl"), answers).unwrap();
    let out = run(
        &dir,
        "http://127.0.0.1:9/v1",
        &["--ingest-batch", "answers.jsonl", "--offline"],
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("ingested"), "{all}");
    assert!(!betrays(&all), "{all}");
    for (path, text) in files(&dir.join("cache")) {
        assert!(!betrays(&text), "{path} stores the key");
    }
}
