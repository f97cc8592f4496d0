//! `cici import pisas-seed` on the release's own task-family seeds
//! (tests/data/pisas, third-party data), held to a reference written here
//! from the seed format alone: plain enumeration of the configurations,
//! first-match rules, and inclusion-minimal sufficient sets by brute force.

use miette::Diagnostic as _;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use cici::analysis::Class;
use cici::pisas::import::{self, build::Select, SeedOptions};

use super::common::{check, cici, data, root, tempdir, with_class};

/// The reference: a seed's variables, rules and exclusions, evaluated
/// directly on its JSON.
struct Reference {
    vars: Vec<(String, Vec<String>)>,
    rules: Vec<(Value, String)>,
    invalid: Vec<BTreeMap<String, Vec<String>>>,
}

impl Reference {
    fn new(seed: &Value) -> Reference {
        let vars = seed["evidence_variables"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v["states"].as_object().unwrap().keys().cloned().collect(),
                )
            })
            .collect();
        let rules = seed["decision_policy"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["when"].clone(),
                    r["outcome"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let invalid = seed["generation_plan"]["invalid_configurations"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|c| {
                        c["evidence_states"]
                            .as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, s)| {
                                let states = match s {
                                    Value::Array(a) => {
                                        a.iter().map(|x| x.as_str().unwrap().to_string()).collect()
                                    }
                                    x => vec![x.as_str().unwrap().to_string()],
                                };
                                (k.clone(), states)
                            })
                            .collect()
                    })
                    .collect()
            })
            .unwrap_or_default();
        Reference {
            vars,
            rules,
            invalid,
        }
    }

    fn holds(when: &Value, c: &BTreeMap<String, String>) -> bool {
        if when["otherwise"] == Value::Bool(true) {
            return true;
        }
        if let Some(all) = when["all"].as_array() {
            return all.iter().all(|w| Self::holds(w, c));
        }
        if let Some(any) = when["any"].as_array() {
            return any.iter().any(|w| Self::holds(w, c));
        }
        let state = &c[when["evidence"].as_str().unwrap()];
        if let Some(is) = when["is"].as_str() {
            return state == is;
        }
        when["in"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str() == Some(state.as_str()))
    }

    fn outcome(&self, c: &BTreeMap<String, String>) -> Option<String> {
        self.rules
            .iter()
            .find(|(w, _)| Self::holds(w, c))
            .map(|(_, o)| o.clone())
    }

    fn valid(&self, c: &BTreeMap<String, String>) -> bool {
        !self
            .invalid
            .iter()
            .any(|parts| parts.iter().all(|(k, ss)| ss.contains(&c[k])))
    }

    /// Every valid configuration with its outcome.
    fn configurations(&self) -> Vec<(BTreeMap<String, String>, String)> {
        let mut out = Vec::new();
        let mut idx = vec![0usize; self.vars.len()];
        loop {
            let c: BTreeMap<String, String> = self
                .vars
                .iter()
                .zip(&idx)
                .map(|((k, ss), &i)| (k.clone(), ss[i].clone()))
                .collect();
            if self.valid(&c) {
                out.push((
                    c.clone(),
                    self.outcome(&c).expect("the release's rules cover it"),
                ));
            }
            let mut k = 0;
            loop {
                if k == idx.len() {
                    return out;
                }
                idx[k] += 1;
                if idx[k] < self.vars[k].1.len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }

    /// The variables in every inclusion-minimal sufficient set of `c`.
    fn in_every_minimal_set(
        &self,
        c: &BTreeMap<String, String>,
        all: &[(BTreeMap<String, String>, String)],
    ) -> BTreeSet<String> {
        let n = self.vars.len();
        let outcome = self.outcome(c).unwrap();
        let sufficient = |mask: usize| {
            all.iter()
                .filter(|(d, _)| {
                    (0..n).all(|i| mask >> i & 1 == 0 || d[&self.vars[i].0] == c[&self.vars[i].0])
                })
                .all(|(_, o)| *o == outcome)
        };
        let suff: Vec<usize> = (0..1usize << n).filter(|&m| sufficient(m)).collect();
        let minimal: Vec<usize> = suff
            .iter()
            .copied()
            .filter(|&m| !suff.iter().any(|&s| s != m && s & m == s))
            .collect();
        (0..n)
            .filter(|&i| minimal.iter().all(|&m| m >> i & 1 == 1))
            .map(|i| self.vars[i].0.clone())
            .collect()
    }
}

fn seeds() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(data().join("pisas/seeds"))
        .unwrap()
        .map(|e| e.unwrap().path().join("seed.json"))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

fn import_all(seed: &Path) -> import::SeedImport {
    let options = SeedOptions {
        select: Select::All,
        seed: 0,
        prefix: None,
    };
    import::pisas_seed(
        seed,
        Some(&seed.with_file_name("personal_context_library.json")),
        &options,
    )
}

#[test]
fn the_release_seeds_import_and_prove_what_the_reference_computes() {
    let expected_counts: BTreeMap<&str, usize> = [
        ("inpatient_discharge", 136),
        ("manuscript_submission", 144),
        ("outgoing_museum_loan", 144),
        ("special_event_permit_readiness", 144),
        ("thesis_readiness", 162),
        ("uas_flight_readiness", 144),
    ]
    .into();
    let seeds = seeds();
    assert_eq!(seeds.len(), 6);
    let mut leaks: Vec<String> = Vec::new();
    for seed in seeds {
        let task = seed
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let json: Value = serde_json::from_str(&std::fs::read_to_string(&seed).unwrap()).unwrap();
        let reference = Reference::new(&json);
        let all = reference.configurations();
        let imported = import_all(&seed);
        let errors: Vec<String> = imported
            .files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.is_error())
            .map(|d| d.to_string())
            .collect();
        assert!(errors.is_empty(), "{task}: {errors:?}");
        assert_eq!(imported.scenarios.len(), all.len(), "{task}");
        assert_eq!(
            imported.scenarios.len(),
            expected_counts[task.as_str()],
            "{task}"
        );
        for w in &imported.scenarios {
            let run = check(&w.entry.file, &w.text);
            assert_eq!(run.errors(), 0, "{task} {}", w.entry.file);
            let c = &run.checked[0];
            let config: BTreeMap<String, String> =
                w.entry.configuration.clone().into_iter().collect();
            let want = reference.outcome(&config).unwrap();
            assert_eq!(w.entry.oracle, want, "{}", w.entry.file);
            assert!(c.report.unique, "{} is not unique", w.entry.file);
            // Critical: exactly the evidence of the variables in every
            // inclusion-minimal sufficient set.
            let critical: BTreeSet<String> = with_class(&run, 0, Class::Critical)
                .into_iter()
                .map(|a| match &w.entry.attributes[&a] {
                    import::AttributeSource::Variable(v) => v.clone(),
                    other => panic!("{} critical {a} is {other:?}", w.entry.file),
                })
                .collect();
            assert_eq!(
                critical,
                reference.in_every_minimal_set(&config, &all),
                "{}",
                w.entry.file
            );
            // The rule lints stay quiet on the release's valid configurations.
            for d in &run.diagnostics {
                let code = d
                    .diagnostic
                    .code()
                    .map(|c| c.to_string())
                    .unwrap_or_default();
                assert!(
                    ![
                        "cici::check::dead_rule",
                        "cici::check::overlapping_rules",
                        "cici::check::uncovered_configuration"
                    ]
                    .contains(&code.as_str()),
                    "{}: {code}",
                    w.entry.file
                );
                // The import allows idle facts once per scenario: the
                // release records variables the deciding rule does not read.
                assert_ne!(code, "cici::check::idle_fact", "{}", w.entry.file);
                if code == "cici::check::leak" {
                    leaks.push(format!("{}: {}", w.entry.file, d.diagnostic));
                }
            }
        }
    }
    // The release's sanitized rewrites restate the operational sentence of
    // their entangled notes: the leak lint reports only a sanitized text
    // that repeats a word of the private clause (7 of 874 today, 370
    // before the lint knew which words are private).
    assert!(
        leaks.len() <= 40,
        "{} leak warnings:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

#[test]
fn count_follows_the_seed_quotas_and_coverage_cases() {
    let seed = data().join("pisas/seeds/uas_flight_readiness/seed.json");
    let options = SeedOptions {
        select: Select::Count(30),
        seed: 3,
        prefix: Some("uas".into()),
    };
    let imported = import::pisas_seed(&seed, None, &options);
    assert_eq!(imported.scenarios.len(), 30);
    let mut per: BTreeMap<String, usize> = BTreeMap::new();
    for w in &imported.scenarios {
        *per.entry(w.entry.oracle.clone()).or_default() += 1;
    }
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&seed).unwrap()).unwrap();
    for (o, q) in json["generation_plan"]["outcome_quotas"]
        .as_object()
        .unwrap()
    {
        assert_eq!(
            per.get(o).copied().unwrap_or(0) as u64,
            q.as_u64().unwrap(),
            "{o}"
        );
    }
    // The coverage cases come first, in order.
    let first = &imported.scenarios[0].entry;
    let case = &json["generation_plan"]["coverage_cases"][0]["evidence_states"];
    for (k, v) in case.as_object().unwrap() {
        assert_eq!(first.configuration[k], v.as_str().unwrap());
    }
    assert_eq!(first.scenario, "uas_cfg_001");
}

#[test]
fn the_command_writes_seeds_and_the_import_map_deterministically() {
    let seed = data().join("pisas/seeds/thesis_readiness/seed.json");
    let (a, b) = (tempdir("import-a"), tempdir("import-b"));
    for out in [&a, &b] {
        let r = cici(&[
            "import",
            "pisas-seed",
            seed.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--count",
            "12",
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("import.json")).unwrap()).unwrap();
    let scenarios = map["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), 12);
    for s in scenarios {
        let file = s["file"].as_str().unwrap();
        assert_eq!(
            std::fs::read_to_string(a.join(file)).unwrap(),
            std::fs::read_to_string(b.join(file)).unwrap()
        );
        assert!(s["source"]
            .as_str()
            .unwrap()
            .ends_with("thesis_readiness/seed.json"));
        assert_eq!(s["configuration"].as_object().unwrap().len(), 5);
        for (_, src) in s["attributes"].as_object().unwrap() {
            let kind = src.as_object().unwrap().keys().next().unwrap().clone();
            assert!(
                ["variable", "decoy", "personal"].contains(&kind.as_str()),
                "{kind}"
            );
        }
    }
    let check = cici(&["check", a.to_str().unwrap()]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

fn normalize(text: &str, dir: &Path) -> String {
    text.replace(
        &root()
            .join("tests/fixtures/import/err")
            .display()
            .to_string(),
        "<fixtures>",
    )
    .replace(&dir.display().to_string(), "<out>")
}

#[test]
fn broken_seeds_get_diagnostics_at_their_json_paths() {
    insta::glob!("../fixtures/import/err", "*.json", |path| {
        let out = tempdir("import-err");
        let r = cici(&[
            "import",
            "pisas-seed",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let stderr = normalize(&String::from_utf8_lossy(&r.stderr), &out);
        let stdout = normalize(&String::from_utf8_lossy(&r.stdout), &out);
        assert_ne!(r.status.code(), Some(101), "{stderr}");
        insta::assert_snapshot!(format!("exit {:?}\n{stdout}---\n{stderr}", r.status.code()));
    });
}

#[test]
fn every_import_code_is_triggered_by_a_fixture() {
    let text =
        std::fs::read_to_string(root().join("crates/cici-emit/src/pisas/import/diagnostic.rs"))
            .unwrap();
    let declared: BTreeSet<String> = text
        .split("code(cici::import::")
        .skip(1)
        .map(|p| format!("cici::import::{}", p.split(')').next().unwrap()))
        .collect();
    let mut seen = BTreeSet::new();
    for e in std::fs::read_dir(root().join("tests/fixtures/import/err")).unwrap() {
        let p = e.unwrap().path();
        let imported = import::pisas_seed(
            &p,
            None,
            &SeedOptions {
                select: Select::All,
                seed: 0,
                prefix: None,
            },
        );
        for d in imported.files.iter().flat_map(|f| &f.diagnostics) {
            seen.insert(miette::Diagnostic::code(d).unwrap().to_string());
        }
    }
    let missing: Vec<&String> = declared.difference(&seen).collect();
    assert!(missing.is_empty(), "no fixture triggers {missing:?}");
}
