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
