//! Every predicate of the table through the phrasing: a personal fact gets
//! a reason in its raw form and a sanitized form without it, and the
//! paraphrases and fix-it texts that build on them.

use super::*;
use crate::planted::{generate, Config};
use crate::sema::{ArgKind, Family, PredicateSpec};
use rand::SeedableRng;

/// A predicate of `spec` whose arguments exist in `sc`.
pub(super) fn sample(sc: &Scenario, spec: &PredicateSpec) -> Predicate {
    let ms = sc.meeting_setting();
    let args: Vec<ArgValue> = spec
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.kind {
            ArgKind::Person => ArgValue::Person(1 + i),
            ArgKind::Room => ArgValue::Room(0),
            ArgKind::Meeting => ArgValue::Meeting(i),
            ArgKind::Feature => ArgValue::Feature(
                ms.and_then(|m| m.rooms.iter().flat_map(|r| r.features.first()).next())
                    .cloned()
                    .unwrap_or_else(|| "projector".into()),
            ),
            ArgKind::Slot => ArgValue::Slot(ms.expect("meeting setting").meetings[0].slots[0]),
            ArgKind::Ticket => ArgValue::Ticket(0),
            ArgKind::Integer => ArgValue::Integer(8 + 4 * i as u32),
            ArgKind::Variable => ArgValue::Variable(0),
            ArgKind::Value => ArgValue::Value(0),
            ArgKind::Level => ArgValue::Level(0),
        })
        .collect();
    Predicate::from_args(spec.kind, &args).expect("arguments of the table's kinds")
}

#[test]
fn every_predicate_is_phrased_and_every_personal_one_sanitized() {
    let texts = FactTexts::builtin();
    for family in Family::ALL {
        let sc = generate(&Config::pisas(family, 3));
        for spec in family.predicates().filter(|s| !s.soft_only) {
            let p = sample(&sc, spec);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let t = hard(texts, &sc, &p, &mut rng);
            let what = format!("{} in {}", spec.name, family.name());
            assert!(
                !t.raw.is_empty() && !t.raw.contains("{{"),
                "{what}: {:?}",
                t.raw
            );
            let Some(subject) = p.subject() else {
                assert_eq!(t.category, Category::Operational, "{what}");
                assert!(!paraphrases(texts, &sc, &p, crate::sema::FormKind::Raw).is_empty());
                continue;
            };
            let first =
                crate::counterfactual::wording::subject_name(&sc, &p).expect("a subject name");
            assert!(sc.people[subject].name.starts_with(&first), "{what}");
            assert!(t.raw.contains(&first), "{what}: {:?} names {first}", t.raw);
            if spec.kind == crate::sema::PredicateKind::Attends {
                // Attending is said as it is: there is no reason to hide.
                continue;
            }
            assert_ne!(t.category, Category::Operational, "{what}");
            let sanitized = t
                .sanitized
                .unwrap_or_else(|| panic!("{what}: no sanitized form"));
            assert!(sanitized.contains(&first), "{what}: {sanitized:?}");
            let held = paraphrases(texts, &sc, &p, crate::sema::FormKind::Sanitized);
            assert!(held.len() >= 2, "{what}: paraphrases {held:?}");
            assert!(canonical_sanitized(texts, &sc, &p).is_some(), "{what}");
        }
    }
}

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
