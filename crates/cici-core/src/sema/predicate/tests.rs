//! The table agrees with itself and with [`Predicate`].

use super::*;
use crate::sema::scenario::{Predicate, Slot};

#[test]
fn the_table_is_in_kind_order_and_names_are_unique_per_family() {
    // Row i is the predicate whose discriminant is i: `spec()` indexes by it.
    for (i, s) in PREDICATES.iter().enumerate() {
        assert_eq!(s.kind as usize, i, "row {i} is {}", s.name);
        assert_eq!(s.kind.spec().kind, s.kind);
    }
    for f in Family::ALL {
        let names: Vec<&str> = f.predicates().map(|s| s.name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(names.len(), unique.len(), "{}", f.name());
    }
    let mut keys: Vec<&str> = PREDICATES.iter().map(|s| s.phrasing).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), PREDICATES.len(), "phrasing keys are unique");
}

fn sample(kind: ArgKind) -> ArgValue {
    match kind {
        ArgKind::Person => ArgValue::Person(1),
        ArgKind::Room => ArgValue::Room(2),
        ArgKind::Meeting => ArgValue::Meeting(3),
        ArgKind::Feature => ArgValue::Feature("projector".into()),
        ArgKind::Slot => ArgValue::Slot(Slot {
            day: crate::syntax::Day::Tue,
            start: 600,
            end: 660,
        }),
        ArgKind::Ticket => ArgValue::Ticket(4),
        ArgKind::Integer => ArgValue::Integer(5),
        ArgKind::Variable => ArgValue::Variable(6),
        ArgKind::Value => ArgValue::Value(7),
        ArgKind::Level => ArgValue::Level(8),
    }
}

#[test]
fn every_predicate_round_trips_through_its_arguments() {
    for s in &PREDICATES {
        let args: Vec<ArgValue> = s.params.iter().map(|p| sample(p.kind)).collect();
        let p = Predicate::from_args(s.kind, &args)
            .unwrap_or_else(|| panic!("{} takes its table parameters", s.name));
        assert_eq!(p.kind(), s.kind);
        assert_eq!(p.args(), args, "{}", s.name);
        assert_eq!(p.subject().is_some(), s.subject.is_some(), "{}", s.name);
        assert!(Predicate::from_args(s.kind, &args[1..]).is_none());
    }
}

#[test]
fn the_subject_parameter_is_a_person() {
    for s in &PREDICATES {
        if let Some(i) = s.subject {
            assert_eq!(s.params[i].kind, ArgKind::Person, "{}", s.name);
        }
        for (i, p) in s.params.iter().enumerate() {
            if let Bound::Hour { after: Some(j) } = p.bound {
                assert!(j < i && s.params[j].kind == ArgKind::Integer, "{}", s.name);
            }
        }
    }
}
