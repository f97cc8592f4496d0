//! Lint levels from the command line, `cici.yaml` and seed comments, run
//! through the built binary.

use super::common::{root, tempdir};

fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::hostile::files::cici_in(dir, args)
}

/// A folder with the fixture that gives two `text_states_more` warnings
/// and one `text_states_nothing`.
fn workspace(name: &str) -> super::common::TempDir {
    let dir = tempdir(name);
    let seed = root().join("tests/fixtures/check/ok/text_warnings.cici");
    std::fs::copy(seed, dir.join("seed.cici")).unwrap();
    dir
}

/// (code, severity, level source) of every diagnostic of a JSON check.
fn records(out: &std::process::Output) -> Vec<(String, String, String)> {
    super::common::json_diagnostics(out)
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap().to_string();
            (s("code"), s("severity"), s("level_source"))
        })
        .collect()
}

#[test]
fn allow_warn_and_deny_on_the_command_line_with_or_without_the_prefix() {
    let dir = workspace("levels-cli");
    let plain = run_in(&dir, &["check", "--format", "json", "seed.cici"]);
    assert_eq!(plain.status.code(), Some(0));
    assert_eq!(records(&plain).len(), 3);
    assert!(records(&plain).iter().all(|r| r.2 == "default"));

    let allowed = run_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--allow",
            "cici::check::text_states_more",
            "seed.cici",
        ],
    );
    let r = records(&allowed);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, "cici::check::text_states_nothing");

    // A code beats the group: every lint denied but one.
    let denied = run_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--deny",
            "warnings",
            "--warn",
            "text_states_nothing",
            "seed.cici",
        ],
    );
    assert_eq!(denied.status.code(), Some(1));
    let r = records(&denied);
    assert!(r
        .iter()
        .any(|x| x.0.ends_with("text_states_more") && x.1 == "error" && x.2 == "command_line"));
    assert!(r.iter().any(|x| x.0.ends_with("text_states_nothing")
        && x.1 == "warning"
        && x.2 == "command_line"));
}

#[test]
fn an_unknown_code_is_a_usage_error_that_names_the_nearest() {
    let dir = workspace("levels-typo");
    let out = run_in(&dir, &["check", "--allow", "idle_facts", "seed.cici"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `idle_fact`"), "{err}");
    let out = run_in(&dir, &["check", "--deny", "not_unique", "seed.cici"]);
    assert_eq!(out.status.code(), Some(2), "an error is not a lint");
}

#[test]
fn the_project_file_sets_levels_and_the_command_line_overrides_it() {
    let dir = workspace("levels-yaml");
    std::fs::write(
        dir.join("cici.yaml"),
        "lints:\n  warnings: deny\n  text_states_nothing: allow\n",
    )
    .unwrap();
    let out = run_in(&dir, &["check", "--format", "json", "seed.cici"]);
    assert_eq!(out.status.code(), Some(1));
    let r = records(&out);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|x| x.1 == "error" && x.2 == "project_file"));
    let out = run_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--warn",
            "warnings",
            "seed.cici",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(records(&out)
        .iter()
        .all(|x| x.1 == "warning" && x.2 == "command_line"));
    std::fs::write(dir.join("cici.yaml"), "lints:\n  idle_facts: allow\n").unwrap();
    let out = run_in(&dir, &["check", "seed.cici"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cici.yaml: lints:"));
}

#[test]
fn a_seed_comment_wins_over_the_command_line_for_its_block() {
    let dir = workspace("levels-seed");
    let text = std::fs::read_to_string(dir.join("seed.cici"))
        .unwrap()
        .replace(
            "  attribute lena_scan {\n",
            "  attribute lena_scan {\n    # cici: allow text_states_nothing\n",
        );
    std::fs::write(dir.join("seed.cici"), text).unwrap();
    let out = run_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--deny",
            "warnings",
            "seed.cici",
        ],
    );
    let r = records(&out);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r
        .iter()
        .all(|x| x.0.ends_with("text_states_more") && x.1 == "error"));
    // The same lint elsewhere is not allowed by a comment in another block.
    let build = run_in(
        &dir,
        &[
            "build",
            "seed.cici",
            "--out",
            "out",
            "--allow",
            "text_states_more",
        ],
    );
    assert_eq!(
        build.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
}
