//! Runs of `cici counterfactual` against the scripted server: the good
//! path and the cache, bad replies, retries, unreachable ends, batches,
//! shards and settings.

use super::super::common;
use super::*;

#[test]
fn a_model_grows_a_triplet_that_the_prover_labels_and_the_cache_replays() {
    let server = Server::start(|body, _| Reply::Json(200, fake_model(body), Vec::new()));
    let dir = seed_dir("llm-good");
    let first = run(&dir, &server.url, "out", &[]);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let recs = records(&dir, "out");
    assert_eq!(recs.len(), 1, "{}", first.stderr);
    let r = &recs[0];
    assert_eq!(r["generator"], "llm:test-model");
    // The prover, not the model, gave the labels.
    assert_ne!(r["flipped_label"], r["anchor_label"]);
    assert_eq!(r["held_label"], r["anchor_label"]);
    assert!(r["flipped_seed"]
        .as_str()
        .unwrap()
        .contains("unavailable(eli, wed 10:00-11:00)"));
    let critic: Vec<Value> = serde_json::from_str(r["flipped_critic"].as_str().unwrap()).unwrap();
    let checks: Vec<&str> = critic
        .iter()
        .map(|v| v["check"].as_str().unwrap())
        .collect();
    assert!(
        checks.contains(&"llm_fluent") && checks.contains(&"llm_no_giveaway"),
        "{checks:?}"
    );

    // Two generator calls and two critic calls, each with the key, JSON
    // asked for by schema.
    let seen = server.requests();
    assert_eq!(seen.len(), 4);
    for s in &seen {
        assert_eq!(s.path, "/v1/chat/completions");
        assert_eq!(
            s.authorization.as_deref(),
            Some(format!("Bearer {KEY}").as_str())
        );
        assert_eq!(s.body["model"], "test-model");
        assert_eq!(s.body["response_format"]["type"], "json_schema");
    }
    assert!(
        first
            .stderr
            .contains("4 requests (0 retries), 0 cache hits, 400 tokens in, 80 out"),
        "{}",
        first.stderr
    );
    let card = std::fs::read_to_string(dir.join("out/README.md")).unwrap();
    assert!(
        card.contains("4 requests") && card.contains("400 prompt tokens"),
        "{card}"
    );

    // The same inputs again, into a fresh folder, offline: no request, the
    // same output byte for byte.
    let again = run(&dir, &server.url, "again", &["--offline"]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert_eq!(server.requests().len(), 4, "the rerun made a request");
    assert!(again.stderr.contains("0 requests") && again.stderr.contains("4 cache hits"));
    assert_eq!(rows_text(&dir.join("again")), rows_text(&dir.join("out")));
    assert_key_nowhere(&dir, &[&first, &again]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn offline_fails_fast_on_a_cache_miss() {
    let server = Server::start(|body, _| Reply::Json(200, fake_model(body), Vec::new()));
    let dir = seed_dir("llm-offline");
    let ran = run(&dir, &server.url, "out", &["--offline"]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("offline") && ran.stderr.contains("no answer for request"),
        "{}",
        ran.stderr
    );
    assert!(server.requests().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_and_hostile_replies_are_rejected_with_reasons() {
    let script = |body: &Value, _n: usize| {
        let p = prompt(body);
        let content = if p.starts_with("You review an edit") {
            good_review().to_string()
        } else if p.contains("is different from the current one") {
            // Each attempt sees the earlier failures in its prompt.
            match p.matches("\n- [").count() {
                0 => "Sure! I moved Eli's appointment.".to_string(),
                1 => json!({"edits": [{"op": "set_holder", "attribute": "eli_infusion", "from": "eli", "to": "zed"}]}).to_string(),
                2 => json!({"edits": [{"op": "replace_text", "attribute": "eli_infusion", "form": "sanitized",
                    "from": "Eli is unavailable Tuesday 10-11.", "to": "{{ config.api_key }}"}]}).to_string(),
                3 => json!({"edits": [{"op": "teleport", "attribute": "eli_infusion"}]}).to_string(),
                _ => good_flip().to_string(),
            }
        } else {
            good_hold().to_string()
        };
        Reply::Json(200, completion(&content), Vec::new())
    };
    let server = Server::start(script);
    let dir = seed_dir("llm-hostile");
    let ran = run(&dir, &server.url, "out", &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let recs = records(&dir, "out");
    assert_eq!(recs.len(), 1, "{}", ran.stderr);
    assert_eq!(recs[0]["flipped_rounds"], 5);
    let rejected: Vec<Value> =
        serde_json::from_str(recs[0]["flipped_rejected"].as_str().unwrap()).unwrap();
    let reasons: Vec<&str> = rejected
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    assert!(reasons[0].contains("no JSON object"), "{reasons:?}");
    assert!(reasons[1].contains("no person `zed`"), "{reasons:?}");
    assert!(reasons[2].contains("template"), "{reasons:?}");
    assert!(
        reasons[3].contains("unknown variant `teleport`"),
        "{reasons:?}"
    );
    // The hostile text is on record only as a rejected attempt: no variant
    // carries it.
    for side in ["anchor", "flipped", "held"] {
        let seed = recs[0][format!("{side}_seed")].as_str().unwrap();
        let item = recs[0][format!("{side}_item")].as_str().unwrap();
        assert!(!seed.contains("{{") && !item.contains("{{"), "{side}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rate_limits_server_errors_and_slow_replies_are_retried() {
    // 429, then 503, then a reply slower than the timeout, then answers.
    let script = |body: &Value, n: usize| match n {
        0 => Reply::Json(
            429,
            json!({"error": {"message": "slow down"}}),
            vec![("Retry-After", "0".into())],
        ),
        1 => Reply::Json(503, json!({"error": {"message": "overloaded"}}), Vec::new()),
        2 => Reply::Slow(
            Duration::from_millis(1500),
            Box::new(Reply::Json(200, fake_model(body), Vec::new())),
        ),
        _ => Reply::Json(200, fake_model(body), Vec::new()),
    };
    let server = Server::start(script);
    let dir = seed_dir("llm-retry");
    let ran = run(
        &dir,
        &server.url,
        "out",
        &["--timeout", "0.5", "--concurrency", "1"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(records(&dir, "out").len(), 1, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("7 requests (3 retries)"),
        "{}",
        ran.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreachable_endpoint_or_an_unknown_model_stops_the_run_clearly() {
    let dir = seed_dir("llm-down");
    // A port nobody listens on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let ran = run(&dir, &url, "out", &["--retries", "4"]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains(&format!("cannot reach {url}")),
        "{}",
        ran.stderr
    );
    // A refused connection is not waited on: no retry is spent on it.
    assert!(ran.stderr.contains("(0 retries)"), "{}", ran.stderr);
    // A run that failed is no run of the dataset: no card, no metadata.
    for name in ["README.md", "croissant.json", "run.json"] {
        assert!(!dir.join("out").join(name).exists(), "{name} written");
    }

    let server = Server::start(|_, _| {
        Reply::Json(
            404,
            json!({"error": {"message": "The model `test-model` does not exist.", "code": "model_not_found"}}),
            Vec::new(),
        )
    });
    let ran = run(&dir, &server.url, "out2", &[]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("does the server know the model `test-model`"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("does not exist"), "{}", ran.stderr);
    assert_eq!(
        server.requests().len(),
        1,
        "an unknown model is not retried"
    );
    assert_key_nowhere(&dir, &[&ran]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_batch_round_trip_gives_what_a_live_run_gives() {
    let dir = seed_dir("llm-batch");
    // Reference: the live run.
    let server = Server::start(|body, _| Reply::Json(200, fake_model(body), Vec::new()));
    let live = run(&dir, &server.url, "live", &["--cache-dir", "live-cache"]);
    assert_eq!(live.code, Some(0), "{}", live.stderr);

    // Batch: emit, run the batch here, ingest, until nothing is pending.
    let unreachable = "http://127.0.0.1:9/v1";
    let mut waves = 0;
    let mut ingest: Vec<String> = Vec::new();
    loop {
        let mut extra = vec!["--emit-batch".to_string(), "batch.jsonl".to_string()];
        extra.extend(ingest.iter().cloned());
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let ran = run(&dir, unreachable, "batched", &extra);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        assert_key_nowhere(&dir, &[&ran]);
        let lines: Vec<Value> = std::fs::read_to_string(dir.join("batch.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        if lines.is_empty() {
            break;
        }
        waves += 1;
        assert!(waves <= 6, "the batch never drained");
        let mut results = String::new();
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(l["method"], "POST");
            assert_eq!(l["url"], "/v1/chat/completions");
            assert_eq!(l["custom_id"].as_str().unwrap().len(), 64);
            let answer = json!({
                "id": format!("batch_req_{i}"),
                "custom_id": l["custom_id"],
                "response": {"status_code": 200, "request_id": format!("r{i}"), "body": fake_model(&l["body"])},
                "error": null,
            });
            results.push_str(&answer.to_string());
            results.push('\n');
        }
        // One failed line: reported, not fatal.
        results.push_str(&json!({"custom_id": "0".repeat(64), "response": {"status_code": 500, "body": {}}, "error": {"message": "boom"}}).to_string());
        results.push('\n');
        std::fs::write(dir.join("results.jsonl"), results).unwrap();
        ingest = vec!["--ingest-batch".into(), "results.jsonl".into()];
    }
    // Both sides' generator calls in the first wave, both critic calls in
    // the second.
    assert_eq!(waves, 2);
    assert_eq!(
        rows_text(&dir.join("batched")),
        rows_text(&dir.join("live"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_split_the_seeds_without_overlap() {
    let mut seen: Vec<String> = Vec::new();
    let seeds = std::fs::read_dir(common::root().join("seeds"))
        .unwrap()
        .count();
    let mut assigned = 0;
    for i in 1..=3 {
        let out = tempdir(&format!("shard-{i}"));
        let output = common::cici(&[
            "counterfactual",
            "seeds/",
            "--out",
            out.to_str().unwrap(),
            "--kind",
            "flow",
            "--per-seed",
            "1",
            "--shard",
            &format!("{i}/3"),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let count: usize = stderr
            .split(&format!("shard {i}/3: "))
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{stderr}"));
        // Shards differ by at most one seed.
        assert!(count == seeds / 3 || count == seeds / 3 + 1, "{stderr}");
        assigned += count;
        for r in records(&out, "") {
            let s = r["scenario"].as_str().unwrap().to_string();
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert_eq!(assigned, seeds);
    let mut all = common::cici(&["check", "--format", "json", "seeds/"]);
    let json: Value = serde_json::from_slice(&std::mem::take(&mut all.stdout)).unwrap();
    let total = json["scenarios"].as_array().unwrap().len();
    assert!(seen.len() <= total);
    let bad = common::cici(&["counterfactual", "seeds/", "--out", "x", "--shard", "4/3"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("between 1 and N"));
    let bad = common::cici(&["counterfactual", "seeds/", "--out", "x", "--offline"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("add --generator llm"));
}

#[test]
fn settings_come_from_cici_yaml_and_plain_json_is_asked_where_schemas_are_refused() {
    // A server without structured output: 400 on `response_format`.
    let server = Server::start(|body, _| {
        if body.get("response_format").is_some() {
            Reply::Json(
                400,
                json!({"error": {"message": "response_format is not supported"}}),
                Vec::new(),
            )
        } else {
            // The reply wraps its JSON in prose and a fence.
            let inner = fake_model(body)["choices"][0]["message"]["content"]
                .as_str()
                .unwrap()
                .to_string();
            Reply::Json(
                200,
                completion(&format!("Here you go:\n```json\n{inner}\n```")),
                Vec::new(),
            )
        }
    });
    let dir = seed_dir("llm-yaml");
    std::fs::write(
        dir.join("cici.yaml"),
        format!(
            "llm:\n  base_url: {}\n  model: yaml-model\n  api_key_env: {KEY_ENV}\n  cache_dir: yaml-cache\n  concurrency: 2\n",
            server.url
        ),
    )
    .unwrap();
    let mut args: Vec<String> = BASE.iter().map(|s| s.to_string()).collect();
    args.extend(["--out".to_string(), "out".to_string()]);
    let ran = cici_in(&dir, &args);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(records(&dir, "out")[0]["generator"], "llm:yaml-model");
    assert!(dir.join("yaml-cache").is_dir());
    let seen = server.requests();
    assert_eq!(seen[0].body["model"], "yaml-model");
    assert!(seen[0].body.get("response_format").is_some());
    assert!(seen[1..]
        .iter()
        .all(|s| s.body.get("response_format").is_none()));

    // A setting the file does not know is an error, not a silent default.
    std::fs::write(dir.join("cici.yaml"), "llm:\n  modle: x\n").unwrap();
    let ran = cici_in(&dir, &args);
    assert_eq!(ran.code, Some(2));
    assert!(
        ran.stderr.contains("unknown field `modle`"),
        "{}",
        ran.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
