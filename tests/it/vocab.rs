//! The counterfactual vocabulary: reasons and checks are typed, and their
//! spelling in records is stable and reads back to the same value.

use cici::counterfactual::vocab::{Check, Edit, EditError, PublicField, Reason};
use cici::sema::FormKind;
use proptest::prelude::*;

fn every_kind_of_reason() -> Vec<Reason> {
    vec![
        Reason::NoDecision,
        Reason::SeveralDecisions,
        Reason::WrongLabel,
        Reason::DoesNotCheck(vec!["oracle_not_unique".into(), "no_oracle".into()]),
        Reason::NoFlow,
        Reason::UnstatedException,
        Reason::ItemDoesNotRender("template `x` not found".into()),
        Reason::Critic(vec![
            (Check::Minimal, "5 edits, at most 4".into()),
            (Check::NoLeak, "the sanitized text names `oncology`".into()),
        ]),
        Reason::Model("HTTP 500".into()),
    ]
}

#[test]
fn each_reason_reads_back_as_the_same_variant() {
    for r in every_kind_of_reason() {
        let text = r.to_string();
        assert_eq!(Reason::parse(&text), r, "{text}");
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, serde_json::to_string(&text).unwrap());
        let back: Reason = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }
}

#[test]
fn records_keep_the_spelling_they_always_had() {
    let spelled = [
        (Reason::NoDecision, "the edited facts allow no decision"),
        (
            Reason::SeveralDecisions,
            "the edited facts allow more than one decision",
        ),
        (Reason::WrongLabel, "the label is not the one wanted"),
        (
            Reason::DoesNotCheck(vec!["a".into(), "b".into()]),
            "the variant does not check: a, b",
        ),
        (
            Reason::Critic(vec![
                (Check::StatesFact, "x".into()),
                (Check::ShowsTraps, "y".into()),
            ]),
            "critic: states_fact: x; shows_traps: y",
        ),
    ];
    for (r, text) in spelled {
        assert_eq!(r.to_string(), text);
    }
}

#[test]
fn counts_group_reasons_by_kind_not_by_detail() {
    let a = Reason::Critic(vec![(Check::NoLeak, "one".into())]);
    let b = Reason::Critic(vec![
        (Check::NoLeak, "two".into()),
        (Check::Minimal, "three".into()),
    ]);
    assert_eq!(a.kind(), "critic: no_leak");
    assert_eq!(a.kind(), b.kind());
    assert_eq!(
        Reason::DoesNotCheck(vec!["x".into()]).kind(),
        Reason::DoesNotCheck(vec!["y".into(), "z".into()]).kind()
    );
    let edits = |index| {
        Reason::Edits(EditError::At {
            index,
            error: Box::new(EditError::NoPerson("zed".into())),
        })
    };
    assert_eq!(edits(1).kind(), edits(3).kind());
    assert!(Reason::WrongLabel.about_decision());
    assert!(!a.about_decision());
}

#[test]
fn edit_errors_say_what_is_wrong_where() {
    let e = EditError::At {
        index: 2,
        error: Box::new(EditError::StaleText {
            attribute: "eli_infusion".into(),
            form: FormKind::Sanitized,
            from: "Eli is out.".into(),
        }),
    };
    assert_eq!(
        e.to_string(),
        "edit 2: the sanitized text of `eli_infusion` is not `Eli is out.`"
    );
    assert_eq!(
        EditError::ControlCharacter('\u{7}').to_string(),
        "the text holds the control character U+0007"
    );
    assert_eq!(
        EditError::NotInSetting(PublicField::Hours).to_string(),
        "`hours` is not a number of the public setting (a ticket's `hours`, a room's `capacity`)"
    );
}

#[test]
fn a_public_field_outside_the_vocabulary_is_refused_as_data() {
    let ok: Edit = serde_json::from_str(
        r#"{"op": "set_public", "target": "t1", "field": "hours", "from": 3, "to": 4}"#,
    )
    .unwrap();
    assert!(matches!(
        ok,
        Edit::SetPublic {
            field: PublicField::Hours,
            ..
        }
    ));
    let bad = serde_json::from_str::<Edit>(
        r#"{"op": "set_public", "target": "t1", "field": "budget", "from": 3, "to": 4}"#,
    );
    assert!(bad
        .unwrap_err()
        .to_string()
        .contains("unknown variant `budget`"));
}

#[test]
fn check_names_are_their_serde_names() {
    for c in Check::ALL {
        assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{c}\""));
    }
}

proptest! {
    /// Any text, written by this version or not, reads back and writes
    /// again to the same text.
    #[test]
    fn any_recorded_reason_round_trips(text in "(critic: |the model: |the variant does not check: )?[a-z_:;, `]{0,40}") {
        prop_assert_eq!(Reason::parse(&text).to_string(), text);
    }
}

/// A fact replaced with its texts is one change, also when the attribute
/// moves and its texts are written under the id it has after the move;
/// any other edit is a change of its own.
#[test]
fn a_fact_told_again_in_its_texts_is_one_change() {
    let text =
        std::fs::read_to_string(crate::it::common::root().join("seeds/payments_sprint.cici"))
            .unwrap();
    let run = crate::it::common::check("payments_sprint.cici", &text);
    let anchor = &run.checked[0].scenario;
    let a = anchor
        .attributes
        .iter()
        .find(|a| a.sanitized.is_some())
        .unwrap();
    let text_of = |id: &str, form| Edit::ReplaceText {
        attribute: id.into(),
        form,
        from: "before".into(),
        to: "after".into(),
    };
    let fact = Edit::ReplaceFact {
        attribute: a.id.clone(),
        from: "x".into(),
        to: "y".into(),
    };
    let told = vec![
        fact.clone(),
        text_of(&a.id, FormKind::Raw),
        text_of(&a.id, FormKind::Sanitized),
    ];
    let changes = cici::counterfactual::vocab::changes;
    assert_eq!(changes(&told, anchor, anchor), 1);
    // The same attribute under a new id in the variant, after a move.
    let mut variant = anchor.clone();
    let at = anchor.attributes.iter().position(|x| x.id == a.id).unwrap();
    variant.attributes[at].id = format!("{}_moved", a.id);
    let moved_id = variant.attributes[at].id.clone();
    let moved = vec![
        fact.clone(),
        Edit::SetHolder {
            attribute: a.id.clone(),
            from: "p".into(),
            to: "q".into(),
        },
        text_of(&moved_id, FormKind::Raw),
        text_of(&moved_id, FormKind::Sanitized),
    ];
    assert_eq!(changes(&moved, anchor, &variant), 2);
    // A text of another attribute is a change of its own.
    let other = anchor.attributes.iter().find(|x| x.id != a.id).unwrap();
    let two = vec![fact, text_of(&other.id, FormKind::Raw)];
    assert_eq!(changes(&two, anchor, anchor), 2);
    assert_eq!(changes(&[], anchor, anchor), 0);
}
