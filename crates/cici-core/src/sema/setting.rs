//! The family declarations: rooms and meetings, tickets, levels, evidence
//! and the rubric.

use super::cx::{missing, Cx, Names, Once};
use super::error::ResolveError;
use super::scenario::*;
use super::ticket::{Priority, Seat, Ticket};
use crate::span::Span;
use crate::suggest::help_within;
use crate::syntax::{self as ast, Ident, MeetingItem, TicketItem};

pub(super) fn meeting(
    cx: &mut Cx,
    rooms: &[&ast::RoomAst],
    meetings: &[&ast::MeetingAst],
) -> MeetingSetting {
    let mut out = MeetingSetting {
        rooms: Vec::new(),
        meetings: Vec::new(),
    };
    for r in rooms {
        if cx.rooms.declare("room", &r.id, &mut cx.errors) {
            out.rooms.push(room(cx, r));
        }
    }
    for m in meetings {
        if cx.meetings.declare("meeting", &m.id, &mut cx.errors) {
            out.meetings.push(one_meeting(cx, m));
        }
    }
    out
}

/// A room; its features join the scenario's.
fn room(cx: &mut Cx, r: &ast::RoomAst) -> Room {
    let features: Vec<String> = r
        .features
        .as_ref()
        .map(|l| l.items.iter().map(|f| f.name.clone()).collect())
        .unwrap_or_default();
    for f in &features {
        if !cx.features.contains(f) {
            cx.features.push(f.clone());
        }
    }
    Room {
        id: r.id.name.clone(),
        name: r.name.as_ref().map(|s| s.value.clone()),
        capacity: cx.quantity(&r.capacity, "room capacity"),
        features,
        span: r.span,
    }
}

/// A meeting: its statements each once, attendees, slots and rooms
/// required, slots and rooms not empty.
fn one_meeting(cx: &mut Cx, m: &ast::MeetingAst) -> Meeting {
    let container = format!("meeting `{}`", m.id.name);
    let (mut attendees, mut slots, mut room_ids, mut features) = (
        Once::new("attendees"),
        Once::new("slots"),
        Once::new("rooms"),
        Once::new("features"),
    );
    for item in &m.items {
        match item {
            MeetingItem::Attendees(k, l) => attendees.set(l, k.span, &mut cx.errors),
            MeetingItem::Slots(k, l) => slots.set(l, k.span, &mut cx.errors),
            MeetingItem::Rooms(k, l) => room_ids.set(l, k.span, &mut cx.errors),
            MeetingItem::Features(k, l) => features.set(l, k.span, &mut cx.errors),
        }
    }
    let mut meeting = Meeting {
        id: m.id.name.clone(),
        title: m.title.value.clone(),
        attendees: Vec::new(),
        slots: Vec::new(),
        rooms: Vec::new(),
        features: Vec::new(),
        span: m.span,
    };
    match attendees.get() {
        Some(l) => {
            for p in &l.items {
                if let Some(p) = cx.person(p) {
                    if !meeting.attendees.contains(&p) {
                        meeting.attendees.push(p);
                    }
                }
            }
        }
        None => cx
            .errors
            .push(missing("attendees", &container, m.id.span, None)),
    }
    meeting.slots = meeting_slots(cx, m, &container, slots.get());
    meeting.rooms = meeting_rooms(cx, m, &container, room_ids.get());
    if let Some(l) = features.get() {
        for f in &l.items {
            if let Some(f) = cx.feature(f) {
                meeting.features.push(f);
            }
        }
    }
    meeting
}

/// A meeting's candidate slots, each once.
fn meeting_slots(
    cx: &mut Cx,
    m: &ast::MeetingAst,
    container: &str,
    listed: Option<&ast::List<ast::SlotLit>>,
) -> Vec<Slot> {
    let mut slots = Vec::new();
    match listed {
        Some(l) if l.items.is_empty() => cx.errors.push(ResolveError::EmptyDomain {
            what: format!("the slot list of `{}`", m.id.name),
            span: l.span.into(),
            help: Some("list at least one candidate slot".into()),
        }),
        Some(l) => {
            for s in &l.items {
                if !slots.contains(&s.slot) {
                    slots.push(s.slot);
                }
            }
        }
        None => cx.errors.push(missing("slots", container, m.id.span, None)),
    }
    slots
}

/// A meeting's candidate rooms, each once.
fn meeting_rooms(
    cx: &mut Cx,
    m: &ast::MeetingAst,
    container: &str,
    listed: Option<&ast::List<Ident>>,
) -> Vec<RoomId> {
    let mut rooms = Vec::new();
    match listed {
        Some(l) if l.items.is_empty() => cx.errors.push(ResolveError::EmptyDomain {
            what: format!("the room list of `{}`", m.id.name),
            span: l.span.into(),
            help: Some("list at least one candidate room".into()),
        }),
        Some(l) => {
            for r in &l.items {
                if let Some(r) = cx.room(r) {
                    if !rooms.contains(&r) {
                        rooms.push(r);
                    }
                }
            }
        }
        None => cx.errors.push(missing("rooms", container, m.id.span, None)),
    }
    rooms
}

pub(super) fn jira(cx: &mut Cx, people: &[Person], tickets: &[&ast::TicketAst]) -> JiraSetting {
    let skills: Vec<&str> = {
        let mut s: Vec<&str> = people
            .iter()
            .flat_map(|p| p.skills.iter().map(String::as_str))
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let mut out = JiraSetting {
        tickets: Vec::new(),
    };
    for t in tickets {
        if !cx.tickets.declare("ticket", &t.id, &mut cx.errors) {
            continue;
        }
        let container = format!("ticket `{}`", t.id.name);
        let (mut needs, mut hours, mut second, mut sensitive) = (
            Once::new("needs"),
            Once::new("hours"),
            Once::new("pair` or `with"),
            Once::new("sensitive"),
        );
        let (mut priority, mut heavy) = (Once::new("priority"), Once::new("collaboration_heavy"));
        for item in &t.items {
            match item {
                TicketItem::Needs(k, i) => needs.set(i, k.span, &mut cx.errors),
                TicketItem::Hours(k, i) => hours.set(i, k.span, &mut cx.errors),
                TicketItem::Pair(k) | TicketItem::With(k, _, _) => {
                    second.set(item, k.span, &mut cx.errors)
                }
                TicketItem::Priority(k, level) => priority.set(level, k.span, &mut cx.errors),
                TicketItem::CollaborationHeavy(k) => heavy.set(k, k.span, &mut cx.errors),
                TicketItem::Sensitive(k) => sensitive.set(k, k.span, &mut cx.errors),
            }
        }
        let known_skill = |cx: &mut Cx, skill: &Ident| {
            if skills.binary_search(&skill.name.as_str()).is_err() {
                let help = help_within(
                    &skill.name,
                    "skill",
                    skills.iter().copied(),
                    &mut cx.suggest,
                );
                cx.errors.push(ResolveError::UnknownSkill {
                    name: skill.name.clone(),
                    span: skill.span.into(),
                    help,
                });
            }
            skill.name.clone()
        };
        let needs = match needs.get() {
            Some(skill) => known_skill(cx, skill),
            None => {
                cx.errors
                    .push(missing("needs", &container, t.id.span, None));
                String::new()
            }
        };
        let hours = match hours.get() {
            Some(h) => cx.quantity(h, "ticket hours"),
            None => {
                cx.errors
                    .push(missing("hours", &container, t.id.span, None));
                0
            }
        };
        let with = match second.get() {
            Some(TicketItem::With(_, skill, h)) => Some(Seat {
                skill: known_skill(cx, skill),
                hours: cx.quantity(h, "ticket hours"),
            }),
            _ => None,
        };
        out.tickets.push(Ticket {
            id: t.id.name.clone(),
            title: t.title.value.clone(),
            needs,
            hours,
            pair: second.get().is_some(),
            with,
            priority: priority.get().and_then(|l| Priority::from_name(&l.name)),
            collaboration_heavy: heavy.get().is_some(),
            sensitive: sensitive.get().is_some(),
            span: t.span,
        });
    }
    out
}

pub(super) fn severity(
    cx: &mut Cx,
    container: &str,
    id_span: Span,
    levels: Option<&ast::List<Ident>>,
    evidence: &[&ast::EvidenceAst],
    rubric: Option<&ast::RubricAst>,
    excludes: &[&ast::ExcludeAst],
) -> Option<RuleSetting> {
    let policy = cx.family == Family::PolicyDecision;
    let (list_kw, block_kw, word) = if policy {
        ("outcomes", "rules", "outcome")
    } else {
        ("levels", "rubric", "level")
    };
    let level_list = level_list(cx, (list_kw, word), container, id_span, levels);
    let vars: Vec<Evidence> = evidence
        .iter()
        .filter_map(|e| evidence_variable(cx, e))
        .collect();
    let rubric = match rubric {
        None => {
            cx.errors.push(missing(block_kw, container, id_span, None));
            return None;
        }
        Some(r) => r,
    };
    let excludes: Vec<Exclusion> = excludes
        .iter()
        .filter_map(|e| {
            Some(Exclusion {
                when: condition(cx, &e.when)?,
                span: e.span,
            })
        })
        .collect();
    let mut rules = Vec::new();
    for rule in &rubric.rules {
        let level = cx.level(&rule.level);
        let when = condition(cx, &rule.when);
        if let (Some(level), Some(when)) = (level, when) {
            rules.push(RubricRule {
                level,
                when,
                span: rule.span,
            });
        }
    }
    let otherwise = match &rubric.otherwise {
        Some(o) => Some(cx.level(o)?),
        None if policy => None,
        None => {
            cx.errors.push(missing(
                "otherwise",
                "the rubric",
                rubric.span,
                Some("end the rubric with `otherwise <level>`".into()),
            ));
            return None;
        }
    };
    Some(RuleSetting {
        kind: if policy {
            RuleKind::Policy
        } else {
            RuleKind::Severity
        },
        levels: level_list,
        evidence: vars,
        rubric: Rubric {
            rules,
            otherwise,
            span: rubric.span,
        },
        excludes,
    })
}

/// The levels (or outcomes, `word`) of a rule-based scenario, each
/// declared once; the list `list_kw` is required and not empty.
fn level_list(
    cx: &mut Cx,
    (list_kw, word): (&str, &'static str),
    container: &str,
    id_span: Span,
    levels: Option<&ast::List<Ident>>,
) -> Vec<Level> {
    let mut level_list = Vec::new();
    match levels {
        None => cx.errors.push(missing(list_kw, container, id_span, None)),
        Some(l) if l.items.is_empty() => cx.errors.push(ResolveError::EmptyDomain {
            what: format!("the `{list_kw}` list"),
            span: l.span.into(),
            help: Some(if cx.family == Family::PolicyDecision {
                "list the outcomes the decision can take".into()
            } else {
                "list the levels, most severe first".into()
            }),
        }),
        Some(l) => {
            for i in &l.items {
                if cx.levels.declare(word, i, &mut cx.errors) {
                    level_list.push(Level {
                        id: i.name.clone(),
                        span: i.span,
                    });
                }
            }
        }
    }
    level_list
}

/// An evidence variable and its values, each declared once; `None` when
/// the variable's name is taken.
fn evidence_variable(cx: &mut Cx, e: &ast::EvidenceAst) -> Option<Evidence> {
    if !cx
        .variables
        .declare("evidence variable", &e.variable, &mut cx.errors)
    {
        return None;
    }
    let mut values = Names::default();
    for v in &e.values.items {
        values.declare("evidence value", v, &mut cx.errors);
    }
    if values.order.is_empty() {
        cx.errors.push(ResolveError::EmptyDomain {
            what: format!("the value list of `{}`", e.variable.name),
            span: e.values.span.into(),
            help: Some("list the values the variable can take".into()),
        });
    }
    cx.values.push(values.order.clone());
    Some(Evidence {
        id: e.variable.name.clone(),
        values: values.order,
        span: e.span,
    })
}

fn condition(cx: &mut Cx, c: &ast::Cond) -> Option<Condition> {
    Some(match c {
        ast::Cond::Eq(var, val, _) | ast::Cond::Ne(var, val, _) => {
            let v = cx.variable(var)?;
            let x = cx.value(v, val)?;
            if matches!(c, ast::Cond::Eq(..)) {
                Condition::Eq(v, x)
            } else {
                Condition::Ne(v, x)
            }
        }
        ast::Cond::In(var, values, _) => {
            let v = cx.variable(var)?;
            let xs: Option<Vec<usize>> = values.items.iter().map(|x| cx.value(v, x)).collect();
            let mut xs = xs?;
            xs.sort_unstable();
            xs.dedup();
            Condition::In(v, xs)
        }
        ast::Cond::Not(inner) => Condition::Not(Box::new(condition(cx, inner)?)),
        ast::Cond::And(parts) | ast::Cond::Or(parts) => {
            let resolved: Vec<Option<Condition>> = parts.iter().map(|p| condition(cx, p)).collect();
            let parts: Option<Vec<Condition>> = resolved.into_iter().collect();
            if matches!(c, ast::Cond::And(_)) {
                Condition::And(parts?)
            } else {
                Condition::Or(parts?)
            }
        }
    })
}
