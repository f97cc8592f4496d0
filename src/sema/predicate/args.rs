//! A predicate's arguments as a list in table order, and back: the one
//! exhaustive match that ties each [`Predicate`] variant to its row.

use super::{PredicateKind, PredicateSpec};
use crate::sema::scenario::{
    LevelId, MeetingId, PersonId, Predicate, RoomId, Slot, TicketId, VariableId,
};

/// A fact argument, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    Person(PersonId),
    Room(RoomId),
    Meeting(MeetingId),
    Feature(String),
    Slot(Slot),
    Ticket(TicketId),
    Integer(u32),
    Variable(VariableId),
    /// A value of the variable given before it.
    Value(usize),
    Level(LevelId),
}

impl ArgValue {
    /// The evidence variable among a predicate's arguments: the one a
    /// [`ArgValue::Value`] is a state of.
    pub fn variable_in(args: &[ArgValue]) -> Option<VariableId> {
        args.iter().find_map(|a| match a {
            ArgValue::Variable(v) => Some(*v),
            _ => None,
        })
    }
}

impl Predicate {
    /// Which predicate this is.
    pub fn kind(&self) -> PredicateKind {
        use PredicateKind as K;
        match self {
            Predicate::Unavailable { .. } => K::Unavailable,
            Predicate::AvoidRoom { .. } => K::AvoidRoom,
            Predicate::NeedsFeature { .. } => K::NeedsFeature,
            Predicate::Attends { .. } => K::Attends,
            Predicate::NotBefore { .. } => K::NotBefore,
            Predicate::NotAfter { .. } => K::NotAfter,
            Predicate::RequiresFeature { .. } => K::RequiresFeature,
            Predicate::WithinHours { .. } => K::WithinHours,
            Predicate::Before { .. } => K::Before,
            Predicate::Capacity { .. } => K::Capacity,
            Predicate::CannotOwn { .. } => K::CannotOwn,
            Predicate::NoSensitive { .. } => K::NoSensitive,
            Predicate::CannotPair { .. } => K::CannotPair,
            Predicate::Off { .. } => K::Off,
            Predicate::NoHighPriority { .. } => K::NoHighPriority,
            Predicate::NoCollaborationHeavy { .. } => K::NoCollaborationHeavy,
            Predicate::CannotBeSoleOwner { .. } => K::CannotBeSoleOwner,
            Predicate::Evidence { .. } => K::Evidence,
            Predicate::Toward { .. } => K::Toward,
        }
    }

    /// Its row of the table.
    pub fn spec(&self) -> &'static PredicateSpec {
        self.kind().spec()
    }

    /// Its arguments, in the order of the table's parameters.
    pub fn args(&self) -> Vec<ArgValue> {
        use ArgValue as A;
        match self {
            Predicate::Unavailable { person, slot } => vec![A::Person(*person), A::Slot(*slot)],
            Predicate::AvoidRoom { person, room } => vec![A::Person(*person), A::Room(*room)],
            Predicate::NeedsFeature { meeting, feature } => {
                vec![A::Meeting(*meeting), A::Feature(feature.clone())]
            }
            Predicate::Attends { person, meeting } => {
                vec![A::Person(*person), A::Meeting(*meeting)]
            }
            Predicate::NotBefore { meeting, slot } | Predicate::NotAfter { meeting, slot } => {
                vec![A::Meeting(*meeting), A::Slot(*slot)]
            }
            Predicate::RequiresFeature { person, feature } => {
                vec![A::Person(*person), A::Feature(feature.clone())]
            }
            Predicate::WithinHours {
                person,
                earliest,
                latest,
            } => vec![
                A::Person(*person),
                A::Integer(*earliest),
                A::Integer(*latest),
            ],
            Predicate::Before { first, second } => vec![A::Meeting(*first), A::Meeting(*second)],
            Predicate::Capacity { person, hours } => vec![A::Person(*person), A::Integer(*hours)],
            Predicate::CannotOwn { person, ticket } => {
                vec![A::Person(*person), A::Ticket(*ticket)]
            }
            Predicate::CannotPair { a, b } => vec![A::Person(*a), A::Person(*b)],
            Predicate::NoSensitive { person }
            | Predicate::Off { person }
            | Predicate::NoHighPriority { person }
            | Predicate::NoCollaborationHeavy { person }
            | Predicate::CannotBeSoleOwner { person } => vec![A::Person(*person)],
            Predicate::Evidence { variable, value } => {
                vec![A::Variable(*variable), A::Value(*value)]
            }
            Predicate::Toward { level } => vec![A::Level(*level)],
        }
    }

    /// The predicate of `kind` with these arguments; `None` when they do
    /// not fit its parameters.
    pub fn from_args(kind: PredicateKind, args: &[ArgValue]) -> Option<Predicate> {
        use ArgValue as A;
        use PredicateKind as K;
        Some(match (kind, args) {
            (K::Unavailable, [A::Person(person), A::Slot(slot)]) => Predicate::Unavailable {
                person: *person,
                slot: *slot,
            },
            (K::AvoidRoom, [A::Person(person), A::Room(room)]) => Predicate::AvoidRoom {
                person: *person,
                room: *room,
            },
            (K::NeedsFeature, [A::Meeting(meeting), A::Feature(feature)]) => {
                Predicate::NeedsFeature {
                    meeting: *meeting,
                    feature: feature.clone(),
                }
            }
            (K::Attends, [A::Person(person), A::Meeting(meeting)]) => Predicate::Attends {
                person: *person,
                meeting: *meeting,
            },
            (K::NotBefore, [A::Meeting(meeting), A::Slot(slot)]) => Predicate::NotBefore {
                meeting: *meeting,
                slot: *slot,
            },
            (K::NotAfter, [A::Meeting(meeting), A::Slot(slot)]) => Predicate::NotAfter {
                meeting: *meeting,
                slot: *slot,
            },
            (K::RequiresFeature, [A::Person(person), A::Feature(feature)]) => {
                Predicate::RequiresFeature {
                    person: *person,
                    feature: feature.clone(),
                }
            }
            (K::WithinHours, [A::Person(person), A::Integer(e), A::Integer(l)]) => {
                Predicate::WithinHours {
                    person: *person,
                    earliest: *e,
                    latest: *l,
                }
            }
            (K::Before, [A::Meeting(first), A::Meeting(second)]) => Predicate::Before {
                first: *first,
                second: *second,
            },
            (K::Capacity, [A::Person(person), A::Integer(hours)]) => Predicate::Capacity {
                person: *person,
                hours: *hours,
            },
            (K::CannotOwn, [A::Person(person), A::Ticket(ticket)]) => Predicate::CannotOwn {
                person: *person,
                ticket: *ticket,
            },
            (K::CannotPair, [A::Person(a), A::Person(b)]) => Predicate::CannotPair { a: *a, b: *b },
            (K::NoSensitive, [A::Person(person)]) => Predicate::NoSensitive { person: *person },
            (K::Off, [A::Person(person)]) => Predicate::Off { person: *person },
            (K::NoHighPriority, [A::Person(person)]) => {
                Predicate::NoHighPriority { person: *person }
            }
            (K::NoCollaborationHeavy, [A::Person(person)]) => {
                Predicate::NoCollaborationHeavy { person: *person }
            }
            (K::CannotBeSoleOwner, [A::Person(person)]) => {
                Predicate::CannotBeSoleOwner { person: *person }
            }
            (K::Evidence, [A::Variable(variable), A::Value(value)]) => Predicate::Evidence {
                variable: *variable,
                value: *value,
            },
            (K::Toward, [A::Level(level)]) => Predicate::Toward { level: *level },
            _ => return None,
        })
    }

    /// The person a personal fact is about (the table's subject parameter);
    /// `None` for an operational fact.
    pub fn subject(&self) -> Option<PersonId> {
        let i = self.spec().subject?;
        match self.args().get(i) {
            Some(ArgValue::Person(p)) => Some(*p),
            _ => None,
        }
    }
}
