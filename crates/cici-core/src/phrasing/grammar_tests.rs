//! The written names of evidence variables and states, and the phrases
//! of a condition. The grammar check of every phrasing of `facts.yaml`
//! with every reason is `tests/it/grammar.rs`.

use super::*;

#[test]
fn variables_and_states_are_written_names() {
    let texts = FactTexts::builtin();
    let names = &texts.file.evidence;
    assert_eq!(words::variable_name(names, "soc2"), "the SOC 2 report");
    assert_eq!(words::variable_name(names, "new_check"), "the new check");
    assert_eq!(words::split_id("iso27001_audit"), "iso 27001 audit");
    let states = &texts.file.states;
    assert_eq!(
        words::state_phrases(states, "pen_test", "findings_open")[0],
        "has findings open"
    );
    assert_eq!(
        words::state_phrases(states, "x", "not_signed"),
        ["is not signed"]
    );
    assert_eq!(words::hours("1"), "1 hour");
    assert_eq!(words::hours("3"), "3 hours");
    let condition = ReasonEntry::Full {
        noun: "a plan".into(),
        kind: ReasonKind::Condition,
        vp: None,
        at: None,
    };
    assert!(
        condition.reason().is_none(),
        "a condition needs its phrases"
    );
}
