//! The solver bound ends: `--max-solve-ms 1` on the large corpus seeds
//! once restarted BatSat's search forever (its stop callback answered "go
//! on" to the question BatSat asks after a stopped search), where the
//! unbounded check takes a tenth of a second. A bound gives `unknown`,
//! never another class.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::files::{cici_in, text_of};
use crate::it::common::root;

/// Each attribute's class in `check --format json` of `path`, by scenario.
fn classes(args: &[&str]) -> BTreeMap<(String, String), String> {
    let out = cici_in(&root(), args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text_of(&out)));
    let mut found = BTreeMap::new();
    for s in json["scenarios"].as_array().unwrap() {
        for a in s["attributes"].as_array().unwrap() {
            found.insert(
                (
                    s["id"].as_str().unwrap().to_string(),
                    a["id"].as_str().unwrap().to_string(),
                ),
                a["class"].as_str().unwrap().to_string(),
            );
        }
    }
    found
}

#[test]
fn a_tiny_solver_bound_ends_and_gives_unknown_never_another_class() {
    let seeds = [
        "tests/data/corpus/large-jira",
        "tests/data/corpus/large-meeting",
    ];
    let mut unbounded_args = vec!["check", "--format", "json"];
    unbounded_args.extend(seeds);
    let unbounded = classes(&unbounded_args);
    assert!(unbounded.values().all(|c| c != "unknown"));
    for ms in ["1", "5", "20", "50"] {
        let mut args = vec!["check", "--format", "json", "--max-solve-ms", ms];
        args.extend(seeds);
        // `cici_in` gives up at 60 s; the bound itself is milliseconds, so
        // 20 s is a hang guard, not a speed target.
        let start = Instant::now();
        let bounded = classes(&args);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "--max-solve-ms {ms} took {:?}",
            start.elapsed()
        );
        assert_eq!(bounded.len(), unbounded.len());
        for (key, class) in &bounded {
            assert!(
                class == "unknown" || class == &unbounded[key],
                "--max-solve-ms {ms}: {key:?} is {class}, unbounded {}",
                unbounded[key]
            );
        }
    }
}
