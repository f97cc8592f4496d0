//! Norms: who may receive which kinds of information in a scenario's
//! context. The visibility of every form is derived from them in
//! `sema::visibility`.
//!
//! A norm is `share <kinds> with <recipients> [for <purpose>]`. A form's
//! visibility is its holder plus everyone a norm that matches the form, and
//! applies to the scenario's purpose, lets receive it. A scenario without a
//! `norms` block has its family's defaults, which give what the language has
//! always given: forms appropriate for the task go to everyone, the others
//! stay with their holder and subject.

use super::category::Category;
use super::family::Family;
use crate::span::Span;

/// A kind of information a norm speaks of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InfoKind {
    /// Every form.
    Any,
    /// A form as its holder first put it.
    Raw,
    /// A form worded without its personal reason.
    Sanitized,
    /// A form labelled appropriate to use for the task.
    Appropriate,
    /// A form labelled not appropriate to use for the task.
    Inappropriate,
    /// A raw form of a personal category.
    Personal,
    /// A raw form of this category.
    Category(Category),
}

/// Who a norm lets receive information.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// Everyone working on the task: every person of the scenario.
    Everyone,
    /// The person who makes the decision.
    Executor,
    /// The person who holds the attribute.
    Holder,
    /// The person the attribute is about.
    Subject,
    /// The manager of the person the attribute is about.
    Manager,
    /// Every member of a group.
    Group(String),
    /// One person.
    /// (an index into the scenario's people)
    Person(usize),
}

/// One norm of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Norm {
    pub kinds: Vec<InfoKind>,
    pub recipients: Vec<Recipient>,
    /// The purpose the norm holds for; `None` for every purpose.
    pub purpose: Option<String>,
    pub span: Span,
}

/// The names a norm's kinds are written with, besides the categories.
pub const KIND_WORDS: [&str; 6] = [
    "any",
    "raw",
    "sanitized",
    "appropriate",
    "inappropriate",
    "personal",
];

/// The names a norm's recipients are written with, besides groups and people.
pub const RECIPIENT_WORDS: [&str; 5] = ["everyone", "executor", "holder", "subject", "manager"];

impl InfoKind {
    /// The kind as a seed writes it.
    pub fn name(&self) -> &'static str {
        match self {
            InfoKind::Any => "any",
            InfoKind::Raw => "raw",
            InfoKind::Sanitized => "sanitized",
            InfoKind::Appropriate => "appropriate",
            InfoKind::Inappropriate => "inappropriate",
            InfoKind::Personal => "personal",
            InfoKind::Category(c) => c.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<InfoKind> {
        Some(match name {
            "any" => InfoKind::Any,
            "raw" => InfoKind::Raw,
            "sanitized" => InfoKind::Sanitized,
            "appropriate" => InfoKind::Appropriate,
            "inappropriate" => InfoKind::Inappropriate,
            "personal" => InfoKind::Personal,
            other => InfoKind::Category(Category::from_name(other)?),
        })
    }
}

/// The purpose a family's tasks have when a scenario names none.
pub fn default_purpose(family: Family) -> &'static str {
    match family {
        Family::MeetingAllocation => "scheduling",
        Family::JiraAllocation => "staffing",
        Family::SeverityClassification => "incident_response",
        Family::PolicyDecision => "review",
    }
}

/// The norms of a scenario without a `norms` block: what the task may use
/// goes to everyone working on it; the rest stays with its holder and the
/// person it is about.
pub fn default_norms() -> Vec<Norm> {
    vec![
        Norm {
            kinds: vec![InfoKind::Appropriate],
            recipients: vec![Recipient::Everyone],
            purpose: None,
            span: Span::DERIVED,
        },
        Norm {
            kinds: vec![InfoKind::Inappropriate],
            recipients: vec![Recipient::Holder, Recipient::Subject],
            purpose: None,
            span: Span::DERIVED,
        },
    ]
}

impl Norm {
    /// Whether the norm holds for a task of this purpose.
    pub fn applies(&self, purpose: &str) -> bool {
        self.purpose.as_deref().is_none_or(|p| p == purpose)
    }
}
