//! The flags every command takes (`--quiet`, `--verbose`, `--color`),
//! errors as JSON, help for every flag, and model settings that name no
//! model by default: the built binary, run end to end.

use std::process::Output;

use clap::CommandFactory;

use super::common::{cici, root, tempdir};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn both(o: &Output) -> String {
    format!("{}{}", text(&o.stdout), text(&o.stderr))
}

#[test]
fn every_flag_and_command_has_a_help_line() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        if cmd.get_about().is_none() && !path.is_empty() {
            missing.push(format!("{path} (the command)"));
        }
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if ["help", "version"].contains(&id) {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }
    let mut missing = Vec::new();
    walk(&cici::cli::Cli::command(), "", &mut missing);
    assert!(missing.is_empty(), "without help: {missing:#?}");
}

#[test]
fn help_names_the_files_a_command_writes() {
    let help = text(&cici(&["counterfactual", "--help"]).stdout);
    assert!(!help.contains("triplets.jsonl"), "{help}");
    for name in ["decision/", "README.md", "croissant.json", "cici_task.py"] {
        assert!(help.contains(name), "{name}: {help}");
    }
}

#[test]
fn quiet_leaves_diagnostics_and_results_and_drops_summaries() {
    let loud = cici(&["check", "seeds/"]);
    assert!(text(&loud.stdout).contains("checked 11 scenarios"));
    // Before or after the command: the flags are global.
    for args in [
        &["-q", "check", "seeds/"][..],
        &["check", "seeds/", "--quiet"],
    ] {
        let quiet = cici(args);
        assert_eq!(quiet.status.code(), Some(0), "{}", both(&quiet));
        let out = text(&quiet.stdout);
        assert!(!out.contains("checked 11 scenarios"), "{out}");
        assert!(out.contains("ok   ops_scheduling"), "{out}");
    }
    let broken = std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["--quiet", "check", "-"])
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"scenario x {\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(broken.status.code(), Some(1));
    assert!(text(&broken.stderr).contains("cici::syntax::unexpected"));
    let clash = cici(&["--quiet", "--verbose", "check"]);
    assert_eq!(clash.status.code(), Some(2), "{}", both(&clash));
}

#[test]
fn color_is_asked_for_or_refused_whatever_the_terminal() {
    let dir = tempdir("color");
    std::fs::write(dir.join("bad.cici"), "scenario x {\n").unwrap();
    let path = dir.join("bad.cici");
    let path = path.to_str().unwrap();
    let always = cici(&["check", "--color", "always", path]);
    assert!(
        text(&always.stderr).contains("\u{1b}["),
        "{}",
        both(&always)
    );
    let never = cici(&["--color", "never", "check", path]);
    assert!(!text(&never.stderr).contains("\u{1b}["));
    assert!(text(&never.stderr).contains("cici::syntax::unexpected"));
    let auto = cici(&["check", path]); // piped, and NO_COLOR set
    assert!(!text(&auto.stderr).contains("\u{1b}["));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn with_format_json_io_and_usage_errors_are_json_with_their_code() {
    for (args, code) in [
        (
            &["check", "--format", "json", "no/such/seeds"][..],
            "cici::io",
        ),
        (&["check", "--format=json", "--no-such-flag"], "cici::usage"),
        (&["stats", "--format", "json", "no/such/seeds"], "cici::io"),
    ] {
        let out = cici(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", both(&out)));
        assert_eq!(json["errors"], 1);
        let d = &json["diagnostics"][0];
        assert_eq!(d["code"], code, "{json}");
        assert_eq!(d["severity"], "error");
        assert!(d["message"].as_str().unwrap().len() > 5, "{json}");
    }
    let human = cici(&["check", "no/such/seeds"]);
    assert!(human.stdout.is_empty());
    assert!(text(&human.stderr).starts_with("error: "));
}

#[test]
fn a_model_run_without_a_model_or_a_server_is_a_usage_error_that_names_it() {
    let dir = tempdir("no-model");
    let seed = std::fs::read_to_string(root().join("seeds/ops_scheduling.cici")).unwrap();
    std::fs::write(dir.join("s.cici"), seed).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "counterfactual",
            "s.cici",
            "--out",
            "out",
            "--generator",
            "llm",
        ];
        args.extend(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
            .args(&args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let none = run(&[]);
    assert_eq!(none.status.code(), Some(2), "{}", both(&none));
    assert!(
        text(&none.stderr).contains("`model` is not set"),
        "{}",
        both(&none)
    );
    assert!(text(&none.stderr).contains("--model"), "{}", both(&none));
    let no_url = run(&["--model", "m"]);
    assert_eq!(no_url.status.code(), Some(2));
    assert!(
        text(&no_url.stderr).contains("`base_url` is not set"),
        "{}",
        both(&no_url)
    );
    // Sending nothing needs no server.
    let batch = run(&["--model", "m", "--emit-batch", "batch.jsonl"]);
    assert_eq!(batch.status.code(), Some(0), "{}", both(&batch));
    assert!(dir.join("batch.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn counterfactual_summarises_check_warnings_by_code_unless_verbose() {
    let dir = tempdir("warn-summary");
    for name in ["idle_fact", "missing_sanitized"] {
        let from = root().join(format!("tests/fixtures/fix/{name}.cici"));
        std::fs::copy(from, dir.join(format!("{name}.cici"))).unwrap();
    }
    let seeds = dir.to_str().unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let args = [
        "counterfactual",
        seeds,
        "--out",
        out,
        "--per-seed",
        "1",
        "--kind",
        "decision",
    ];
    let summary = text(&cici(&args).stderr);
    assert!(
        summary.contains("idle_fact.cici: 1 warning: idle_fact ×1"),
        "{summary}"
    );
    assert!(!summary.contains("rules out nothing"), "{summary}");
    let verbose = text(&cici(&[&args[..], &["--verbose"]].concat()).stderr);
    assert!(verbose.contains("rules out nothing"), "{verbose}");
    let quiet = cici(&[&args[..], &["--quiet"]].concat());
    assert_eq!(quiet.status.code(), Some(0));
    assert!(
        quiet.stderr.is_empty() && quiet.stdout.is_empty(),
        "{}",
        both(&quiet)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn timings_say_where_each_scenarios_time_went_only_when_asked() {
    let plain = cici(&["check", "--format", "json", "seeds/lab_access.cici"]);
    let json: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(json["scenarios"][0].get("timings").is_none(), "{json}");

    let timed = cici(&[
        "check",
        "--format",
        "json",
        "--timings",
        "seeds/lab_access.cici",
    ]);
    assert_eq!(timed.status.code(), Some(0), "{}", both(&timed));
    let json: serde_json::Value = serde_json::from_slice(&timed.stdout).unwrap();
    let t = &json["scenarios"][0]["timings"];
    let ms = |key: &str| t[key].as_f64().unwrap_or_else(|| panic!("{key} in {t}"));
    assert!(ms("lower_ms") >= 0.0 && ms("prove_ms") >= 0.0, "{t}");
    // The proofs are part of the analyses.
    assert!(ms("prove_ms") <= ms("analyse_ms"), "{t}");
    assert!(t["solves"].as_u64().unwrap() > 0, "{t}");

    let human = cici(&["check", "--timings", "seeds/lab_access.cici"]);
    let out = text(&human.stdout);
    assert!(out.contains("ok   lab_access"), "{out}");
    assert!(
        out.contains("solver calls)") && out.contains("prove "),
        "{out}"
    );
}
