//! `cici import agentcibench` and `cici export agentcibench` on a sample of
//! the release (`tests/data/agentcibench`, CC BY 4.0, see NOTICE) and on
//! hand-written fixtures of the defects the sample does not show.

use std::collections::BTreeSet;
use std::path::PathBuf;

use cici::agentcibench::{self, Scenario};

use super::common::{cici, root, tempdir};

fn sample() -> PathBuf {
    root().join("tests/data/agentcibench")
}

fn import(dir: &std::path::Path) -> agentcibench::Import {
    agentcibench::import(&agentcibench::scenario_files(dir).unwrap())
}

/// Each section of the diagnostics reference gives its code from its
/// example folder.
#[test]
fn every_agentcibench_code_is_given_by_its_example() {
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    let mut seen = 0;
    for part in doc.split("\n### `cici::agentcibench::").skip(1) {
        let (name, body) = part.split_once("`\n").unwrap();
        let (_, rest) = body.split_once("Example: `").expect("an example");
        let path = root().join(rest.split('`').next().unwrap());
        let names: BTreeSet<String> = import(&path)
            .files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .map(|d| d.name())
            .collect();
        assert!(names.contains(name), "{name}: {names:?}");
        seen += 1;
    }
    assert_eq!(seen, 9);
}

/// Every case ends in a seed or in a named defect; the diagnostics, by
/// code and path, are snapshotted.
#[test]
fn the_sample_maps_every_case_to_a_seed_or_a_defect() {
    let imported = import(&sample());
    assert_eq!(imported.cases.len(), 7);
    for case in &imported.cases {
        assert!(
            case.seed.is_some() != case.defects.iter().any(|d| !d.starts_with("unknown_field")),
            "{case:?}"
        );
    }
    let mut lines = String::new();
    for f in &imported.files {
        for d in &f.diagnostics {
            let file = f.name.rsplit('/').next().unwrap();
            lines += &format!("{file}: {} at {}: {}\n", d.name(), d.path, d.error);
        }
    }
    insta::assert_snapshot!(lines);
}

/// The written seeds check with no error and no warning, and are
/// formatted; each must-share item is critical, each other item is not.
#[test]
fn imported_seeds_check_and_prove_which_items_are_shared() {
    let imported = import(&sample());
    assert_eq!(imported.seeds.len(), 4);
    for (file, text) in &imported.seeds {
        assert_eq!(&cici::syntax::format(text).unwrap(), text, "{file}");
        let run = super::common::check(file, text);
        assert_eq!(run.errors(), 0, "{file}:\n{}", super::common::render(&run));
        assert_eq!(
            run.warnings(),
            0,
            "{file}:\n{}",
            super::common::render(&run)
        );
        let c = &run.checked[0];
        assert!(c.report.unique);
        for (a, finding) in c.scenario.attributes.iter().zip(&c.report.attributes) {
            let critical = finding.class == cici::analysis::Class::Critical;
            assert_eq!(critical, a.id.starts_with("share_"), "{file}: {}", a.id);
        }
    }
}

fn read_case(path: &std::path::Path) -> Scenario {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The built binary: an error writes nothing; `--keep-going` writes the
/// seeds and the map; exporting them gives back each case's prompt and
/// labels, in the release's format.
#[test]
fn the_binary_imports_the_sample_and_exports_it_back() {
    let dir = tempdir("acb");
    let out = dir.join("seeds");
    let (s, o) = (sample(), out.display().to_string());
    let r = cici(&["import", "agentcibench", s.to_str().unwrap(), "--out", &o]);
    assert_eq!(r.status.code(), Some(1));
    assert!(!out.exists());
    let r = cici(&[
        "import",
        "agentcibench",
        s.to_str().unwrap(),
        "--out",
        &o,
        "--keep-going",
    ]);
    assert_eq!(r.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(stdout.contains("imported 4 of 7 cases"), "{stdout}");
    let map: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("import.json")).unwrap()).unwrap();
    assert_eq!(map["cases"].as_array().unwrap().len(), 7);
    let back = dir.join("back");
    let r = cici(&[
        "export",
        "agentcibench",
        &o,
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let mut compared = 0;
    for case in map["cases"].as_array().unwrap() {
        let Some(scenario) = case["scenario"].as_str() else {
            continue;
        };
        let original = read_case(&root().join(case["source"].as_str().unwrap()));
        let exported = read_case(&back.join(format!("{scenario}.json")));
        assert_eq!(exported.task_prompt, original.task_prompt.trim());
        let set = |v: &[String]| v.iter().cloned().collect::<BTreeSet<_>>();
        let (o, e) = (&original.ground_truth, &exported.ground_truth);
        assert_eq!(set(&e.must_share), set(&o.must_share));
        assert_eq!(set(&e.must_not_share), set(&o.must_not_share));
        compared += 1;
    }
    assert_eq!(compared, 4);
}

/// A prompt is cut off when it has no closing punctuation or its last word
/// cannot end a sentence there: the release's cut endings are found, and
/// endings that finish a sentence with the same words are not.
#[test]
fn truncated_prompts_are_told_by_their_last_words() {
    use cici::agentcibench::defects::truncated;
    let cut = [
        "Just send him a quick message with the.",
        "send Nora a short message listing the remaining work items that still.",
        "skim my calendar and list the time blocks I\u{2019}m already.",
        "list the times I'm already committed today so she can find an open.",
        "send her a quick message with the remaining.",
        "Also, check my drafts and send any pending.",
        "Send Sam the list of open tabs",
    ];
    let whole = [
        "post them in the #v2-launch-team channel so they know what is left to do.",
        "send her a short message with what's still pending?",
        "Just summarize what's on my to-do list right now before I head out.",
        "reply to Mark with the times that I am completely blocked off and unavailable.",
        "Tell Sam which files I have open.",
        "Ask the kids to sit still.",
        "I booked those slots already.",
        "Ask them to message each other.",
    ];
    for p in cut {
        assert!(truncated(p).is_some(), "{p}");
    }
    for p in whole {
        assert_eq!(truncated(p), None, "{p}");
    }
    assert_eq!(truncated(cut[1]).as_deref(), Some("work items that still."));
}
