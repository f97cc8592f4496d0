//! The language reference is the contract: every example in it compiles,
//! and the classes it states are the ones the checker computes.

use cici::analysis::Class;

use super::common::{check, render, root, with_class};

/// The language reference.
fn reference() -> std::path::PathBuf {
    root().join("docs/language.md")
}

/// The worked examples under the reference's `## Example:` headings.
fn examples() -> Vec<String> {
    let doc = std::fs::read_to_string(reference()).unwrap();
    let at = doc.find("\n## Example: ").unwrap();
    blocks(&doc[at..])
}

/// The examples of the part beyond the core (`## Beyond the core`, up to
/// the worked examples).
fn beyond_the_core() -> Vec<String> {
    let doc = std::fs::read_to_string(reference()).unwrap();
    let (from, to) = (
        doc.find("\n## Beyond the core").unwrap(),
        doc.find("\n## Example: ").unwrap(),
    );
    blocks(&doc[from..to])
}

/// The complete seeds of a part of a language page: its ```-blocks that
/// open with a scenario, except the one that shows the syntax with
/// placeholders.
fn blocks(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = doc;
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
        ["bea_investigation", "refund_tooling"]
    );
    assert_eq!(
        with_class(&run, 0, Class::Trap),
        ["avi_sitting", "lin_preference"]
    );
    assert_eq!(with_class(&run, 0, Class::Irrelevant), ["kai_wedding"]);

    let run = check("severity", &ex[2]);
    assert_eq!(
        with_class(&run, 0, Class::Critical),
        ["kofi_access", "tobias_indicators", "omar_benign"]
    );
    assert_eq!(
        with_class(&run, 0, Class::Trap),
        ["nadia_disclosure", "kofi_sister"]
    );
    assert_eq!(with_class(&run, 0, Class::Irrelevant), ["tobias_burnout"]);
}

/// The examples beyond the core: each checks clean and unique, and every
/// attribute with a fact is needed.
#[test]
fn the_archetype_examples_check_clean_with_every_fact_critical() {
    let mut seen = 0;
    for text in beyond_the_core() {
        let run = check("docs/language.md", &text);
        assert_eq!(run.checked.len(), 1, "{}", render(&run));
        assert_eq!(run.diagnostics.len(), 0, "{}", render(&run));
        let c = &run.checked[0];
        assert!(c.report.unique);
        for (a, f) in c.scenario.attributes.iter().zip(&c.report.attributes) {
            if a.fact_form().1.facts.is_empty() {
                continue;
            }
            assert!(
                matches!(f.class, Class::Critical | Class::Supporting),
                "{}: {:?}",
                a.id,
                f.class
            );
        }
        seen += 1;
    }
    assert_eq!(seen, 3);
}

/// Touching meetings satisfy `before`: the review-week example's oracle
/// has the design review end at 11:00 and the launch review start then.
#[test]
fn before_allows_meetings_that_touch() {
    let text = beyond_the_core()
        .into_iter()
        .find(|t| t.starts_with("scenario review_week"))
        .unwrap();
    let run = check("review_week.cici", &text);
    assert!(run.checked[0].report.unique, "{}", render(&run));
    assert!(
        text.contains("design -> tue 10:00-11:00") && text.contains("launch -> tue 11:00-12:00")
    );
}
