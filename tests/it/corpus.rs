//! Agreement with the reference corpus: for every planted-oracle seed, an
//! independent CP-SAT implementation computed `unique`, `critical` and
//! `traps`; the checker must say the same.

use std::collections::BTreeSet;

use cici::analysis::Class;

use super::common::{check, data, with_class};

#[test]
fn checker_agrees_with_the_reference_on_every_corpus_scenario() {
    let compared = agree_with(&data().join("corpus"));
    assert!(compared >= 32, "compared only {compared} scenarios");
}

/// The `policy_decision` corpus: computed by plain enumeration of the
/// configurations, with and without exclusions, 6 and 12 checks.
#[test]
fn checker_agrees_with_the_reference_on_every_policy_scenario() {
    let compared = agree_with(&data().join("corpus-policy"));
    assert!(compared >= 12, "compared only {compared} scenarios");
}

/// Checks every seed of every folder under `corpus` against the folder's
/// `expected.json`; how many scenarios were compared.
fn agree_with(corpus: &std::path::Path) -> usize {
    let mut compared = 0;
    let mut folders: Vec<_> = std::fs::read_dir(corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    assert!(
        !folders.is_empty(),
        "no corpus folders under {}",
        corpus.display()
    );
    for folder in folders {
        let expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("expected.json")).unwrap())
                .unwrap();
        let mut seeds: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "cici"))
            .collect();
        seeds.sort();
        for seed in seeds {
            let run = check(
                &seed.display().to_string(),
                &std::fs::read_to_string(&seed).unwrap(),
            );
            assert_eq!(run.errors(), 0, "{} has errors", seed.display());
            for (i, c) in run.checked.iter().enumerate() {
                let want = &expected[&c.scenario.id];
                assert!(want.is_object(), "no expectation for {}", c.scenario.id);
                let set = |v: &serde_json::Value| -> BTreeSet<String> {
                    v.as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().to_string())
                        .collect()
                };
                assert_eq!(
                    c.report.unique,
                    want["unique"].as_bool().unwrap(),
                    "{}: unique",
                    c.scenario.id
                );
                let critical: BTreeSet<String> =
                    with_class(&run, i, Class::Critical).into_iter().collect();
                assert_eq!(
                    critical,
                    set(&want["critical"]),
                    "{}: critical",
                    c.scenario.id
                );
                let traps: BTreeSet<String> =
                    with_class(&run, i, Class::Trap).into_iter().collect();
                assert_eq!(traps, set(&want["traps"]), "{}: traps", c.scenario.id);
                compared += 1;
            }
        }
    }
    compared
}
