//! The context of resolving one scenario: the declared names and the
//! helpers every resolver of a part (people, facts, setting, oracle) uses.

use std::collections::HashMap;

use super::error::ResolveError;
use super::scenario::*;
use crate::span::Span;
use crate::suggest::{help_within, Budget};
use crate::syntax::Ident;

/// The longest identifier a declaration may have: ids name output files
/// and folders, which file systems cap at 255 bytes.
pub const MAX_NAME: usize = 64;

pub(super) fn check_name_length(kind: &str, id: &Ident, errors: &mut Vec<ResolveError>) {
    if id.name.len() > MAX_NAME {
        errors.push(ResolveError::NameTooLong {
            kind: kind.to_string(),
            length: id.name.len(),
            max: MAX_NAME,
            span: id.span.into(),
        });
    }
}

/// A name table for one kind of declaration.
#[derive(Default)]
pub(super) struct Names {
    pub map: HashMap<String, (usize, Span)>,
    pub order: Vec<String>,
}

impl Names {
    pub(super) fn declare(
        &mut self,
        kind: &str,
        id: &Ident,
        errors: &mut Vec<ResolveError>,
    ) -> bool {
        check_name_length(kind, id, errors);
        if let Some((_, first)) = self.map.get(&id.name) {
            errors.push(ResolveError::DuplicateName {
                kind: kind.to_string(),
                name: id.name.clone(),
                span: id.span.into(),
                first: (*first).into(),
            });
            return false;
        }
        self.map
            .insert(id.name.clone(), (self.order.len(), id.span));
        self.order.push(id.name.clone());
        true
    }

    pub fn get(&self, name: &str) -> Option<usize> {
        self.map.get(name).map(|(i, _)| *i)
    }

    pub fn help(
        &self,
        name: &str,
        kind: &str,
        budget: &mut Budget,
    ) -> Option<crate::suggest::Help> {
        help_within(name, kind, self.order.iter().map(String::as_str), budget)
    }
}

/// Everything declared in a scenario, for looking names up.
pub(super) struct Cx {
    pub family: Family,
    pub people: Names,
    pub rooms: Names,
    pub meetings: Names,
    pub tickets: Names,
    pub levels: Names,
    pub variables: Names,
    pub values: Vec<Vec<String>>,
    pub features: Vec<String>,
    pub errors: Vec<ResolveError>,
    /// What "did you mean" may still compare in this scenario.
    pub suggest: Budget,
}

/// The largest number a quantity may take: room capacity, ticket hours,
/// a person's capacity in hours. Sums of quantities are computed in 64
/// bits, so no scenario within this bound can overflow them.
pub const MAX_QUANTITY: u32 = 100_000;

impl Cx {
    /// A quantity, checked against [`MAX_QUANTITY`]; an error (and the
    /// bound itself, so later stages see a sane number) when above it.
    pub fn quantity(&mut self, i: &crate::syntax::Int, what: &str) -> u32 {
        if i.value > MAX_QUANTITY {
            self.errors.push(ResolveError::NumberTooLarge {
                what: what.to_string(),
                value: i.value,
                max: MAX_QUANTITY,
                span: i.span.into(),
            });
            return MAX_QUANTITY;
        }
        i.value
    }

    pub fn person(&mut self, id: &Ident) -> Option<PersonId> {
        let found = self.people.get(&id.name);
        if found.is_none() {
            self.errors.push(ResolveError::UnknownPerson {
                name: id.name.clone(),
                span: id.span.into(),
                help: self.people.help(&id.name, "person", &mut self.suggest),
            });
        }
        found
    }

    pub fn room(&mut self, id: &Ident) -> Option<RoomId> {
        let found = self.rooms.get(&id.name);
        if found.is_none() {
            self.errors.push(ResolveError::UnknownRoom {
                name: id.name.clone(),
                span: id.span.into(),
                help: self.rooms.help(&id.name, "room", &mut self.suggest),
            });
        }
        found
    }

    pub fn meeting(&mut self, id: &Ident) -> Option<MeetingId> {
        let found = self.meetings.get(&id.name);
        if found.is_none() {
            self.errors.push(ResolveError::UnknownMeeting {
                name: id.name.clone(),
                span: id.span.into(),
                help: self.meetings.help(&id.name, "meeting", &mut self.suggest),
            });
        }
        found
    }

    pub fn ticket(&mut self, id: &Ident) -> Option<TicketId> {
        let found = self.tickets.get(&id.name);
        if found.is_none() {
            self.errors.push(ResolveError::UnknownTicket {
                name: id.name.clone(),
                span: id.span.into(),
                help: self.tickets.help(&id.name, "ticket", &mut self.suggest),
            });
        }
        found
    }

    /// A level (severity) or an outcome (policy): the decision space of
    /// the rule-based families.
    pub fn level(&mut self, id: &Ident) -> Option<LevelId> {
        let found = self.levels.get(&id.name);
        if found.is_none() {
            let (name, span) = (id.name.clone(), id.span.into());
            self.errors.push(if self.family == Family::PolicyDecision {
                ResolveError::UnknownOutcome {
                    name,
                    span,
                    help: self.levels.help(&id.name, "outcome", &mut self.suggest),
                }
            } else {
                ResolveError::UnknownLevel {
                    name,
                    span,
                    help: self.levels.help(&id.name, "level", &mut self.suggest),
                }
            });
        }
        found
    }

    pub fn variable(&mut self, id: &Ident) -> Option<VariableId> {
        let found = self.variables.get(&id.name);
        if found.is_none() {
            self.errors.push(ResolveError::UnknownVariable {
                name: id.name.clone(),
                span: id.span.into(),
                help: self
                    .variables
                    .help(&id.name, "evidence variable", &mut self.suggest),
            });
        }
        found
    }

    pub fn value(&mut self, variable: VariableId, id: &Ident) -> Option<usize> {
        let domain = &self.values[variable];
        let found = domain.iter().position(|v| *v == id.name);
        if found.is_none() {
            let help = help_within(
                &id.name,
                "value",
                domain.iter().map(String::as_str),
                &mut self.suggest,
            );
            self.errors.push(ResolveError::UnknownValue {
                name: id.name.clone(),
                variable: self.variables.order[variable].clone(),
                span: id.span.into(),
                help,
            });
        }
        found
    }

    pub fn feature(&mut self, id: &Ident) -> Option<String> {
        if self.features.contains(&id.name) {
            return Some(id.name.clone());
        }
        self.errors.push(ResolveError::UnknownFeature {
            name: id.name.clone(),
            span: id.span.into(),
            help: help_within(
                &id.name,
                "feature",
                self.features.iter().map(String::as_str),
                &mut self.suggest,
            ),
        });
        None
    }
}

/// A statement that may be given once.
pub(super) struct Once<'a, T> {
    what: &'static str,
    value: Option<(&'a T, Span)>,
}

impl<'a, T> Once<'a, T> {
    pub(super) fn new(what: &'static str) -> Self {
        Once { what, value: None }
    }

    pub(super) fn set(&mut self, value: &'a T, span: Span, errors: &mut Vec<ResolveError>) {
        match self.value {
            Some((_, first)) => errors.push(ResolveError::DuplicateStatement {
                what: self.what.to_string(),
                span: span.into(),
                first: first.into(),
            }),
            None => self.value = Some((value, span)),
        }
    }

    pub(super) fn get(&self) -> Option<&'a T> {
        self.value.map(|(v, _)| v)
    }
}

pub(super) fn missing(
    what: &str,
    container: &str,
    span: Span,
    help: Option<String>,
) -> ResolveError {
    ResolveError::Missing {
        what: what.to_string(),
        container: container.to_string(),
        span: span.into(),
        help,
    }
}

pub(super) fn not_in_family(what: &str, family: Family, span: Span) -> ResolveError {
    let home = match what {
        "room" | "meeting" => Some(Family::MeetingAllocation),
        "ticket" | "skills" => Some(Family::JiraAllocation),
        "levels" | "rubric" => Some(Family::SeverityClassification),
        "outcomes" | "rules" => Some(Family::PolicyDecision),
        "evidence" | "exclude" => Some(Family::PolicyDecision),
        _ => None,
    };
    ResolveError::NotInFamily {
        what: what.to_string(),
        family: family.name().to_string(),
        span: span.into(),
        help: home.map(|h| format!("`{what}` belongs to the `{}` family", h.name())),
    }
}
