//! The fact a meeting bundle's `hidden_solver_constraint` states, one
//! function per archetype.

use super::super::cast::Cast;
use super::super::diagnostic::ImportError;
use super::super::json::{key_path, Report};
use super::super::names::identifier;
use super::layout::{day, minutes, Layout};
use crate::pisas::format::HiddenConstraint;
use crate::sema::*;

/// What a constraint is read against, and where it stands.
struct At<'a> {
    c: &'a HiddenConstraint,
    s: &'a Layout,
    path: &'a str,
}

impl At<'_> {
    /// Reports that field `key` (with value `name`) names no `kind`.
    fn unknown<T>(&self, key: &str, name: Option<&str>, kind: &str, r: &mut Report) -> Option<T> {
        r.push(
            key_path(self.path, key),
            ImportError::UnknownName {
                kind: kind.into(),
                name: name.unwrap_or("null").into(),
                help: None,
            },
        );
        None
    }

    fn meeting(&self, key: &str, id: Option<&String>, r: &mut Report) -> Option<MeetingId> {
        match id.and_then(|m| self.s.meeting_ids.get(m)) {
            Some(&m) => Some(m),
            None => self.unknown(key, id.map(String::as_str), "meeting of `meetings`", r),
        }
    }

    fn feature(&self, r: &mut Report) -> Option<String> {
        let f = self.c.room_feature.as_deref().and_then(identifier);
        if f.is_none() {
            r.shape(&key_path(self.path, "room_feature"), "a room feature");
        }
        f
    }
}

/// The fact of a `hidden_solver_constraint` at `path`.
pub(super) fn constraint(
    c: &HiddenConstraint,
    cast: &Cast,
    s: &Layout,
    path: &str,
    r: &mut Report,
) -> Option<Predicate> {
    let at = At { c, s, path };
    let Some(person) = c.person.as_deref().and_then(|k| cast.keyed(k)) else {
        return at.unknown("person", c.person.as_deref(), "person of the cast", r);
    };
    match c.kind.as_str() {
        "person_unavailable" => match c.slot_id.as_ref().and_then(|k| s.slots.get(k)) {
            Some(&slot) => Some(Predicate::Meeting(MeetingPredicate::Unavailable {
                person,
                slot,
            })),
            None => at.unknown("slot_id", c.slot_id.as_deref(), "slot of `slots`", r),
        },
        "requires_room_feature" => Some(Predicate::Meeting(MeetingPredicate::RequiresFeature {
            person,
            feature: at.feature(r)?,
        })),
        "meeting_requires_room_feature" => {
            let meeting = at.meeting("meeting_id", c.meeting_id.as_ref(), r)?;
            Some(Predicate::Meeting(MeetingPredicate::NeedsFeature {
                meeting,
                feature: at.feature(r)?,
            }))
        }
        "cannot_use_room" => match c.room_id.as_ref().and_then(|k| s.room_ids.get(k)) {
            Some(&room) => Some(Predicate::Meeting(MeetingPredicate::AvoidRoom {
                person,
                room,
            })),
            None => at.unknown("room_id", c.room_id.as_deref(), "room of `rooms`", r),
        },
        "timezone_boundary" => within_hours(&at, person, r),
        "meeting_ordering" => {
            let first = at.meeting("before_meeting_id", c.before_meeting_id.as_ref(), r)?;
            let second = at.meeting("after_meeting_id", c.after_meeting_id.as_ref(), r)?;
            Some(Predicate::Meeting(MeetingPredicate::Before {
                first,
                second,
            }))
        }
        "must_finish_before_deadline" => deadline(&at, r),
        kind => {
            r.push(
                key_path(path, "type"),
                ImportError::UnknownName {
                    kind: "meeting constraint archetype".into(),
                    name: kind.into(),
                    help: Some("cici reads person_unavailable, requires_room_feature, meeting_requires_room_feature, cannot_use_room, timezone_boundary, meeting_ordering and must_finish_before_deadline".into()),
                },
            );
            None
        }
    }
}

/// `timezone_boundary`: whole hours, the earliest before the latest.
fn within_hours(at: &At, person: PersonId, r: &mut Report) -> Option<Predicate> {
    let hour = |h: Option<f64>| {
        h.filter(|h| h.fract() == 0.0 && (0.0..=24.0).contains(h))
            .map(|h| h as u32)
    };
    match (hour(at.c.earliest_hour), hour(at.c.latest_hour)) {
        (Some(earliest), Some(latest)) if earliest < latest => {
            Some(Predicate::Meeting(MeetingPredicate::WithinHours {
                person,
                earliest,
                latest,
            }))
        }
        _ => {
            r.shape(
                at.path,
                "whole hours `earliest_hour` < `latest_hour` between 0 and 24",
            );
            None
        }
    }
}

/// `must_finish_before_deadline`: a slot that ends at the deadline, which
/// the meeting ends no later than.
fn deadline(at: &At, r: &mut Report) -> Option<Predicate> {
    let meeting = at.meeting("meeting_id", at.c.meeting_id.as_ref(), r)?;
    let day = at.c.deadline_day.as_deref().and_then(day);
    match (day, at.c.deadline_hour.and_then(minutes)) {
        (Some(day), Some(end)) if end > 0 => Some(Predicate::Meeting(MeetingPredicate::NotAfter {
            meeting,
            slot: Slot { day, start: 0, end },
        })),
        _ => {
            r.shape(at.path, "a `deadline_day` and a `deadline_hour` after 0:00");
            None
        }
    }
}
