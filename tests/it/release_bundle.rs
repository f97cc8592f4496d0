//! A bundle of the PiSAs release itself (`tests/data/pisas/bundles/`,
//! unchanged): it imports without a diagnostic, its oracle and its private
//! constraint are the bundle's, and what cici proves of it agrees with the
//! counts the bundle states.

use cici::model::FactStatus;
use cici::sema::{JiraPredicate, Predicate};
use cici::solver::{count, Count};
use serde_json::Value;

use super::common::data;

const JIRA: &str = "jira_config_cannot_be_sole_owner_s0016_seed52424";

fn import(name: &str) -> (super::common::TempDir, cici::driver::Run) {
    let bundle = data().join("pisas/bundles").join(name);
    let (out, run, told) = super::released::import_dirs("release-data", &[bundle]);
    assert!(
        !told.contains("cici::import::"),
        "the release bundle imports without a diagnostic: {told}"
    );
    assert!(told.contains("imported 1 scenario"), "{told}");
    (out, run)
}

#[test]
fn the_released_jira_bundle_imports_with_its_oracle_and_private_constraint() {
    let (_out, run) = import(JIRA);
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
    let (_out, run) = import(JIRA);
    let utility: Value = serde_json::from_str(
        &std::fs::read_to_string(data().join("pisas/bundles").join(JIRA).join("utility.json"))
            .unwrap(),
    )
    .unwrap();
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
