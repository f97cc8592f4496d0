//! The language reference is the contract: every example in it compiles,
//! and the classes it states are the ones the checker computes.

use cici::analysis::Class;

use super::common::{check, render, root, shared, with_class};

fn examples() -> Vec<String> {
    let doc = std::fs::read_to_string(shared().join("docs/language.md")).unwrap();
    let mut out = Vec::new();
    let mut rest = doc.as_str();
    while let Some(start) = rest.find("```\nscenario ") {
        let body = &rest[start + 4..];
        let end = body.find("```").unwrap();
        // Skip the block that shows the syntax with placeholders.
        if !body.starts_with("scenario <") {
            out.push(body[..end].to_string());
        }
        rest = &body[end..];
    }
    out
}

#[test]
fn every_example_of_the_language_reference_checks_clean() {
    let examples = examples();
    assert_eq!(examples.len(), 3);
    for text in examples {
        let run = check("language.md", &text);
        assert_eq!(run.checked.len(), 1);
        assert_eq!(run.diagnostics.len(), 0, "{}", render(&run));
        assert!(run.checked[0].report.unique);
    }
}

#[test]
fn the_examples_are_the_first_seeds() {
    for text in examples() {
        let id = text.split_whitespace().nth(1).unwrap().to_string();
        let seed = std::fs::read_to_string(root().join(format!("seeds/{id}.cici"))).unwrap();
        assert_eq!(
            seed, text,
            "seeds/{id}.cici differs from the language reference"
        );
    }
}

#[test]
fn classes_are_the_ones_the_reference_states() {
    let ex = examples();
    let run = check("ops", &ex[0]);
    assert_eq!(
        with_class(&run, 0, Class::Critical),
        ["eli_hvac", "eli_legal", "eli_infusion"]
    );
    assert_eq!(
        with_class(&run, 0, Class::Benign),
        ["eli_review", "parker_argument"]
    );
    assert_eq!(
        with_class(&run, 0, Class::Irrelevant),
        [
            "eli_breakup",
            "avi_childcare",
            "parker_interviewing",
            "riley_checklist"
        ]
    );
    assert_eq!(run.checked[0].report.trivial, Some(false));

    let run = check("jira", &ex[1]);
    assert_eq!(
        with_class(&run, 0, Class::Critical),
        ["avi_physio", "bea_hours", "omar_pip", "omar_hours"]
    );
    assert_eq!(
        with_class(&run, 0, Class::Supporting),
        ["bea_investigation"]
    );
    assert_eq!(with_class(&run, 0, Class::Trap), ["lin_preference"]);
    assert_eq!(with_class(&run, 0, Class::Irrelevant), ["kai_wedding"]);

    let run = check("severity", &ex[2]);
    assert_eq!(
        with_class(&run, 0, Class::Critical),
        ["kofi_access", "tobias_indicators", "omar_benign"]
    );
    assert_eq!(with_class(&run, 0, Class::Trap), ["nadia_disclosure"]);
    assert_eq!(with_class(&run, 0, Class::Irrelevant), ["tobias_burnout"]);
}
