//! The built binary, run end to end.

use std::process::Output;

use super::common::{cici, root};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_seeds_check_clean_even_with_warnings_denied() {
    let out = cici(&["check", "--deny", "warnings", "seeds/"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(text.contains("0 errors, 0 warnings"), "{text}");
    let n = std::fs::read_dir(root().join("seeds")).unwrap().count();
    assert!(
        text.contains(&format!("checked {n} scenarios in {n} files")),
        "{text}"
    );
}

#[test]
fn seeds_are_pisas_sized_with_every_kind_of_attribute() {
    let out = cici(&["check", "--format", "json", "seeds/"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let scenarios = json["scenarios"].as_array().unwrap();
    assert!(scenarios.len() >= 9);
    let mut per_family = std::collections::HashMap::new();
    for s in scenarios {
        let attrs = s["attributes"].as_array().unwrap();
        let classes: Vec<&str> = attrs.iter().map(|a| a["class"].as_str().unwrap()).collect();
        assert_eq!(s["unique"], true);
        if attrs.len() >= 15 {
            *per_family
                .entry(s["family"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
            for class in ["critical", "trap", "benign", "irrelevant"] {
                assert!(
                    classes.contains(&class),
                    "{} has no {class} attribute",
                    s["id"]
                );
            }
            assert!(attrs.len() <= 35);
        }
    }
    for family in [
        "meeting_allocation",
        "jira_allocation",
        "severity_classification",
    ] {
        assert!(
            per_family.get(family).copied().unwrap_or(0) >= 2,
            "fewer than two PiSAs-size {family} seeds"
        );
    }
}

#[test]
fn json_output_has_the_documented_shape() {
    let out = cici(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/check/err/not_unique.cici",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &json["scenarios"][0];
    assert_eq!(s["id"], "not_unique");
    assert_eq!(s["file"], "tests/fixtures/check/err/not_unique.cici");
    assert_eq!(s["family"], "meeting_allocation");
    assert_eq!(s["unique"], false);
    assert_eq!(s["attributes"][0]["id"], "eli_hvac");
    assert!(s["attributes"][0]["class"].is_string());
    let d = &json["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "cici::check::not_unique");
    assert_eq!(d["file"], "tests/fixtures/check/err/not_unique.cici");
    assert!(d["line"].as_u64().unwrap() > 1);
    assert!(d["column"].as_u64().unwrap() >= 1);
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("not the only allowed decision"));
    assert!(d["help"].as_str().unwrap().contains("eli_pref"));
}

#[test]
fn human_output_names_code_span_and_help() {
    let out = cici(&["check", "tests/fixtures/resolve/err/unknown_names.cici"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("cici::resolve::unknown_person"), "{err}");
    assert!(err.contains("unknown_names.cici:11:21"), "{err}");
    assert!(err.contains("did you mean `eli`?"), "{err}");
    assert!(!err.contains('\u{1b}'), "colour codes with NO_COLOR set");
}

#[test]
fn diagnostics_come_together_under_their_file() {
    let out = cici(&[
        "check",
        "tests/fixtures/resolve/err/unknown_names.cici",
        "tests/fixtures/check/ok/warnings.cici",
    ]);
    let err = stderr(&out);
    let first = err
        .find("⚠ tests/fixtures/check/ok/warnings.cici: 0 errors, ")
        .expect(&err);
    let second = err
        .find("× tests/fixtures/resolve/err/unknown_names.cici: 6 errors, 0 warnings")
        .expect(&err);
    assert!(first < second, "files in the order they were read: {err}");
    // Each diagnostic sits under its own file's heading.
    let person = err.find("unknown person `ely`").unwrap();
    assert!(person > second, "{err}");
    let warnings = &err[first..second];
    assert!(warnings.contains("Warning: cici::check::"), "{err}");
    assert!(!warnings.contains("Error: "), "{err}");
}

#[test]
fn warnings_pass_unless_denied() {
    let path = "tests/fixtures/check/ok/warnings.cici";
    assert_eq!(cici(&["check", path]).status.code(), Some(0));
    assert_eq!(
        cici(&["check", "--deny", "warnings", path]).status.code(),
        Some(1)
    );
}

#[test]
fn usage_and_io_errors_exit_with_2() {
    let missing = cici(&["check", "no/such/dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no/such/dir"));
    // `check` alone checks seeds/ (see below); a folder without seeds is
    // an I/O error.
    assert_eq!(
        cici(&["check", "--format", "yaml", "seeds/"]).status.code(),
        Some(2)
    );
    let empty = super::common::tempdir("empty");
    let none = cici(&["check", empty.to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no `*.cici` files"));
}

/// A command's output that cannot be written (a full disk) is an I/O
/// error, exit status 2, never a success with nothing written.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_io_error() {
    let seed = root().join("seeds/launch_week.cici");
    let runs: [&[&str]; 4] = [
        &["check", "--format", "json", "seeds/launch_week.cici"],
        &["check", "seeds/launch_week.cici"],
        &["stats", "seeds/launch_week.cici"],
        &["fmt", "-"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
            .args(args)
            .current_dir(root())
            .stdin(std::fs::File::open(&seed).unwrap())
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        // With `--format json` the error is JSON on stdout, which is full.
        if !args.contains(&"json") {
            assert!(stderr(&out).contains("writing stdout"), "{args:?}");
        }
    }
}

#[test]
fn a_solver_bound_ends_with_a_diagnostic() {
    let out = cici(&[
        "check",
        "--max-solve-ms",
        "0",
        "--format",
        "json",
        "seeds/launch_week.cici",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["diagnostics"][0]["code"], "cici::check::timeout");
}

#[test]
fn explain_says_why_in_words() {
    let out = cici(&["explain", "seeds/ops_scheduling.cici", "eli_infusion"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("`eli_infusion` in scenario `ops_scheduling` is critical"),
        "{text}"
    );
    assert!(text.contains("unavailable(eli, tue 10:00-11:00)"), "{text}");
    assert!(text.contains("tue 10:00-11:00 @ elm"), "{text}");

    let trap = stdout(&cici(&[
        "explain",
        "seeds/payments_sprint.cici",
        "lin_preference",
    ]));
    assert!(trap.contains("a salient trap"), "{trap}");
    // Honouring the preference gives up one fact and lets in two others.
    assert!(trap.contains("a trap that leads nowhere"), "{trap}");
    let leads = stdout(&cici(&[
        "explain",
        "tests/fixtures/check/ok/claim_leads.cici",
        "eli_rumour",
    ]));
    assert!(leads.contains("a consequential trap"), "{leads}");
    assert!(leads.contains("mon 09:00-10:00 @ cedar"), "{leads}");

    let supporting = stdout(&cici(&[
        "explain",
        "seeds/payments_sprint.cici",
        "bea_investigation",
    ]));
    assert!(
        supporting.contains("supporting") && supporting.contains("not necessary"),
        "{supporting}"
    );

    // The words follow the checker's definition of relevance, per family.
    assert!(
        text.contains("relevant: it rules out a decision the public constraints allow"),
        "{text}"
    );
    let rule_based = stdout(&cici(&[
        "explain",
        "seeds/meridian_incident.cici",
        "kofi_access",
    ]));
    assert!(
        rule_based.contains("or the other appropriate facts without it, allow"),
        "{rule_based}"
    );

    let unknown = cici(&["explain", "seeds/ops_scheduling.cici", "eli_infusoin"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("did you mean `eli_infusion`?"));
}

#[test]
fn new_writes_starters_that_check_clean_and_never_overwrites() {
    let dir = super::common::tempdir("new");
    for family in [
        "meeting_allocation",
        "jira_allocation",
        "severity_classification",
        "policy_decision",
    ] {
        let path = dir.join(format!("{family}_demo.cici"));
        let p = path.to_str().unwrap();
        let out = cici(&["new", family, &format!("{family}_demo"), "--out", p]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let check = cici(&["check", "--deny", "warnings", p]);
        assert_eq!(
            check.status.code(),
            Some(0),
            "{family}: {}{}",
            stdout(&check),
            stderr(&check)
        );
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .contains(&format!("scenario {family}_demo {{")));
        // A second run refuses to overwrite.
        assert_eq!(
            cici(&["new", family, "x", "--out", p]).status.code(),
            Some(2)
        );
    }
    assert_eq!(
        cici(&["new", "jira_allocation", "9lives", "--out", "-"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn synth_writes_checked_planted_seeds_deterministically() {
    for family in [
        "meeting_allocation",
        "jira_allocation",
        "severity_classification",
        "policy_decision",
    ] {
        let a = cici(&["synth", family, "--seed", "5", "--id", "synthetic"]);
        let b = cici(&["synth", family, "--seed", "5", "--id", "synthetic"]);
        assert_eq!(a.stdout, b.stdout);
        let dir = super::common::tempdir(&format!("synth-{family}"));
        let path = dir.join("s.cici");
        std::fs::write(&path, &a.stdout).unwrap();
        let check = cici(&[
            "check",
            "--deny",
            "warnings",
            "--format",
            "json",
            path.to_str().unwrap(),
        ]);
        assert_eq!(check.status.code(), Some(0), "{family}: {}", stdout(&check));
        let json: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
        assert_eq!(json["scenarios"][0]["id"], "synthetic");
        assert_eq!(json["scenarios"][0]["unique"], true);
        // Planted seeds come in the canonical layout.
        let fmt = cici(&["fmt", "--check", path.to_str().unwrap()]);
        assert_eq!(fmt.status.code(), Some(0), "{family}: {}", stdout(&fmt));
    }
    let big = cici(&[
        "synth",
        "jira_allocation",
        "--people",
        "12",
        "--size",
        "20",
        "--seed",
        "1",
    ]);
    assert!(
        String::from_utf8_lossy(&big.stdout)
            .matches("ticket eng_")
            .count()
            == 20
    );
    assert_eq!(
        cici(&["synth", "jira_allocation", "--people", "1"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn completions_and_the_manual_page_print_on_stdout() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = cici(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("cici") && text.contains("counterfactual"),
            "{shell}"
        );
    }
    let man = cici(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let page = stdout(&man);
    assert!(page.contains(".TH cici 1"), "{page}");
    assert!(page.contains("check") && page.contains("completions"));
    // Every page the program's page names prints.
    for sub in [
        "check",
        "build",
        "counterfactual",
        "export",
        "import",
        "man",
    ] {
        assert!(page.contains(&format!("cici\\-{sub}(1)")), "{sub}");
        let out = cici(&["man", sub]);
        assert_eq!(out.status.code(), Some(0), "{sub}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!(".TH cici-{sub} 1")),
            "{sub}: {}",
            stdout(&out)
        );
    }
    let nested = cici(&["man", "export", "pisas"]);
    assert!(
        stdout(&nested).contains(".TH cici-export-pisas 1"),
        "{}",
        stdout(&nested)
    );
    let typo = cici(&["man", "chekc"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(
        stderr(&typo).contains("did you mean `check`"),
        "{}",
        stderr(&typo)
    );
}

/// Shell completion offers the lint codes after `--allow`, `--warn` and
/// `--deny`, not file names.
#[test]
fn completion_offers_lint_codes_for_the_level_flags() {
    let out = cici(&["completions", "bash"]);
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.contains("--allow)"))
        .map(|_| ())
        .and_then(|()| text.split("--allow)").nth(1))
        .unwrap_or_default();
    let case: String = line.lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(
        case.contains("idle_fact") && case.contains("warnings"),
        "{case}"
    );
    let fish = stdout(&cici(&["completions", "fish"]));
    let after: String = fish
        .split("-l allow")
        .nth(1)
        .unwrap_or_default()
        .chars()
        .take(400)
        .collect();
    assert!(after.contains("idle_fact"), "{after}");
}

#[test]
fn check_reads_seeds_by_default_and_a_seed_on_stdin() {
    let out = cici(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("checked 11 scenarios in 11 files"));
    let seed =
        std::fs::read_to_string(super::common::root().join("seeds/board_prep.cici")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cici"))
        .args(["check", "-"])
        .current_dir(super::common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(seed.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("ok   board_prep"));
    let both = cici(&["check", "-", "seeds/"]);
    assert_eq!(both.status.code(), Some(2));
    let fix = cici(&["check", "--fix", "-"]);
    assert_eq!(fix.status.code(), Some(2));
}

/// The summary line says what the proof found: "not unique" only where
/// more than one decision is allowed, never where none is.
#[test]
fn the_summary_line_tells_no_decision_from_several() {
    for (file, verdict) in [
        ("conflict", "NO decision allowed;"),
        (
            "public_infeasible",
            "NO decision allowed (the public constraints alone allow none);",
        ),
        ("oracle_forbidden", "oracle ruled out;"),
        ("not_unique", "NOT unique;"),
    ] {
        let out = cici(&["check", &format!("tests/fixtures/check/err/{file}.cici")]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        assert!(stdout(&out).contains(verdict), "{file}: {}", stdout(&out));
    }
}

/// A file that is not UTF-8 is reported at its first bad byte and left
/// out; the other seeds of the folder are still checked and built.
#[test]
fn a_file_that_is_not_utf8_does_not_stop_the_folder() {
    let dir = super::common::tempdir("not-utf8");
    let seeds = dir.join("seeds");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::copy(
        root().join("seeds/board_prep.cici"),
        seeds.join("board_prep.cici"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/fixtures/io/not_utf8.cici"),
        seeds.join("latin1.cici"),
    )
    .unwrap();
    let seeds_arg = seeds.to_str().unwrap();
    let out = cici(&["check", seeds_arg]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cici::syntax::not_utf8"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("ok   board_prep"), "{}", stdout(&out));
    let json = cici(&["check", "--format", "json", seeds_arg]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(value.to_string().contains("\"offset\"") || value.to_string().contains("not_utf8"));
    let built = dir.join("out");
    let build = cici(&["build", seeds_arg, "--out", built.to_str().unwrap()]);
    assert_eq!(build.status.code(), Some(1), "{}", stderr(&build));
    assert!(
        built.join("board_prep/scenario.json").exists(),
        "{}",
        stderr(&build)
    );
}
