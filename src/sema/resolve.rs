//! Name resolution and defaults for one scenario block.

use std::collections::HashMap;

use super::error::ResolveError;
use super::scenario::*;
use crate::span::Span;
use crate::suggest::help_for;
use crate::syntax::{self as ast, Ident, Item};

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

    pub fn help(&self, name: &str, kind: &str) -> Option<crate::suggest::Help> {
        help_for(name, kind, self.order.iter().map(String::as_str))
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
                help: self.people.help(&id.name, "person"),
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
                help: self.rooms.help(&id.name, "room"),
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
                help: self.meetings.help(&id.name, "meeting"),
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
                help: self.tickets.help(&id.name, "ticket"),
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
                    help: self.levels.help(&id.name, "outcome"),
                }
            } else {
                ResolveError::UnknownLevel {
                    name,
                    span,
                    help: self.levels.help(&id.name, "level"),
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
                help: self.variables.help(&id.name, "evidence variable"),
            });
        }
        found
    }

    pub fn value(&mut self, variable: VariableId, id: &Ident) -> Option<usize> {
        let domain = &self.values[variable];
        let found = domain.iter().position(|v| *v == id.name);
        if found.is_none() {
            let help = help_for(&id.name, "value", domain.iter().map(String::as_str));
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
            help: help_for(
                &id.name,
                "feature",
                self.features.iter().map(String::as_str),
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

/// Resolves one scenario block. Returns every error found, not just the first.
pub fn resolve(sc: &ast::ScenarioAst) -> Result<Scenario, Vec<ResolveError>> {
    let mut errors = Vec::new();
    check_name_length("scenario", &sc.id, &mut errors);
    let mut family = Once::new("family");
    let mut title = Once::new("title");
    let mut task = Once::new("task");
    let mut executor = Once::new("executor");
    let mut recipient = Once::new("recipient");
    let mut policy = Once::new("policy");
    let mut purpose = Once::new("purpose");
    let mut norms = Once::new("norms");
    let mut levels = Once::new("levels");
    let mut rubric = Once::new("rubric");
    let mut outcomes = Once::new("outcomes");
    let mut rules = Once::new("rules");
    let mut excludes = Vec::new();
    let mut oracle = Once::new("oracle");
    let mut public = Vec::new();
    let mut persons = Vec::new();
    let mut rooms = Vec::new();
    let mut meetings = Vec::new();
    let mut tickets = Vec::new();
    let mut evidence = Vec::new();
    let mut attributes = Vec::new();

    for item in &sc.items {
        match item {
            Item::Family(i) => family.set(i, i.span, &mut errors),
            Item::Title(s) => title.set(s, s.span, &mut errors),
            Item::Task(s) => task.set(s, s.span, &mut errors),
            Item::Executor(i) => executor.set(i, i.span, &mut errors),
            Item::Recipient(s) => recipient.set(s, s.span, &mut errors),
            Item::Policy(s) => policy.set(s, s.span, &mut errors),
            Item::Purpose(i) => purpose.set(i, i.span, &mut errors),
            Item::Norms(n) => norms.set(n, n.span, &mut errors),
            Item::Public(s) => public.push(s.value.clone()),
            Item::Person(p) => persons.push(p),
            Item::Room(r) => rooms.push(r),
            Item::Meeting(m) => meetings.push(m),
            Item::Ticket(t) => tickets.push(t),
            Item::Levels(l) => levels.set(l, l.span, &mut errors),
            Item::Evidence(e) => evidence.push(e),
            Item::Rubric(r) => rubric.set(r, r.span, &mut errors),
            Item::Outcomes(l) => outcomes.set(l, l.span, &mut errors),
            Item::Rules(r) => rules.set(r, r.span, &mut errors),
            Item::Exclude(e) => excludes.push(e),
            Item::Attribute(a) => attributes.push(a),
            Item::Oracle(o) => oracle.set(o, o.span, &mut errors),
        }
    }

    let fam = match family.get() {
        None => {
            errors.push(missing(
                "family",
                &format!("scenario `{}`", sc.id.name),
                sc.id.span,
                Some(format!(
                    "add `family <name>`, one of {}",
                    Family::ALL.map(|f| format!("`{}`", f.name())).join(", ")
                )),
            ));
            return Err(errors);
        }
        Some(i) => match Family::from_name(&i.name) {
            Some(f) => f,
            None => {
                errors.push(ResolveError::UnknownFamily {
                    name: i.name.clone(),
                    span: i.span.into(),
                    help: help_for(&i.name, "family", Family::ALL.map(|f| f.name())),
                });
                return Err(errors);
            }
        },
    };
    let container = format!("scenario `{}`", sc.id.name);
    for (what, present) in [
        ("title", title.get().is_some()),
        ("task", task.get().is_some()),
    ] {
        if !present {
            errors.push(missing(what, &container, sc.id.span, None));
        }
    }

    let mut cx = Cx {
        family: fam,
        people: Names::default(),
        rooms: Names::default(),
        meetings: Names::default(),
        tickets: Names::default(),
        levels: Names::default(),
        variables: Names::default(),
        values: Vec::new(),
        features: Vec::new(),
        errors,
    };

    // People, their reporting lines, and the norms that name them.
    let mut people = super::people::people(&mut cx, &persons);
    super::people::managers(&mut cx, &persons, &mut people);
    let norms = norms
        .get()
        .map(|n| super::people::norms(&mut cx, n, &people));
    if people.len() < 2 {
        cx.errors.push(ResolveError::TooFewPeople {
            found: people.len(),
            span: sc.id.span.into(),
        });
    }

    // Family declarations.
    if fam != Family::MeetingAllocation {
        for r in &rooms {
            cx.errors.push(not_in_family("room", fam, r.span));
        }
        for m in &meetings {
            cx.errors.push(not_in_family("meeting", fam, m.span));
        }
    }
    if fam != Family::JiraAllocation {
        for t in &tickets {
            cx.errors.push(not_in_family("ticket", fam, t.span));
        }
    }
    let rule_based = matches!(fam, Family::SeverityClassification | Family::PolicyDecision);
    if fam != Family::SeverityClassification {
        if let Some(l) = levels.get() {
            cx.errors.push(not_in_family("levels", fam, l.span));
        }
        if let Some(r) = rubric.get() {
            cx.errors.push(not_in_family("rubric", fam, r.span));
        }
    }
    if fam != Family::PolicyDecision {
        if let Some(l) = outcomes.get() {
            cx.errors.push(not_in_family("outcomes", fam, l.span));
        }
        if let Some(r) = rules.get() {
            cx.errors.push(not_in_family("rules", fam, r.span));
        }
    }
    if !rule_based {
        for e in &evidence {
            cx.errors.push(not_in_family("evidence", fam, e.span));
        }
        for e in &excludes {
            cx.errors.push(not_in_family("exclude", fam, e.span));
        }
    }
    let setting = match fam {
        Family::MeetingAllocation => {
            Setting::Meeting(super::setting::meeting(&mut cx, &rooms, &meetings))
        }
        Family::JiraAllocation => Setting::Jira(super::setting::jira(&mut cx, &people, &tickets)),
        Family::SeverityClassification | Family::PolicyDecision => {
            let (decisions, block) = if fam == Family::PolicyDecision {
                (outcomes.get(), rules.get())
            } else {
                (levels.get(), rubric.get())
            };
            match super::setting::severity(
                &mut cx, &container, sc.id.span, decisions, &evidence, block, &excludes,
            ) {
                Some(s) => Setting::Severity(s),
                None => return Err(cx.errors),
            }
        }
    };

    let executor_id = match executor.get() {
        Some(i) => cx.person(i),
        None => {
            cx.errors.push(missing(
                "executor",
                &container,
                sc.id.span,
                Some("name the person who must produce the decision: `executor <person>`".into()),
            ));
            None
        }
    };

    let in_force = norms.clone().unwrap_or_else(super::norm::default_norms);
    let purpose_name = purpose
        .get()
        .map_or(super::norm::default_purpose(fam), |p| p.name.as_str());
    let mut attrs = Vec::new();
    let mut attr_names = Names::default();
    for a in &attributes {
        if !attr_names.declare("attribute", &a.id, &mut cx.errors) {
            continue;
        }
        if let Some(attr) = super::facts::attribute(&mut cx, a, people.len()) {
            let attr = match executor_id {
                Some(executor) => {
                    let env = super::norm::Env {
                        norms: &in_force,
                        people: &people,
                        executor,
                        purpose: purpose_name,
                    };
                    super::facts::derive_visibility(attr, &env, a)
                }
                None => attr,
            };
            attrs.push(attr);
        }
    }

    let decision = match oracle.get() {
        Some(o) => super::oracle::oracle(&mut cx, o, &setting),
        None => {
            cx.errors.push(missing(
                "oracle",
                &container,
                sc.id.span,
                Some("state the one decision the scenario is written backwards from".into()),
            ));
            None
        }
    };

    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let (Some(executor), Some(oracle_decision), Some(oracle_ast)) =
        (executor_id, decision, oracle.get())
    else {
        return Err(cx.errors);
    };
    let oracle_entries = entry_spans(oracle_ast, &setting);
    Ok(Scenario {
        id: sc.id.name.clone(),
        source: sc.span.source,
        span: sc.span,
        id_span: sc.id.span,
        family: fam,
        title: title.get().map(|s| s.value.clone()).unwrap_or_default(),
        task: task.get().map(|s| s.value.clone()).unwrap_or_default(),
        recipient: recipient.get().map(|s| s.value.clone()),
        public,
        policy: policy.get().map(|s| s.value.clone()),
        purpose: purpose.get().map(|p| p.name.clone()),
        norms,
        executor,
        people,
        setting,
        attributes: attrs,
        oracle_entries,
        oracle: oracle_decision,
        oracle_span: oracle_ast.span,
    })
}

/// The span of the oracle entry of each target, in the setting's order;
/// the whole oracle where a target has no entry of its own.
fn entry_spans(o: &crate::syntax::ast::OracleAst, setting: &Setting) -> Vec<crate::span::Span> {
    let ids: Vec<&str> = match setting {
        Setting::Meeting(ms) => ms.meetings.iter().map(|m| m.id.as_str()).collect(),
        Setting::Jira(js) => js.tickets.iter().map(|t| t.id.as_str()).collect(),
        Setting::Severity(_) => return vec![o.span],
    };
    let crate::syntax::ast::OracleBody::Entries(entries) = &o.body else {
        return vec![o.span; ids.len()];
    };
    ids.iter()
        .map(|id| {
            entries
                .iter()
                .find(|e| e.target.name == *id)
                .map_or(o.span, |e| e.span)
        })
        .collect()
}
