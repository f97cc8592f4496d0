//! The families: which decision a scenario asks for, its predicates and
//! the words it states its facts with.

use schemars::JsonSchema;
use serde::Serialize;

use super::scenario::ArgKind;

/// The kind of decision a scenario asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    MeetingAllocation,
    JiraAllocation,
    SeverityClassification,
    /// Any decision made by ordered rules over evidence variables; the
    /// severity family is this one spelled for incidents.
    PolicyDecision,
}

impl Family {
    pub const ALL: [Family; 4] = [
        Family::MeetingAllocation,
        Family::JiraAllocation,
        Family::SeverityClassification,
        Family::PolicyDecision,
    ];

    /// Whether the decision comes from ordered rules over evidence
    /// (severity and policy), rather than an allocation.
    pub fn is_rule_based(self) -> bool {
        matches!(
            self,
            Family::SeverityClassification | Family::PolicyDecision
        )
    }

    /// What one decision of a rule-based family is called.
    pub fn decision_word(self) -> &'static str {
        match self {
            Family::PolicyDecision => "outcome",
            _ => "level",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::MeetingAllocation => "meeting_allocation",
            Family::JiraAllocation => "jira_allocation",
            Family::SeverityClassification => "severity_classification",
            Family::PolicyDecision => "policy_decision",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The predicates of the family with their argument kinds.
    pub fn predicates(self) -> &'static [(&'static str, &'static [ArgKind])] {
        use ArgKind::*;
        match self {
            Family::MeetingAllocation => &[
                ("unavailable", &[Person, Slot]),
                ("avoid_room", &[Person, Room]),
                ("needs_feature", &[Meeting, Feature]),
                ("attends", &[Person, Meeting]),
                ("not_before", &[Meeting, Slot]),
                ("not_after", &[Meeting, Slot]),
                ("requires_feature", &[Person, Feature]),
                ("within_hours", &[Person, Integer, Integer]),
                ("before", &[Meeting, Meeting]),
            ],
            Family::JiraAllocation => &[
                ("capacity", &[Person, Integer]),
                ("cannot_own", &[Person, Ticket]),
                ("no_sensitive", &[Person]),
                ("cannot_pair", &[Person, Person]),
                ("unavailable", &[Person]),
                ("no_high_priority", &[Person]),
                ("no_collaboration_heavy", &[Person]),
                ("cannot_be_sole_owner", &[Person]),
            ],
            Family::SeverityClassification | Family::PolicyDecision => {
                &[("evidence", &[Variable, Value]), ("toward", &[Level])]
            }
        }
    }

    /// Words the family uses to state its facts; sanitized texts may repeat
    /// them from the raw text without leaking.
    pub fn fact_words(self) -> &'static [&'static str] {
        match self {
            Family::MeetingAllocation => &[
                "available",
                "unavailable",
                "room",
                "rooms",
                "meeting",
                "meetings",
                "use",
                "requiring",
                "needs",
                "before",
                "after",
                "attend",
                "attends",
            ],
            Family::JiraAllocation => &[
                "hours",
                "available",
                "unavailable",
                "own",
                "owner",
                "contribute",
                "ticket",
                "tickets",
                "sensitive",
                "data",
                "pair",
                "together",
                "work",
                "sprint",
            ],
            Family::SeverityClassification | Family::PolicyDecision => {
                &["evidence", "level", "severity", "outcome"]
            }
        }
    }
}
