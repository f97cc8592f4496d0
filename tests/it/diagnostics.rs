//! The diagnostics reference (`docs/diagnostics.md`) is a contract: every
//! code in the source has a section there, and every example in it gives
//! its code, first.

use std::collections::BTreeSet;
use std::time::Duration;

use cici::analysis::Options;
use cici::driver::Run;
use miette::Diagnostic as _;

use super::common::{codes_in_source, render, root};

/// What a section shows its code with.
enum Example {
    /// A seed inline, with the `--max-solve-ms` its first line asks for.
    Seed(String, Option<u64>),
    /// A file of the repository.
    File(String),
    /// Neither: the code comes from a build, not from an input.
    None,
}

fn sections() -> Vec<(String, Example)> {
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let mut out = Vec::new();
    for part in doc.split("\n### `").skip(1) {
        let (code, body) = part.split_once("`\n").expect("a heading line");
        let body = body.split("\n## ").next().unwrap_or("");
        let example = if let Some((_, rest)) = body.split_once("```cici\n") {
            let text = rest.split("```").next().unwrap().to_string();
            let ms = text
                .strip_prefix("# cici check --max-solve-ms ")
                .map(|r| r.lines().next().unwrap().trim().parse().unwrap());
            Example::Seed(text, ms)
        } else if let Some((_, rest)) = body.split_once("Example: `") {
            Example::File(rest.split('`').next().unwrap().to_string())
        } else {
            Example::None
        };
        out.push((code.to_string(), example));
    }
    out
}

fn first_code(run: &Run) -> String {
    run.diagnostics
        .first()
        .map(|d| d.diagnostic.code_name())
        .unwrap_or_default()
}

#[test]
fn every_code_has_a_section_and_every_section_a_code() {
    let documented: Vec<String> = sections().into_iter().map(|(c, _)| c).collect();
    let unique: BTreeSet<String> = documented.iter().cloned().collect();
    assert_eq!(unique.len(), documented.len(), "a code has two sections");
    let source = codes_in_source();
    assert!(source.len() >= 60, "{source:?}");
    let missing: Vec<_> = source.difference(&unique).collect();
    let stale: Vec<_> = unique.difference(&source).collect();
    assert!(missing.is_empty(), "codes without a section: {missing:?}");
    assert!(
        stale.is_empty(),
        "sections of codes that do not exist: {stale:?}"
    );
}

#[test]
fn every_seed_example_gives_its_code_first() {
    let mut seen = 0;
    for (code, example) in sections() {
        let Example::Seed(text, ms) = example else {
            continue;
        };
        let options = Options {
            max_solve: ms
                .map(Duration::from_millis)
                .or(Options::default().max_solve),
        };
        let mut run = Run::new();
        run.check_text(format!("{code}.cici"), text, &options);
        assert_eq!(first_code(&run), code, "{}", render(&run));
        seen += 1;
    }
    // Every code of the three seed stages but one (too large to show).
    assert_eq!(seen, 67);
}

#[test]
fn every_file_example_gives_its_code() {
    let mut seen = 0;
    for (code, example) in sections() {
        let Example::File(path) = example else {
            continue;
        };
        // AgentCIBench's codes: `tests/it/agentcibench.rs` gives them.
        if code.starts_with("cici::agentcibench::") {
            continue;
        }
        let path = root().join(path);
        let codes: Vec<String> = if path.extension().is_some_and(|x| x == "cici") {
            let mut run = Run::new();
            run.check_paths(std::slice::from_ref(&path), &Options::default())
                .unwrap();
            run.diagnostics
                .iter()
                .map(|d| d.diagnostic.code_name())
                .collect()
        } else {
            let options = cici::pisas::import::SeedOptions {
                select: cici::pisas::import::build::Select::All,
                seed: 1,
                prefix: None,
            };
            cici::pisas::import::pisas_seed(&path, None, &options)
                .files
                .iter()
                .flat_map(|f| &f.diagnostics)
                .filter_map(|d| d.code().map(|c| c.to_string()))
                .collect()
        };
        assert!(codes.contains(&code), "{}: {codes:?}", path.display());
        seen += 1;
    }
    assert_eq!(seen, 12);
}

#[test]
fn build_codes_are_given_by_the_build_tests() {
    let tests = std::fs::read_to_string(root().join("tests/it/build.rs")).unwrap();
    for (code, example) in sections() {
        if matches!(example, Example::None) {
            // The model judge's findings come from a model, not an input:
            // its tests give them from a scripted judge.
            if code.starts_with("cici::check::judge_") {
                let judge = std::fs::read_to_string(root().join("tests/it/judge.rs")).unwrap();
                assert!(judge.contains(&code), "{code}");
                continue;
            }
            // An export's refusals come from its command line: the hostile
            // export tests and the RL export's tests give them.
            if code.starts_with("cici::export::") {
                let given = ["tests/hostile/exports.rs", "tests/it/rl_export.rs"]
                    .iter()
                    .any(|f| {
                        std::fs::read_to_string(root().join(f))
                            .unwrap()
                            .contains(&code)
                    });
                assert!(given, "{code}");
                continue;
            }
            // The PrivacyLens and CI-RL imports' defects come from release
            // files: `tests/it/peers.rs` and its snapshots give them, by
            // their short name at the start of a line. `not_proven` is a seed
            // the prover turns down, which no sampled case gives; the import
            // records it, as `build::schema` is kept for a bug.
            if let Some(short) = code.strip_prefix("cici::peer::") {
                if short == "not_proven" {
                    continue;
                }
                let mut given = std::fs::read_to_string(root().join("tests/it/peers.rs")).unwrap();
                for e in std::fs::read_dir(root().join("tests/it/snapshots")).unwrap() {
                    let path = e.unwrap().path();
                    if path.to_string_lossy().contains("__peers__") {
                        given.push_str(&std::fs::read_to_string(path).unwrap());
                    }
                }
                let named = given.contains(&code)
                    || given.lines().any(|l| l.starts_with(&format!("{short} ")));
                assert!(named, "{code} is given by no peers test");
                continue;
            }
            // A report's refusals come from the folder it reads: its
            // tests give them.
            if code.starts_with("cici::report::") {
                let report = std::fs::read_to_string(root().join("tests/it/report.rs")).unwrap();
                assert!(report.contains(&code), "{code}");
                continue;
            }
            assert!(
                code.starts_with("cici::render::") || code.starts_with("cici::build::"),
                "{code} has no example"
            );
            // `cici::build::schema` is a bug report that no input gives; the
            // build tests check that the schema check is there.
            assert!(tests.contains(&code), "{code}");
        }
    }
}

/// "Two scenarios in one run share an id": across the files of one check
/// and across later checks of the same run, each repeat is reported where
/// it stands and the first scenario of that id is the one kept.
#[test]
fn a_scenario_id_repeated_across_files_and_checks_is_reported_each_time() {
    let seed = |family, n, id: &str| {
        let mut config = cici::planted::Config::pisas(family, n);
        config.id = Some(id.to_string());
        cici::printer::print(&cici::planted::generate(&config))
    };
    use cici::sema::Family::{JiraAllocation, MeetingAllocation};
    let mut run = Run::new();
    run.check_texts(
        vec![
            ("a.cici".into(), seed(MeetingAllocation, 1, "one")),
            ("b.cici".into(), seed(JiraAllocation, 2, "two")),
            ("c.cici".into(), seed(JiraAllocation, 3, "one")),
        ],
        &Options::default(),
    );
    run.check_text(
        "d.cici",
        seed(MeetingAllocation, 4, "two"),
        &Options::default(),
    );
    run.check_text(
        "e.cici",
        seed(MeetingAllocation, 5, "three"),
        &Options::default(),
    );
    let duplicates: Vec<&str> = run
        .diagnostics
        .iter()
        .filter(|d| d.diagnostic.code_name() == "cici::resolve::duplicate_scenario")
        .map(|d| run.sources.get(d.source).map_or("", |f| f.name.as_str()))
        .collect();
    assert_eq!(duplicates, ["c.cici", "d.cici"], "{}", render(&run));
    let kept: Vec<(&str, &str)> = run
        .checked
        .iter()
        .map(|c| (c.scenario.id.as_str(), run.file_of(c)))
        .collect();
    assert_eq!(
        kept,
        [("one", "a.cici"), ("two", "b.cici"), ("three", "e.cici")]
    );
}
