//! The keys of `facts.yaml` come from the predicate table. Every
//! predicate through the phrasing is `tests/it/phrasings.rs`.

use super::*;

#[test]
fn facts_yaml_keys_come_from_the_table() {
    let older = BUILTIN.replace("jira_allocation.unavailable:", "off:");
    assert!(
        FactTexts::from_yaml(&older).is_ok(),
        "the older key `off` is read"
    );
    let typo = BUILTIN.replace("avoid_room:", "avoid_rooms:");
    let err = FactTexts::from_yaml(&typo).unwrap_err();
    assert_eq!(
        err,
        super::FactsError::UnknownKey {
            key: "avoid_rooms".into(),
            nearest: Some("avoid_room")
        }
    );
    assert!(
        err.to_string().contains("did you mean `avoid_room`"),
        "{err}"
    );
}
