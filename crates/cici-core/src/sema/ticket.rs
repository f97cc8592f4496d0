//! A ticket's seats and priority (`jira_allocation`).

use crate::span::Span;

/// A ticket of a JIRA setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub id: String,
    pub title: String,
    /// The first seat (the owner's): its skill and hours.
    pub needs: String,
    pub hours: u32,
    /// A second seat, filled by another person (the collaborator): `pair`
    /// or `with`.
    pub pair: bool,
    /// The second seat's skill and hours when they are not the first's
    /// (`with <skill> hours <int>`); `None` for a `pair`.
    pub with: Option<Seat>,
    pub priority: Option<Priority>,
    pub collaboration_heavy: bool,
    pub sensitive: bool,
    pub span: Span,
}

/// A seat of a ticket: who fills it needs the skill and spends the hours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub skill: String,
    pub hours: u32,
}

/// A ticket's priority.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Low,
    Medium,
    High,
}

impl Priority {
    pub fn from_name(name: &str) -> Option<Priority> {
        match name {
            "low" => Some(Priority::Low),
            "medium" => Some(Priority::Medium),
            "high" => Some(Priority::High),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Priority::Low => "low",
            Priority::Medium => "medium",
            Priority::High => "high",
        }
    }
}

impl Ticket {
    /// The second seat's skill and hours, if the ticket has one.
    pub fn second_seat(&self) -> Option<(&str, u32)> {
        if !self.pair {
            return None;
        }
        Some(match &self.with {
            Some(seat) => (seat.skill.as_str(), seat.hours),
            None => (self.needs.as_str(), self.hours),
        })
    }

    /// The skill and hours of seat 0 (owner) or 1 (collaborator).
    pub fn seat(&self, index: usize) -> Option<(&str, u32)> {
        match index {
            0 => Some((self.needs.as_str(), self.hours)),
            1 => self.second_seat(),
            _ => None,
        }
    }

    /// Seats filled by one person: a one-seat ticket has a sole owner.
    pub fn seats(&self) -> usize {
        1 + usize::from(self.pair)
    }
}
