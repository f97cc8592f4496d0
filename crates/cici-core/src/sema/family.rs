//! The families: which decision a scenario asks for, its predicates and
//! the words it states its facts with.

use schemars::JsonSchema;
use serde::Serialize;

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
