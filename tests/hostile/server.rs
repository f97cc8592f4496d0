//! A misbehaving OpenAI-compatible server and hostile settings: nothing
//! panics, nothing hangs without a bound, and the key never reaches the
//! terminal even when the server echoes it.

use serde_json::json;

use crate::it::llm::{fake_model, run, seed_dir, Reply, Server, KEY};

#[test]
fn a_retry_after_of_nan_is_not_a_panic() {
    let server = Server::start(|body, n| {
        if n == 0 {
            Reply::Json(
                429,
                json!({"error": {"message": "slow down"}}),
                vec![("Retry-After", "nan".into())],
            )
        } else {
            Reply::Json(200, fake_model(body), vec![])
        }
    });
    let dir = seed_dir("hostile-nan");
    let ran = run(&dir, &server.url, "out", &[]);
    assert_ne!(ran.code, Some(101), "{}", ran.stderr);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
}

#[test]
fn settings_out_of_bounds_are_refused_with_their_key() {
    let dir = seed_dir("hostile-settings");
    for (flags, key) in [
        (&["--timeout", "inf"][..], "timeout_s"),
        (&["--timeout", "1e300"], "timeout_s"),
        (&["--timeout", "NaN"], "timeout_s"),
    ] {
        let ran = run(&dir, "http://127.0.0.1:9/v1", "out", flags);
        assert_eq!(ran.code, Some(2), "{flags:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(key), "{flags:?}: {}", ran.stderr);
    }
    std::fs::write(dir.join("cici.yaml"), "llm:\n  backoff_s: -1\n").unwrap();
    let ran = run(&dir, "http://127.0.0.1:9/v1", "out", &[]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("backoff_s"), "{}", ran.stderr);
}

#[test]
fn a_server_that_echoes_the_key_does_not_put_it_on_the_terminal() {
    let server = Server::start(|_, _| {
        Reply::Json(
            404,
            json!({"error": {"message": format!("no such route; you sent Authorization: Bearer {KEY}")}}),
            vec![],
        )
    });
    let dir = seed_dir("hostile-echo");
    let ran = run(&dir, &server.url, "out", &[]);
    assert!(matches!(ran.code, Some(1) | Some(2)), "{}", ran.stderr);
    assert!(
        !ran.stderr.contains(KEY) && !ran.stdout.contains(KEY),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("[redacted]"), "{}", ran.stderr);
}

#[test]
fn a_model_that_only_answers_garbage_fails_the_run_with_reasons() {
    let server = Server::start(|_, _| {
        Reply::Json(
            200,
            crate::it::llm::completion("I'd rather write a poem."),
            vec![],
        )
    });
    let dir = seed_dir("hostile-garbage");
    let ran = run(&dir, &server.url, "out", &["--rounds", "3"]);
    assert_eq!(ran.code, Some(1), "{}{}", ran.stdout, ran.stderr);
    assert!(
        ran.stderr.contains("no triplet was accepted"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("JSON"), "{}", ran.stderr);
    let card = std::fs::read_to_string(dir.join("out/README.md")).unwrap();
    assert!(card.contains("Sides that found no variant"), "{card}");
}

#[test]
fn garbage_forever_stops_the_run_after_max_failures() {
    let server = Server::start(|_, _| {
        Reply::Json(
            200,
            crate::it::llm::completion("I'd rather write a poem."),
            vec![],
        )
    });
    let dir = seed_dir("hostile-garbage-forever");
    // Many rounds: without a bound per run, every one would be a request.
    let ran = run(
        &dir,
        &server.url,
        "out",
        &["--rounds", "500", "--max-failures", "5"],
    );
    // A model that stopped the run is an error of the run (exit 2).
    assert_eq!(ran.code, Some(2), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stderr.contains("max_failures"), "{}", ran.stderr);
    assert!(
        server.requests().len() <= 6,
        "{} requests",
        server.requests().len()
    );
}

#[test]
fn server_errors_forever_spend_the_retry_budget_and_stop() {
    let server =
        Server::start(|_, _| Reply::Json(500, json!({"error": {"message": "down"}}), vec![]));
    let dir = seed_dir("hostile-500-forever");
    let ran = run(
        &dir,
        &server.url,
        "out",
        &["--rounds", "500", "--retry-budget", "3", "--retries", "2"],
    );
    assert_eq!(ran.code, Some(2), "{}{}", ran.stdout, ran.stderr);
    assert!(ran.stderr.contains("retry_budget"), "{}", ran.stderr);
    // The first call's 3 attempts, then one more that finds the budget spent.
    assert!(
        server.requests().len() <= 6,
        "{} requests",
        server.requests().len()
    );
}

#[test]
fn a_key_echoed_json_escaped_reaches_neither_stderr_nor_the_cache() {
    let escaped: String = KEY
        .chars()
        .map(|c| format!("\\u{:04x}", c as u32))
        .collect();
    let server = Server::start(move |_, _| {
        Reply::Raw(
            404,
            format!("{{\"error\": {{\"message\": \"no route for {escaped}\"}}}}"),
        )
    });
    let dir = seed_dir("hostile-escaped-echo");
    let ran = run(&dir, &server.url, "out", &["--rounds", "1"]);
    assert_ne!(ran.code, Some(101), "{}", ran.stderr);
    assert!(!ran.stderr.contains(KEY), "{}", ran.stderr);
    assert!(ran.stderr.contains("[redacted]"), "{}", ran.stderr);
    // And a success that carries it escaped is stored masked.
    let escaped: String = KEY
        .chars()
        .map(|c| format!("\\u{:04x}", c as u32))
        .collect();
    let sent = escaped.clone();
    let server = Server::start(move |body, _| {
        let mut reply = fake_model(body);
        reply["id"] = serde_json::Value::from("ESCAPED");
        Reply::Raw(200, reply.to_string().replace("ESCAPED", &sent))
    });
    let dir = seed_dir("hostile-escaped-cache");
    let ran = run(&dir, &server.url, "out", &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    for e in walk(&dir.join("cache")) {
        let text = std::fs::read_to_string(&e).unwrap();
        assert!(
            !text.contains(KEY) && !text.contains(&escaped),
            "{}",
            e.display()
        );
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn credentials_in_the_base_url_are_written_nowhere() {
    let server = Server::start(|body, _| Reply::Json(200, fake_model(body), vec![]));
    let url = server
        .url
        .replacen("http://", "http://alice:hunter2secret@", 1);
    let dir = seed_dir("hostile-userinfo");
    let ran = run(&dir, &url, "out", &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(!ran.stderr.contains("hunter2secret"), "{}", ran.stderr);
    for f in walk(&dir.join("out")) {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.contains("hunter2secret"), "{}", f.display());
    }
}

#[test]
fn a_huge_retry_after_is_capped_and_announced() {
    for asked in ["99999999", "inf", "1e309"] {
        let server = Server::start(move |body, n| {
            if n == 0 {
                Reply::Json(
                    429,
                    json!({"error": {"message": "slow down"}}),
                    vec![("Retry-After", asked.into())],
                )
            } else {
                Reply::Json(200, fake_model(body), vec![])
            }
        });
        let dir = seed_dir("hostile-retry-after");
        let ran = run(&dir, &server.url, "out", &["--max-retry-after-s", "3.5"]);
        assert_eq!(ran.code, Some(0), "{asked}: {}", ran.stderr);
        assert!(
            ran.stderr.contains("waiting 4 s before retrying") && ran.stderr.contains("caps it"),
            "{asked}: {}",
            ran.stderr
        );
    }
}

#[test]
fn a_reply_cut_off_mid_body_counts_against_the_retry_budget() {
    // Every reply promises more body than it sends.
    let server = Server::start(|_, _| Reply::Cut(200, "{\"choices\": [".into()));
    let dir = seed_dir("hostile-cut");
    let ran = run(
        &dir,
        &server.url,
        "out",
        &["--retry-budget", "2", "--retries", "20"],
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("retry_budget"), "{}", ran.stderr);
    assert!(ran.stderr.contains("cut off"), "{}", ran.stderr);
}

#[test]
fn terminal_escapes_from_a_server_are_escaped() {
    let server = Server::start(|_, _| {
        Reply::Json(
            404,
            json!({"error": {"message": "\u{1b}]0;pwned\u{7}\u{1b}[2J teapot"}}),
            vec![],
        )
    });
    let dir = seed_dir("hostile-escapes");
    let ran = run(&dir, &server.url, "out", &["--rounds", "1"]);
    assert!(!ran.stderr.contains('\u{1b}'), "{:?}", ran.stderr);
    assert!(ran.stderr.contains("\\u{1b}"), "{:?}", ran.stderr);
}
