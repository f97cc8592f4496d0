//! The oracle block, resolved against the decision space of its family.

use super::error::ResolveError;
use super::resolve::Cx;
use super::scenario::*;
use crate::syntax::{self as ast, OracleBody, OracleValue};

/// Resolves the oracle and checks that it lies in the decision space.
pub(super) fn oracle(cx: &mut Cx, o: &ast::OracleAst, setting: &Setting) -> Option<Decision> {
    let outside = |reason: String, span: crate::span::Span, help: Option<String>| {
        ResolveError::OracleOutside {
            reason,
            span: span.into(),
            help,
        }
    };
    match (setting, &o.body) {
        (Setting::Severity(_), OracleBody::Level(l)) => cx.level(l).map(Decision::Severity),
        (Setting::Severity(_), OracleBody::Entries(_)) => {
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
            let mut placements: Vec<Option<(Placement, crate::span::Span)>> =
                vec![None; ms.meetings.len()];
            let mut ok = true;
            for e in entries {
                let Some(m) = cx.meeting(&e.target) else {
                    ok = false;
                    continue;
                };
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
                    ok = false;
                    continue;
                };
                let Some(r) = cx.room(room) else {
                    ok = false;
                    continue;
                };
                if meeting.slots.is_empty() || meeting.rooms.is_empty() {
                    // Already reported as an empty list.
                    ok = false;
                    continue;
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
                    ok = false;
                    continue;
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
                    ok = false;
                    continue;
                }
                if let Some((_, first)) = placements[m] {
                    cx.errors.push(ResolveError::DuplicateStatement {
                        what: format!("oracle entry for `{}`", meeting.id),
                        span: e.span.into(),
                        first: first.into(),
                    });
                    ok = false;
                    continue;
                }
                placements[m] = Some((Placement { slot: si, room: r }, e.span));
            }
            for (m, p) in placements.iter().enumerate() {
                if p.is_none() && ok {
                    cx.errors.push(outside(
                        format!("meeting `{}` has no placement", ms.meetings[m].id),
                        o.span,
                        Some(format!("add `{} -> <slot> @ <room>`", ms.meetings[m].id)),
                    ));
                }
            }
            let all: Option<Vec<Placement>> =
                placements.into_iter().map(|p| p.map(|(p, _)| p)).collect();
            if ok {
                all.map(Decision::Meeting)
            } else {
                None
            }
        }
        (Setting::Jira(js), OracleBody::Entries(entries)) => {
            let mut assignments: Vec<Option<(Assignment, crate::span::Span)>> =
                vec![None; js.tickets.len()];
            let mut ok = true;
            for e in entries {
                let Some(t) = cx.ticket(&e.target) else {
                    ok = false;
                    continue;
                };
                let ticket = &js.tickets[t];
                let OracleValue::People(owner, collab) = &e.value else {
                    cx.errors.push(outside(
                        format!("`{}` is a ticket and needs an owner", e.target.name),
                        e.span,
                        Some(format!("write `{} -> <person>`", e.target.name)),
                    ));
                    ok = false;
                    continue;
                };
                let owner = cx.person(owner);
                let collaborator = collab.as_ref().map(|c| cx.person(c));
                let (Some(owner), Some(collaborator)) =
                    (owner, collaborator.map_or(Some(None), |c| c.map(Some)))
                else {
                    ok = false;
                    continue;
                };
                match (ticket.pair, collaborator) {
                    (true, None) => {
                        cx.errors.push(outside(
                            format!("`{}` is a pair ticket and needs a collaborator", ticket.id),
                            e.span,
                            Some(format!("write `{} -> <owner> + <collaborator>`", ticket.id)),
                        ));
                        ok = false;
                        continue;
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
                        ok = false;
                        continue;
                    }
                    _ => {}
                }
                if let Some((_, first)) = assignments[t] {
                    cx.errors.push(ResolveError::DuplicateStatement {
                        what: format!("oracle entry for `{}`", ticket.id),
                        span: e.span.into(),
                        first: first.into(),
                    });
                    ok = false;
                    continue;
                }
                assignments[t] = Some((
                    Assignment {
                        owner,
                        collaborator,
                    },
                    e.span,
                ));
            }
            for (t, a) in assignments.iter().enumerate() {
                if a.is_none() && ok {
                    cx.errors.push(outside(
                        format!("ticket `{}` has no owner", js.tickets[t].id),
                        o.span,
                        Some(format!("add `{} -> <person>`", js.tickets[t].id)),
                    ));
                }
            }
            let all: Option<Vec<Assignment>> =
                assignments.into_iter().map(|a| a.map(|(a, _)| a)).collect();
            if ok {
                all.map(Decision::Jira)
            } else {
                None
            }
        }
    }
}
