//! A predicate's arguments as a list in table order, and back: the one
//! exhaustive match that ties each [`Predicate`] variant to its row.

use super::{PredicateKind, PredicateSpec};
use crate::sema::scenario::{
    JiraPredicate, LevelId, MeetingId, MeetingPredicate, PersonId, Predicate, RoomId,
    RulePredicate, Slot, TicketId, VariableId,
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
            Predicate::Meeting(MeetingPredicate::Unavailable { .. }) => K::Unavailable,
            Predicate::Meeting(MeetingPredicate::AvoidRoom { .. }) => K::AvoidRoom,
            Predicate::Meeting(MeetingPredicate::NeedsFeature { .. }) => K::NeedsFeature,
            Predicate::Meeting(MeetingPredicate::Attends { .. }) => K::Attends,
            Predicate::Meeting(MeetingPredicate::NotBefore { .. }) => K::NotBefore,
            Predicate::Meeting(MeetingPredicate::NotAfter { .. }) => K::NotAfter,
            Predicate::Meeting(MeetingPredicate::RequiresFeature { .. }) => K::RequiresFeature,
            Predicate::Meeting(MeetingPredicate::WithinHours { .. }) => K::WithinHours,
            Predicate::Meeting(MeetingPredicate::Before { .. }) => K::Before,
            Predicate::Jira(JiraPredicate::Capacity { .. }) => K::Capacity,
            Predicate::Jira(JiraPredicate::CannotOwn { .. }) => K::CannotOwn,
            Predicate::Jira(JiraPredicate::NoSensitive { .. }) => K::NoSensitive,
            Predicate::Jira(JiraPredicate::CannotPair { .. }) => K::CannotPair,
            Predicate::Jira(JiraPredicate::Unavailable { .. }) => K::JiraUnavailable,
            Predicate::Jira(JiraPredicate::NoHighPriority { .. }) => K::NoHighPriority,
            Predicate::Jira(JiraPredicate::NoCollaborationHeavy { .. }) => K::NoCollaborationHeavy,
            Predicate::Jira(JiraPredicate::CannotBeSoleOwner { .. }) => K::CannotBeSoleOwner,
            Predicate::Rule(RulePredicate::Evidence { .. }) => K::Evidence,
            Predicate::Rule(RulePredicate::Toward { .. }) => K::Toward,
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
            Predicate::Meeting(MeetingPredicate::Unavailable { person, slot }) => {
                vec![A::Person(*person), A::Slot(*slot)]
            }
            Predicate::Meeting(MeetingPredicate::AvoidRoom { person, room }) => {
                vec![A::Person(*person), A::Room(*room)]
            }
            Predicate::Meeting(MeetingPredicate::NeedsFeature { meeting, feature }) => {
                vec![A::Meeting(*meeting), A::Feature(feature.clone())]
            }
            Predicate::Meeting(MeetingPredicate::Attends { person, meeting }) => {
                vec![A::Person(*person), A::Meeting(*meeting)]
            }
            Predicate::Meeting(MeetingPredicate::NotBefore { meeting, slot })
            | Predicate::Meeting(MeetingPredicate::NotAfter { meeting, slot }) => {
                vec![A::Meeting(*meeting), A::Slot(*slot)]
            }
            Predicate::Meeting(MeetingPredicate::RequiresFeature { person, feature }) => {
                vec![A::Person(*person), A::Feature(feature.clone())]
            }
            Predicate::Meeting(MeetingPredicate::WithinHours {
                person,
                earliest,
                latest,
            }) => vec![
                A::Person(*person),
                A::Integer(*earliest),
                A::Integer(*latest),
            ],
            Predicate::Meeting(MeetingPredicate::Before { first, second }) => {
                vec![A::Meeting(*first), A::Meeting(*second)]
            }
            Predicate::Jira(JiraPredicate::Capacity { person, hours }) => {
                vec![A::Person(*person), A::Integer(*hours)]
            }
            Predicate::Jira(JiraPredicate::CannotOwn { person, ticket }) => {
                vec![A::Person(*person), A::Ticket(*ticket)]
            }
            Predicate::Jira(JiraPredicate::CannotPair { a, b }) => {
                vec![A::Person(*a), A::Person(*b)]
            }
            Predicate::Jira(JiraPredicate::NoSensitive { person })
            | Predicate::Jira(JiraPredicate::Unavailable { person })
            | Predicate::Jira(JiraPredicate::NoHighPriority { person })
            | Predicate::Jira(JiraPredicate::NoCollaborationHeavy { person })
            | Predicate::Jira(JiraPredicate::CannotBeSoleOwner { person }) => {
                vec![A::Person(*person)]
            }
            Predicate::Rule(RulePredicate::Evidence { variable, value }) => {
                vec![A::Variable(*variable), A::Value(*value)]
            }
            Predicate::Rule(RulePredicate::Toward { level }) => vec![A::Level(*level)],
        }
    }

    /// The predicate of `kind` with these arguments; `None` when they do
    /// not fit its parameters.
    pub fn from_args(kind: PredicateKind, args: &[ArgValue]) -> Option<Predicate> {
        meeting_from_args(kind, args)
            .map(Predicate::Meeting)
            .or_else(|| jira_from_args(kind, args).map(Predicate::Jira))
            .or_else(|| rule_from_args(kind, args).map(Predicate::Rule))
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

/// A `meeting_allocation` predicate of `kind` with these arguments.
fn meeting_from_args(kind: PredicateKind, args: &[ArgValue]) -> Option<MeetingPredicate> {
    use ArgValue as A;
    use PredicateKind as K;
    Some(match (kind, args) {
        (K::Unavailable, [A::Person(person), A::Slot(slot)]) => MeetingPredicate::Unavailable {
            person: *person,
            slot: *slot,
        },
        (K::AvoidRoom, [A::Person(person), A::Room(room)]) => MeetingPredicate::AvoidRoom {
            person: *person,
            room: *room,
        },
        (K::NeedsFeature, [A::Meeting(meeting), A::Feature(feature)]) => {
            MeetingPredicate::NeedsFeature {
                meeting: *meeting,
                feature: feature.clone(),
            }
        }
        (K::Attends, [A::Person(person), A::Meeting(meeting)]) => MeetingPredicate::Attends {
            person: *person,
            meeting: *meeting,
        },
        (K::NotBefore, [A::Meeting(meeting), A::Slot(slot)]) => MeetingPredicate::NotBefore {
            meeting: *meeting,
            slot: *slot,
        },
        (K::NotAfter, [A::Meeting(meeting), A::Slot(slot)]) => MeetingPredicate::NotAfter {
            meeting: *meeting,
            slot: *slot,
        },
        (K::RequiresFeature, [A::Person(person), A::Feature(feature)]) => {
            MeetingPredicate::RequiresFeature {
                person: *person,
                feature: feature.clone(),
            }
        }
        (K::WithinHours, [A::Person(person), A::Integer(e), A::Integer(l)]) => {
            MeetingPredicate::WithinHours {
                person: *person,
                earliest: *e,
                latest: *l,
            }
        }
        (K::Before, [A::Meeting(first), A::Meeting(second)]) => MeetingPredicate::Before {
            first: *first,
            second: *second,
        },
        _ => return None,
    })
}

/// A `jira_allocation` predicate of `kind` with these arguments.
fn jira_from_args(kind: PredicateKind, args: &[ArgValue]) -> Option<JiraPredicate> {
    use ArgValue as A;
    use PredicateKind as K;
    Some(match (kind, args) {
        (K::Capacity, [A::Person(person), A::Integer(hours)]) => JiraPredicate::Capacity {
            person: *person,
            hours: *hours,
        },
        (K::CannotOwn, [A::Person(person), A::Ticket(ticket)]) => JiraPredicate::CannotOwn {
            person: *person,
            ticket: *ticket,
        },
        (K::CannotPair, [A::Person(a), A::Person(b)]) => JiraPredicate::CannotPair { a: *a, b: *b },
        (K::NoSensitive, [A::Person(person)]) => JiraPredicate::NoSensitive { person: *person },
        (K::JiraUnavailable, [A::Person(person)]) => JiraPredicate::Unavailable { person: *person },
        (K::NoHighPriority, [A::Person(person)]) => {
            JiraPredicate::NoHighPriority { person: *person }
        }
        (K::NoCollaborationHeavy, [A::Person(person)]) => {
            JiraPredicate::NoCollaborationHeavy { person: *person }
        }
        (K::CannotBeSoleOwner, [A::Person(person)]) => {
            JiraPredicate::CannotBeSoleOwner { person: *person }
        }
        _ => return None,
    })
}

/// A predicate of a rule-based family, of `kind`, with these arguments.
fn rule_from_args(kind: PredicateKind, args: &[ArgValue]) -> Option<RulePredicate> {
    use ArgValue as A;
    use PredicateKind as K;
    Some(match (kind, args) {
        (K::Evidence, [A::Variable(variable), A::Value(value)]) => RulePredicate::Evidence {
            variable: *variable,
            value: *value,
        },
        (K::Toward, [A::Level(level)]) => RulePredicate::Toward { level: *level },
        _ => return None,
    })
}
