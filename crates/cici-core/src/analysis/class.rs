//! The classes of attributes, which classify gives and the text checks
//! read.

use serde::Serialize;

/// The class of an attribute, as in the PiSAs taxonomy.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A fact of it is necessary for uniqueness.
    Critical,
    /// Appropriate and relevant, but no fact of it is necessary alone.
    Supporting,
    /// An appropriate fact that forbids nothing the public constraints allow.
    Idle,
    /// Honouring what it suggests would change or break the oracle.
    Trap,
    /// It suggests something, but honouring it keeps the oracle.
    Benign,
    /// Neither fact nor suggestion.
    Irrelevant,
    /// A query about it hit the solver bound: never reported as another class.
    Unknown,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Critical => "critical",
            Class::Supporting => "supporting",
            Class::Idle => "idle",
            Class::Trap => "trap",
            Class::Benign => "benign",
            Class::Irrelevant => "irrelevant",
            Class::Unknown => "unknown",
        }
    }
}
