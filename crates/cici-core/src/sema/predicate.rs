//! The predicates as data.
//!
//! [`PREDICATES`] is the one place a predicate is spelled: its name in the
//! language, the families that know it, its parameters (with the name each
//! takes in a signature and in the phrasing templates), whether it may only
//! be soft, which parameter names the person it is about, its key in
//! `templates/facts.yaml` and the word generated attribute ids use for it.
//! Everything that needs a predicate's name or shape (resolution,
//! `describe`, completion and hover, fix-its, the planted generator and its
//! phrasing) reads this table; what a predicate *means* is written where
//! the node is known, in exhaustive matches over [`Predicate`] (the model
//! lowering, the reference semantics), so a new predicate is a compile
//! error at every place that has to handle it.

use super::scenario::{ArgKind, Family};

/// A predicate without its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PredicateKind {
    Unavailable,
    AvoidRoom,
    NeedsFeature,
    Attends,
    NotBefore,
    NotAfter,
    RequiresFeature,
    WithinHours,
    Before,
    Capacity,
    CannotOwn,
    NoSensitive,
    CannotPair,
    JiraUnavailable,
    NoHighPriority,
    NoCollaborationHeavy,
    CannotBeSoleOwner,
    Evidence,
    Toward,
}

/// How an integer parameter is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Not an integer, or any integer.
    None,
    /// A quantity, at most [`MAX_QUANTITY`](super::cx::MAX_QUANTITY).
    Quantity,
    /// An hour of the day (0 to 24), later than the parameter at the index
    /// when one is given.
    Hour { after: Option<usize> },
}

/// One parameter of a predicate.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub kind: ArgKind,
    /// Its name in a signature: `within_hours(person, earliest, latest)`.
    pub name: &'static str,
    /// The variable the phrasing templates give its value in words.
    pub var: &'static str,
    pub bound: Bound,
}

const fn p(kind: ArgKind, name: &'static str, var: &'static str) -> Param {
    Param {
        kind,
        name,
        var,
        bound: Bound::None,
    }
}

const PERSON: Param = p(ArgKind::Person, "person", "name");
const MEETING: Param = p(ArgKind::Meeting, "meeting", "meeting");
const SLOT: Param = p(ArgKind::Slot, "slot", "when");
const FEATURE: Param = p(ArgKind::Feature, "feature", "feature");

/// One predicate, as data.
#[derive(Debug)]
pub struct PredicateSpec {
    pub kind: PredicateKind,
    /// As the language spells it.
    pub name: &'static str,
    pub families: &'static [Family],
    pub params: &'static [Param],
    /// Whether it may only be stated as `soft` (a pressure, never a fact).
    pub soft_only: bool,
    /// The parameter that names the person the fact is about, for a
    /// personal fact (one with a private reason behind it); `None` for an
    /// operational fact.
    pub subject: Option<usize>,
    /// Its key under `facts:` in `templates/facts.yaml`; a name two
    /// families share is qualified by its family there.
    pub phrasing: &'static str,
    /// The word a generated attribute id takes for it (`eli_unavailable`).
    pub id_word: &'static str,
    /// What it rules out, in one line.
    pub meaning: &'static str,
}

const MEETING_ONLY: &[Family] = &[Family::MeetingAllocation];
const JIRA_ONLY: &[Family] = &[Family::JiraAllocation];
const RULE_BASED: &[Family] = &[Family::SeverityClassification, Family::PolicyDecision];

/// The person-only JIRA predicates differ in name and meaning alone.
const fn jira_person(
    kind: PredicateKind,
    name: &'static str,
    phrasing: &'static str,
    id_word: &'static str,
    meaning: &'static str,
) -> PredicateSpec {
    PredicateSpec {
        kind,
        name,
        families: JIRA_ONLY,
        params: &[PERSON],
        soft_only: false,
        subject: Some(0),
        phrasing,
        id_word,
        meaning,
    }
}

/// Every predicate, in [`PredicateKind`] order.
pub static PREDICATES: [PredicateSpec; PredicateKind::COUNT] = {
    use ArgKind::*;
    use PredicateKind as K;
    [
        PredicateSpec {
            kind: K::Unavailable,
            name: "unavailable",
            families: MEETING_ONLY,
            params: &[PERSON, SLOT],
            soft_only: false,
            subject: Some(0),
            phrasing: "unavailable",
            id_word: "unavailable",
            meaning: "no meeting the person attends overlaps the slot",
        },
        PredicateSpec {
            kind: K::AvoidRoom,
            name: "avoid_room",
            families: MEETING_ONLY,
            params: &[PERSON, p(Room, "room", "room")],
            soft_only: false,
            subject: Some(0),
            phrasing: "avoid_room",
            id_word: "room",
            meaning: "no meeting the person attends is in the room",
        },
        PredicateSpec {
            kind: K::NeedsFeature,
            name: "needs_feature",
            families: MEETING_ONLY,
            params: &[MEETING, FEATURE],
            soft_only: false,
            subject: None,
            phrasing: "needs_feature",
            id_word: "feature",
            meaning: "the meeting is only in rooms with the feature",
        },
        PredicateSpec {
            kind: K::Attends,
            name: "attends",
            families: MEETING_ONLY,
            params: &[PERSON, MEETING],
            soft_only: false,
            subject: Some(0),
            phrasing: "attends",
            id_word: "attends",
            meaning: "the person attends the meeting too",
        },
        PredicateSpec {
            kind: K::NotBefore,
            name: "not_before",
            families: MEETING_ONLY,
            params: &[MEETING, SLOT],
            soft_only: false,
            subject: None,
            phrasing: "not_before",
            id_word: "timing",
            meaning: "the meeting starts no earlier in the week than the slot",
        },
        PredicateSpec {
            kind: K::NotAfter,
            name: "not_after",
            families: MEETING_ONLY,
            params: &[MEETING, SLOT],
            soft_only: false,
            subject: None,
            phrasing: "not_after",
            id_word: "timing",
            meaning: "the meeting ends no later in the week than the slot",
        },
        PredicateSpec {
            kind: K::RequiresFeature,
            name: "requires_feature",
            families: MEETING_ONLY,
            params: &[PERSON, FEATURE],
            soft_only: false,
            subject: Some(0),
            phrasing: "requires_feature",
            id_word: "feature",
            meaning: "every meeting the person attends is in a room with the feature",
        },
        PredicateSpec {
            kind: K::WithinHours,
            name: "within_hours",
            families: MEETING_ONLY,
            params: &[
                PERSON,
                Param {
                    kind: Integer,
                    name: "earliest",
                    var: "earliest",
                    bound: Bound::Hour { after: None },
                },
                Param {
                    kind: Integer,
                    name: "latest",
                    var: "latest",
                    bound: Bound::Hour { after: Some(1) },
                },
            ],
            soft_only: false,
            subject: Some(0),
            phrasing: "within_hours",
            id_word: "hours",
            meaning: "every meeting the person attends is between the two hours",
        },
        PredicateSpec {
            kind: K::Before,
            name: "before",
            families: MEETING_ONLY,
            params: &[
                p(Meeting, "first", "meeting"),
                p(Meeting, "second", "meeting2"),
            ],
            soft_only: false,
            subject: None,
            phrasing: "before",
            id_word: "order",
            meaning: "the first meeting ends before the second starts",
        },
        PredicateSpec {
            kind: K::Capacity,
            name: "capacity",
            families: JIRA_ONLY,
            params: &[
                PERSON,
                Param {
                    kind: Integer,
                    name: "hours",
                    var: "hours",
                    bound: Bound::Quantity,
                },
            ],
            soft_only: false,
            subject: Some(0),
            phrasing: "capacity",
            id_word: "capacity",
            meaning: "the person's total hours are at most this",
        },
        PredicateSpec {
            kind: K::CannotOwn,
            name: "cannot_own",
            families: JIRA_ONLY,
            params: &[PERSON, p(Ticket, "ticket", "ticket")],
            soft_only: false,
            subject: Some(0),
            phrasing: "cannot_own",
            id_word: "cannot_own",
            meaning: "the person does not own the ticket",
        },
        jira_person(
            K::NoSensitive,
            "no_sensitive",
            "no_sensitive",
            "no_sensitive",
            "the person is on no sensitive ticket",
        ),
        PredicateSpec {
            kind: K::CannotPair,
            name: "cannot_pair",
            families: JIRA_ONLY,
            params: &[PERSON, p(Person, "person", "name2")],
            soft_only: false,
            subject: Some(0),
            phrasing: "cannot_pair",
            id_word: "cannot_pair",
            meaning: "the two people are not together on one ticket",
        },
        jira_person(
            K::JiraUnavailable,
            "unavailable",
            "jira_allocation.unavailable",
            "off",
            "the person is on no ticket",
        ),
        jira_person(
            K::NoHighPriority,
            "no_high_priority",
            "no_high_priority",
            "priority",
            "the person is on no high-priority ticket",
        ),
        jira_person(
            K::NoCollaborationHeavy,
            "no_collaboration_heavy",
            "no_collaboration_heavy",
            "solo",
            "the person is on no collaboration-heavy or two-seat ticket",
        ),
        jira_person(
            K::CannotBeSoleOwner,
            "cannot_be_sole_owner",
            "cannot_be_sole_owner",
            "not_alone",
            "the person is never a ticket's only seat",
        ),
        PredicateSpec {
            kind: K::Evidence,
            name: "evidence",
            families: RULE_BASED,
            params: &[
                p(Variable, "variable", "variable"),
                p(Value, "value", "value"),
            ],
            soft_only: false,
            subject: None,
            phrasing: "evidence",
            id_word: "evidence",
            meaning: "the evidence variable has the value",
        },
        PredicateSpec {
            kind: K::Toward,
            name: "toward",
            families: RULE_BASED,
            params: &[p(Level, "level", "level")],
            soft_only: true,
            subject: None,
            phrasing: "toward",
            id_word: "toward",
            meaning: "pressure toward a level or outcome (soft only)",
        },
    ]
};

impl PredicateKind {
    /// How many predicates there are: the table's length.
    pub const COUNT: usize = PredicateKind::Toward as usize + 1;

    /// Its row of [`PREDICATES`].
    pub fn spec(self) -> &'static PredicateSpec {
        &PREDICATES[self as usize]
    }

    /// The predicate of `family` spelled `name`.
    pub fn find(family: Family, name: &str) -> Option<PredicateKind> {
        PREDICATES
            .iter()
            .find(|s| s.name == name && s.families.contains(&family))
            .map(|s| s.kind)
    }
}

impl PredicateSpec {
    /// `within_hours(person, earliest, latest)`.
    pub fn signature(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

impl Family {
    /// The predicates of the family, in table order.
    pub fn predicates(self) -> impl Iterator<Item = &'static PredicateSpec> {
        PREDICATES
            .iter()
            .filter(move |s| s.families.contains(&self))
    }
}

mod args;
#[cfg(test)]
mod tests;

pub use args::ArgValue;
