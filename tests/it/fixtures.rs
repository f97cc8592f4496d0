//! Fixtures per stage (`tests/fixtures/<stage>/{ok,err}/*.cici`), each
//! checked and snapshotted as a user sees it: diagnostics rendered without
//! colour, then a line per scenario with its verdict and classes.
//!
//! A fixture may start with `# options: max-solve-ms=N`.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use cici::analysis::Options;
use cici::driver::{DiagnosticRecord, Run};

use super::common::{render, root};

fn options_for(text: &str) -> Options {
    let mut options = Options::default();
    if let Some(rest) = text.strip_prefix("# options: max-solve-ms=") {
        let ms: u64 = rest.lines().next().unwrap().trim().parse().unwrap();
        options.max_solve = Some(Duration::from_millis(ms));
    }
    options
}

fn run_fixture(path: &Path) -> Run {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let name = path
        .strip_prefix(root().join("tests/fixtures"))
        .unwrap()
        .display()
        .to_string();
    let mut run = Run::new();
    run.check_text(name, text.clone(), &options_for(&text));
    run
}

fn summary(run: &Run) -> String {
    let mut out = String::new();
    for c in &run.checked {
        out.push_str(&format!(
            "{}: unique={} oracle_allowed={} trivial={:?}\n",
            c.scenario.id, c.report.unique, c.report.oracle_allowed, c.report.trivial
        ));
        for (a, f) in c.scenario.attributes.iter().zip(&c.report.attributes) {
            out.push_str(&format!("  {} {}\n", a.id, f.class.name()));
        }
    }
    out
}

#[test]
fn fixtures_render_as_snapshotted() {
    insta::glob!("../fixtures", "{syntax,resolve,check}/**/*.cici", |path| {
        let run = run_fixture(path);
        let expect_errors = path.parent().unwrap().ends_with("err");
        if expect_errors {
            assert!(run.errors() > 0, "{} should have errors", path.display());
        } else {
            assert_eq!(
                run.errors(),
                0,
                "{} should have no errors:\n{}",
                path.display(),
                render(&run)
            );
        }
        insta::assert_snapshot!(format!("{}---\n{}", render(&run), summary(&run)));
    });
}

/// Every `code(cici::...)` declared in the sources of the checking stages
/// (the build's own codes are triggered by templates, in `build.rs`).
fn declared_codes() -> BTreeSet<String> {
    super::common::codes_in_source()
        .into_iter()
        .filter(|c| {
            // Build, render, import (the PiSAs readers' and the other
            // releases'), export and report codes have their own tests, and
            // the model judge's come from a model (`tests/it/judge.rs`).
            ![
                "build::",
                "report::",
                "render::",
                "import::",
                "agentcibench::",
                "peer::",
                "export::",
                "check::judge_",
            ]
            .iter()
            .any(|s| c["cici::".len()..].starts_with(s))
        })
        .collect()
}

#[test]
fn every_diagnostic_code_is_triggered_by_a_fixture() {
    let declared = declared_codes();
    assert!(declared.len() > 30, "found only {declared:?}");
    let mut seen = BTreeSet::new();
    for stage in ["syntax", "resolve", "check"] {
        for kind in ["ok", "err"] {
            let dir = root().join("tests/fixtures").join(stage).join(kind);
            for e in std::fs::read_dir(&dir).unwrap() {
                let run = run_fixture(&e.unwrap().path());
                for d in &run.diagnostics {
                    seen.insert(DiagnosticRecord::new(d, &run.sources).code);
                }
            }
        }
    }
    // Files that are not text at all: read as a folder is, not as a text.
    let mut run = Run::new();
    run.check_paths(&[root().join("tests/fixtures/io")], &Options::default())
        .unwrap();
    for d in &run.diagnostics {
        seen.insert(DiagnosticRecord::new(d, &run.sources).code);
    }
    let missing: Vec<&String> = declared.difference(&seen).collect();
    assert!(missing.is_empty(), "no fixture triggers {missing:?}");
}

#[test]
fn json_records_point_at_the_primary_span() {
    let run = run_fixture(&root().join("tests/fixtures/resolve/err/unknown_category.cici"));
    let records: Vec<DiagnosticRecord> = run
        .diagnostics
        .iter()
        .map(|d| DiagnosticRecord::new(d, &run.sources))
        .collect();
    let first = &records[0];
    assert_eq!(first.code, "cici::resolve::unknown_category");
    assert_eq!(first.severity, "error");
    assert_eq!(first.help.as_deref(), Some("did you mean `health`?"));
    let line =
        std::fs::read_to_string(root().join("tests/fixtures/resolve/err/unknown_category.cici"))
            .unwrap()
            .lines()
            .nth(first.line - 1)
            .unwrap()
            .to_string();
    assert_eq!(&line[first.column - 1..], "helth");
}
