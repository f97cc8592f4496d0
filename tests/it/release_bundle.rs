//! The two bundles of the PiSAs release itself (`tests/data/pisas/bundles/`,
//! unchanged): each imports without a diagnostic, its oracle, labels and
//! constraints are the bundle's, and what cici proves of it agrees with
//! what the bundle states of itself. The JIRA bundle carries its own rules;
//! the drone flight release takes them from its task-family seed.

use cici::model::FactStatus;
use cici::sema::{JiraPredicate, Predicate};
use cici::solver::{count, Count};
use serde_json::Value;

use super::common::data;

const JIRA: &str = "jira_config_cannot_be_sole_owner_s0016_seed52424";

/// One of a release bundle's JSON files.
fn bundle_json(name: &str, file: &str) -> Value {
    let path = data().join("pisas/bundles").join(name).join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Imports a release bundle with the `extra` arguments; the import must
/// be clean.
fn import(name: &str, extra: &[&str]) -> (super::common::TempDir, cici::driver::Run) {
    let bundle = data().join("pisas/bundles").join(name);
    let (out, run, told) =
        super::released::import_dirs(&format!("release-{name}"), &[bundle], extra);
    assert!(
        !told.contains("cici::import::"),
        "the release bundle imports without a diagnostic: {told}"
    );
    assert!(told.contains("imported 1 scenario"), "{told}");
    (out, run)
}

#[test]
fn the_released_jira_bundle_imports_with_its_oracle_and_private_constraint() {
    let (_out, run) = import(JIRA, &[]);
    let c = &run.checked[0];
    let sc = &c.scenario;
    let rows = cici::printer::decision_rows(sc, &sc.oracle);
    assert_eq!(
        rows.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>(),
        ["emery", "val + parker", "drew"],
        "the oracle is the bundle's `oracle_assignment`"
    );
    let a = &sc.attributes[sc.attribute("a22").unwrap()];
    assert!(!a.raw.appropriate, "a22 is `inappropriate` in the bundle");
    assert_eq!(
        a.raw.facts[0].predicate,
        Predicate::Jira(JiraPredicate::CannotBeSoleOwner {
            person: sc.person("parker").unwrap()
        })
    );
}

/// The bundle says the public constraints allow two assignments and the
/// private one leaves the oracle alone; only `a22`, which the bundle marks
/// inappropriate, states that constraint. cici proves the same and says
/// so: the appropriate information leaves the oracle not unique, and only
/// inappropriate information from `a22` reaches it.
#[test]
fn cici_proves_what_the_released_jira_bundle_states_of_itself() {
    let (_out, run) = import(JIRA, &[]);
    let utility = bundle_json(JIRA, "utility.json");
    assert_eq!(
        utility["public_valid_assignment_count_before_private_constraints"],
        2
    );
    assert_eq!(utility["decision_critical_private_attributes"][0], "a22");
    let found: Vec<(String, String)> = run
        .diagnostics
        .iter()
        .map(|d| (d.diagnostic.code_name(), d.diagnostic.to_string()))
        .collect();
    let has = |code: &str, text: &str| found.iter().any(|(c, t)| c == code && t.contains(text));
    assert!(
        has("cici::check::not_unique", "not the only allowed decision"),
        "{found:#?}"
    );
    assert!(
        has("cici::check::inappropriate_need", "`a22`"),
        "{found:#?}"
    );
    // The skills, the board and the hours people have (the bundle's
    // "public specialty/capacity checks", appropriate facts in cici) allow
    // the bundle's two assignments; with every fact in force, a22's among
    // them, the oracle is the only one (`unique_private_solution`).
    let c = &run.checked[0];
    let facts = c.model.facts.len();
    let appropriate: Vec<bool> = c
        .model
        .facts
        .iter()
        .map(|f| f.status == FactStatus::Appropriate)
        .collect();
    assert_eq!(count(&c.model, &appropriate, 10, None), Count::Exact(2));
    assert_eq!(utility["unique_private_solution"], true);
    assert_eq!(
        count(&c.model, &vec![true; facts], 10, None),
        Count::Exact(1)
    );
}

const UAS: &str = "uas_flight_readiness_scenario_01";

/// Imports a bundle of a task family with the family's seed from the
/// release: the checked run and the import map (`import.json`).
fn import_with_seed(name: &str, family: &str) -> (cici::driver::Run, Value) {
    let seed = data().join("pisas/seeds").join(family).join("seed.json");
    let (out, run) = import(name, &["--seed", seed.to_str().unwrap()]);
    let map = std::fs::read_to_string(out.join("import.json")).unwrap();
    (run, serde_json::from_str(&map).unwrap())
}

/// The bundle attribute behind each form of the imported scenario
/// (`a4`, `a4.sanitized`), from the import map.
fn forms(map: &Value) -> Vec<(String, String)> {
    map["scenarios"][0]["attributes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(form, v)| (form.clone(), v["bundle"].as_str().unwrap().to_string()))
        .collect()
}

/// The released drone flight release bundle, imported with its task-family
/// seed: every bundle attribute lands in exactly one form, with the
/// bundle's label and the bundle's audience, and the oracle and the
/// evidence configuration are the bundle's.
#[test]
fn the_released_uas_bundle_imports_with_its_labels_audiences_and_oracle() {
    let (run, map) = import_with_seed(UAS, "uas_flight_readiness");
    let utility = bundle_json(UAS, "utility.json");
    let labels = bundle_json(UAS, "appropriateness.json");
    let visibility = bundle_json(UAS, "visibility.json");
    let c = &run.checked[0];
    let sc = &c.scenario;
    assert_eq!(
        cici::printer::decision_rows(sc, &sc.oracle)[0].1,
        utility["oracle_answer"].as_str().unwrap()
    );
    assert_eq!(map["scenarios"][0]["configuration"], utility["categories"]);
    let forms = forms(&map);
    let mut landed: Vec<&str> = forms.iter().map(|(_, b)| b.as_str()).collect();
    landed.sort_unstable();
    let mut stated: Vec<&str> = labels["attributes"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    stated.sort_unstable();
    assert_eq!(landed, stated, "each bundle attribute in exactly one form");
    for (form, b) in &forms {
        let (id, sanitized) = match form.split_once('.') {
            Some((id, _)) => (id, true),
            None => (form.as_str(), false),
        };
        let attr = &sc.attributes[sc.attribute(id).unwrap()];
        let f = if sanitized {
            attr.sanitized.as_ref().unwrap()
        } else {
            &attr.raw
        };
        assert_eq!(
            f.appropriate,
            labels["attributes"][b] == "appropriate",
            "{form} carries the label of {b}"
        );
        let mut seen: Vec<&str> = f
            .visible
            .iter()
            .map(|&p| sc.people[p].name.as_str())
            .collect();
        seen.sort_unstable();
        let mut stated: Vec<&str> = visibility["attributes"][b]["visible_to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        stated.sort_unstable();
        assert_eq!(seen, stated, "{form} reaches the audience of {b}");
    }
    // The required evidence is the clean form of a trap sentence
    // (`paired_source`): one attribute, raw inappropriate, sanitized
    // appropriate.
    let paired = utility["attribute_values"]["a4"]["paired_source"].as_str();
    assert_eq!(paired, Some("a5"));
    assert!(forms.contains(&("a4.sanitized".into(), "a5".into())));
}

/// What cici proves of the released drone flight release agrees with what
/// the bundle states of itself: the oracle is the only decision the
/// appropriate information allows, the required evidence is critical, a
/// decoy is a trap exactly when it pushes another outcome than the
/// oracle's, and the personal context and the embedded details carry no
/// fact.
#[test]
fn cici_proves_what_the_released_uas_bundle_states_of_itself() {
    let (run, map) = import_with_seed(UAS, "uas_flight_readiness");
    assert_eq!(run.errors(), 0);
    let utility = bundle_json(UAS, "utility.json");
    let c = &run.checked[0];
    assert!(c.report.unique);
    let forms = forms(&map);
    let class_of = |bundle_id: &str| -> String {
        let (form, _) = forms.iter().find(|(_, b)| b == bundle_id).unwrap();
        let id = form.split('.').next().unwrap();
        let a = c.scenario.attribute(id).unwrap();
        c.report.attributes[a].class.name().to_string()
    };
    let ids = |key: &str| -> Vec<String> {
        utility[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    for a in ids("required_evidence_attributes") {
        assert_eq!(class_of(&a), "critical", "{a}");
    }
    let oracle = utility["oracle_answer"].as_str().unwrap();
    for a in ids("trap_decoy_attributes") {
        let pushes = utility["attribute_values"][&a]["pushes"].as_str().unwrap();
        let expected = if pushes == oracle { "benign" } else { "trap" };
        assert_eq!(class_of(&a), expected, "{a} pushes {pushes}");
    }
    for a in ids("personal_attributes") {
        assert_eq!(class_of(&a), "irrelevant", "{a}");
    }
    // The embedded details hold no evidence of their own; a4's sentence is
    // the raw form of the required evidence, so it shares its class.
    for a in ["a1", "a2", "a3"] {
        assert_eq!(class_of(a), "irrelevant", "{a}");
    }
    assert_eq!(class_of("a4"), "critical");
}
