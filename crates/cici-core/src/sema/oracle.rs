//! The oracle block, resolved against the decision space of its family.

use super::cx::Cx;
use super::error::ResolveError;
use super::scenario::*;
use crate::span::Span;
use crate::syntax::{self as ast, OracleBody, OracleEntry, OracleValue};

fn outside(reason: String, span: Span, help: Option<String>) -> ResolveError {
    ResolveError::OracleOutside {
        reason,
        span: span.into(),
        help,
    }
}

/// Resolves the oracle and checks that it lies in the decision space.
pub(super) fn oracle(cx: &mut Cx, o: &ast::OracleAst, setting: &Setting) -> Option<Decision> {
    match (setting, &o.body) {
        (Setting::Rule(_), OracleBody::Level(l)) => cx.level(l).map(Decision::Rule),
        (Setting::Rule(_), OracleBody::Entries(_)) => {
            cx.errors.push(outside(
                "a severity oracle is one level".into(),
                o.span,
                Some("write `oracle <level>`".into()),
            ));
            None
        }
        (_, OracleBody::Level(_)) => {
            cx.errors.push(outside(
                "an allocation oracle is a block of assignments".into(),
                o.span,
                Some("write `oracle { <target> -> ... }`".into()),
            ));
            None
        }
        (Setting::Meeting(ms), OracleBody::Entries(entries)) => {
            let targets = Targets {
                ids: ms.meetings.iter().map(|m| m.id.clone()).collect(),
                missing: "has no placement",
                add: "-> <slot> @ <room>",
                what: "meeting",
            };
            let all = targets.resolve(cx, o.span, entries, |cx, e| meeting_entry(cx, ms, e))?;
            Some(Decision::Meeting(all))
        }
        (Setting::Jira(js), OracleBody::Entries(entries)) => {
            let targets = Targets {
                ids: js.tickets.iter().map(|t| t.id.clone()).collect(),
                missing: "has no owner",
                add: "-> <person>",
                what: "ticket",
            };
            let all = targets.resolve(cx, o.span, entries, |cx, e| jira_entry(cx, js, e))?;
            Some(Decision::Jira(all))
        }
    }
}

/// The targets of an allocation oracle (meetings or tickets), each of
/// which takes exactly one entry.
struct Targets {
    ids: Vec<String>,
    /// What a target without an entry lacks.
    missing: &'static str,
    /// What its entry would say after the target.
    add: &'static str,
    what: &'static str,
}

impl Targets {
    /// One value per target from the entries, each resolved by `entry`
    /// in order; a second entry for a target is an error, and so (when
    /// every entry resolved) is a target without one.
    fn resolve<T>(
        &self,
        cx: &mut Cx,
        span: Span,
        entries: &[OracleEntry],
        mut entry: impl FnMut(&mut Cx, &OracleEntry) -> Option<(usize, T)>,
    ) -> Option<Vec<T>> {
        let mut found: Vec<Option<(T, Span)>> = self.ids.iter().map(|_| None).collect();
        let mut ok = true;
        for e in entries {
            let Some((i, value)) = entry(cx, e) else {
                ok = false;
                continue;
            };
            if let Some((_, first)) = &found[i] {
                cx.errors.push(ResolveError::DuplicateStatement {
                    what: format!("oracle entry for `{}`", self.ids[i]),
                    span: e.span.into(),
                    first: (*first).into(),
                });
                ok = false;
                continue;
            }
            found[i] = Some((value, e.span));
        }
        for (i, f) in found.iter().enumerate() {
            if f.is_none() && ok {
                let id = &self.ids[i];
                cx.errors.push(outside(
                    format!("{} `{id}` {}", self.what, self.missing),
                    span,
                    Some(format!("add `{id} {}`", self.add)),
                ));
            }
        }
        let all: Option<Vec<T>> = found.into_iter().map(|f| f.map(|(v, _)| v)).collect();
        all.filter(|_| ok)
    }
}

/// One meeting's placement: a candidate slot and a candidate room.
fn meeting_entry(cx: &mut Cx, ms: &MeetingSetting, e: &OracleEntry) -> Option<(usize, Placement)> {
    let m = cx.meeting(&e.target)?;
    let meeting = &ms.meetings[m];
    let OracleValue::SlotRoom(slot, room) = &e.value else {
        cx.errors.push(outside(
            format!(
                "`{}` is a meeting and needs a slot and a room",
                e.target.name
            ),
            e.span,
            Some(format!("write `{} -> <slot> @ <room>`", e.target.name)),
        ));
        return None;
    };
    let r = cx.room(room)?;
    if meeting.slots.is_empty() || meeting.rooms.is_empty() {
        // Already reported as an empty list.
        return None;
    }
    let Some(si) = meeting.slots.iter().position(|s| *s == slot.slot) else {
        let list = meeting
            .slots
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        cx.errors.push(outside(
            format!(
                "`{}` is not a candidate slot of `{}`",
                slot.slot, meeting.id
            ),
            slot.span,
            Some(format!("its candidate slots are {list}")),
        ));
        return None;
    };
    if !meeting.rooms.contains(&r) {
        let list = meeting
            .rooms
            .iter()
            .map(|r| format!("`{}`", ms.rooms[*r].id))
            .collect::<Vec<_>>()
            .join(", ");
        cx.errors.push(outside(
            format!(
                "`{}` is not a candidate room of `{}`",
                room.name, meeting.id
            ),
            room.span,
            Some(format!("its candidate rooms are {list}")),
        ));
        return None;
    }
    Some((m, Placement { slot: si, room: r }))
}

/// One ticket's owner and, for a pair ticket, collaborator.
fn jira_entry(cx: &mut Cx, js: &JiraSetting, e: &OracleEntry) -> Option<(usize, Assignment)> {
    let t = cx.ticket(&e.target)?;
    let ticket = &js.tickets[t];
    let OracleValue::People(owner, collab) = &e.value else {
        cx.errors.push(outside(
            format!("`{}` is a ticket and needs an owner", e.target.name),
            e.span,
            Some(format!("write `{} -> <person>`", e.target.name)),
        ));
        return None;
    };
    let owner = cx.person(owner);
    let collaborator = collab.as_ref().map(|c| cx.person(c));
    let (Some(owner), Some(collaborator)) =
        (owner, collaborator.map_or(Some(None), |c| c.map(Some)))
    else {
        return None;
    };
    match (ticket.pair, collaborator) {
        (true, None) => {
            cx.errors.push(outside(
                format!("`{}` is a pair ticket and needs a collaborator", ticket.id),
                e.span,
                Some(format!("write `{} -> <owner> + <collaborator>`", ticket.id)),
            ));
            return None;
        }
        (false, Some(_)) => {
            cx.errors.push(outside(
                format!("`{}` is not a pair ticket and takes one owner", ticket.id),
                e.span,
                Some(format!(
                    "drop the `+ ...`, or mark `{}` as `pair`",
                    ticket.id
                )),
            ));
            return None;
        }
        _ => {}
    }
    Some((
        t,
        Assignment {
            owner,
            collaborator,
        },
    ))
}

/// The span of the oracle entry of each target, in the setting's order;
/// the whole oracle where a target has no entry of its own.
pub(super) fn entry_spans(
    o: &crate::syntax::ast::OracleAst,
    setting: &Setting,
) -> Vec<crate::span::Span> {
    let ids: Vec<&str> = match setting {
        Setting::Meeting(ms) => ms.meetings.iter().map(|m| m.id.as_str()).collect(),
        Setting::Jira(js) => js.tickets.iter().map(|t| t.id.as_str()).collect(),
        Setting::Rule(_) => return vec![o.span],
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
