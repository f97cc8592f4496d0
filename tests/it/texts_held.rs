//! The texts held to their facts (`text_opposes_fact`,
//! `text_states_other_fact`, `text_names_unknown_person`) find nothing in
//! the project's seeds nor in planted seeds of every family, from a range
//! of random seeds not used while writing the checks.

use cici::driver::DiagnosticRecord;
use cici::planted::{generate, Config};
use cici::sema::Family;

use super::common::{check, root};

const HELD: [&str; 3] = [
    "cici::check::text_opposes_fact",
    "cici::check::text_states_other_fact",
    "cici::check::text_names_unknown_person",
];

/// The diagnostics of these checks in a seed's text, as `code: message`.
fn found(name: &str, text: &str) -> Vec<String> {
    let run = check(name, text);
    run.diagnostics
        .iter()
        .map(|d| DiagnosticRecord::new(d, &run.sources))
        .filter(|r| HELD.contains(&r.code.as_str()))
        .map(|r| format!("{}: {}", r.code, r.message))
        .collect()
}

#[test]
fn the_project_seeds_stay_clean() {
    let mut seen = 0;
    for entry in std::fs::read_dir(root().join("seeds")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        assert_eq!(found(&name, &text), Vec::<String>::new(), "{name}");
        seen += 1;
    }
    assert!(seen >= 10, "{seen} seeds");
}

#[test]
fn planted_seeds_of_every_family_stay_clean() {
    for family in [
        Family::MeetingAllocation,
        Family::JiraAllocation,
        Family::SeverityClassification,
        Family::PolicyDecision,
    ] {
        for seed in 43_000..43_050 {
            let sc = generate(&Config {
                norms: true,
                ..Config::pisas(family, seed)
            });
            let text = cici::printer::print(&sc);
            let got = found("planted", &text);
            assert!(got.is_empty(), "{family:?} seed {seed}: {got:?}\n{text}");
        }
    }
}
