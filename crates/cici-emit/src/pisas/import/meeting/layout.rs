//! The calendar of a meeting bundle (`slots`, `rooms`, `meetings`, and
//! people's public availability) as the seed's rooms and meetings.

use std::collections::HashMap;

use super::super::cast::Cast;
use super::super::diagnostic::ImportError;
use super::super::json::{index_path, key_path, Report};
use super::super::names::identifier;
use crate::pisas::format::{MeetingEntry, RoomEntry, ScenarioFile, SlotEntry};
use crate::sema::*;
use crate::span::Span;

/// The setting as the bundle names it: slots, rooms and meetings by the
/// bundle's ids.
pub(super) struct Layout {
    pub slots: HashMap<String, Slot>,
    pub room_ids: HashMap<String, RoomId>,
    pub rooms: Vec<Room>,
    pub meeting_ids: HashMap<String, MeetingId>,
    pub meetings: Vec<Meeting>,
    /// Per meeting, the bundle's slot ids in candidate order.
    pub slot_keys: Vec<Vec<String>>,
}

/// A day by its name (`Monday`) or keyword (`mon`), in any case.
pub(super) fn day(name: &str) -> Option<Day> {
    let n = name.trim();
    Day::ALL
        .into_iter()
        .find(|d| n.eq_ignore_ascii_case(d.name()) || n.eq_ignore_ascii_case(d.keyword()))
}

/// Hours as a number (9.5) in minutes of the day.
pub(super) fn minutes(h: f64) -> Option<u16> {
    let m = (h * 60.0).round();
    (h.is_finite() && (0.0..=1440.0).contains(&m)).then_some(m as u16)
}

/// The calendar of `scenario.json`; `None` when it has no meeting.
pub(super) fn setting(scenario: &ScenarioFile, cast: &Cast, r: &mut Report) -> Option<Layout> {
    let slots = read_slots(scenario.slots.as_deref().unwrap_or_default(), r);
    let (rooms, room_ids) = read_rooms(scenario.rooms.as_deref().unwrap_or_default(), r);
    // People's public availability, where the bundle gives it.
    let available: HashMap<&str, Vec<&str>> = scenario
        .people
        .iter()
        .flatten()
        .filter_map(|p| {
            let slots = p.public_available_slots.as_ref()?;
            Some((p.id.as_str(), slots.iter().map(String::as_str).collect()))
        })
        .collect();
    let known = Known {
        cast,
        slots: &slots,
        room_ids: &room_ids,
        available: &available,
    };
    let mut meetings = Vec::new();
    let mut meeting_ids = HashMap::new();
    let mut slot_keys = Vec::new();
    for (i, m) in scenario.meetings.iter().flatten().enumerate() {
        let Some((meeting, keys)) = read_meeting(m, i, &known, r) else {
            continue;
        };
        meeting_ids.insert(m.id.clone(), meetings.len());
        slot_keys.push(keys);
        meetings.push(meeting);
    }
    (!meetings.is_empty()).then_some(Layout {
        slots,
        room_ids,
        rooms,
        meeting_ids,
        meetings,
        slot_keys,
    })
}

/// The bundle's slots by key.
fn read_slots(entries: &[SlotEntry], r: &mut Report) -> HashMap<String, Slot> {
    let mut slots = HashMap::new();
    for (i, s) in entries.iter().enumerate() {
        match (day(&s.day), minutes(s.start), minutes(s.end)) {
            (Some(day), Some(start), Some(end)) if start < end => {
                slots.insert(s.id.clone(), Slot { day, start, end });
            }
            _ => r.shape(
                &index_path("slots", i),
                "a slot {id, day, start, end} with hours of the day, start before end",
            ),
        }
    }
    slots
}

/// The bundle's rooms, and each one's index by key.
fn read_rooms(entries: &[RoomEntry], r: &mut Report) -> (Vec<Room>, HashMap<String, usize>) {
    let mut rooms = Vec::new();
    let mut room_ids = HashMap::new();
    for (i, room) in entries.iter().enumerate() {
        let Some(id) = identifier(&room.id) else {
            r.shape(
                &index_path("rooms", i),
                "a room {id, name, capacity, features}",
            );
            continue;
        };
        room_ids.insert(room.id.clone(), rooms.len());
        rooms.push(Room {
            id,
            name: room.name.clone(),
            capacity: room.capacity.min(u64::from(MAX_QUANTITY)) as u32,
            features: room.features.iter().filter_map(|f| identifier(f)).collect(),
            span: Span::DERIVED,
        });
    }
    (rooms, room_ids)
}

/// What a meeting's entries are looked up in.
struct Known<'a> {
    cast: &'a Cast,
    slots: &'a HashMap<String, Slot>,
    room_ids: &'a HashMap<String, usize>,
    available: &'a HashMap<&'a str, Vec<&'a str>>,
}

/// One meeting of the bundle with the keys of its candidate slots; `None`,
/// reported, when it has no id or no candidate left.
fn read_meeting(
    m: &MeetingEntry,
    i: usize,
    known: &Known,
    r: &mut Report,
) -> Option<(Meeting, Vec<String>)> {
    let path = index_path("meetings", i);
    let Some(id) = identifier(&m.id) else {
        r.shape(&path, "a meeting with an id");
        return None;
    };
    let attendee_keys: Vec<&str> = m
        .required_attendees
        .iter()
        .chain(&m.optional_attendees)
        .map(String::as_str)
        .collect();
    let mut attendees = Vec::new();
    for &p in &attendee_keys {
        match known.cast.keyed(p) {
            Some(p) if !attendees.contains(&p) => attendees.push(p),
            Some(_) => {}
            None => r.push(
                key_path(&path, "required_attendees"),
                ImportError::UnknownName {
                    kind: "person of the cast".into(),
                    name: p.into(),
                    help: None,
                },
            ),
        }
    }
    let (keys, candidate) = candidate_slots(m, &path, &attendee_keys, known, r);
    let mut candidate_rooms = Vec::new();
    for k in &m.candidate_rooms {
        match known.room_ids.get(k) {
            Some(&room) => candidate_rooms.push(room),
            None => r.push(
                key_path(&path, "candidate_rooms"),
                ImportError::UnknownName {
                    kind: "room of `rooms`".into(),
                    name: k.clone(),
                    help: None,
                },
            ),
        }
    }
    if candidate.is_empty() || candidate_rooms.is_empty() {
        r.shape(
            &path,
            "a meeting with at least one candidate slot and one candidate room",
        );
        return None;
    }
    let meeting = Meeting {
        id,
        title: m.title.clone().unwrap_or_else(|| m.id.clone()),
        attendees,
        slots: candidate,
        rooms: candidate_rooms,
        features: Vec::new(),
        span: Span::DERIVED,
    };
    Some((meeting, keys))
}

/// A meeting's candidate slots, with their keys: a slot some attendee is
/// publicly unavailable in is no candidate (when the bundle lists people's
/// `public_available_slots`), and the meeting runs from the slot's start
/// for its duration.
fn candidate_slots(
    m: &MeetingEntry,
    path: &str,
    attendee_keys: &[&str],
    known: &Known,
    r: &mut Report,
) -> (Vec<String>, Vec<Slot>) {
    let publicly_free = |slot: &str| {
        attendee_keys.iter().all(|k| {
            known
                .available
                .get(*k)
                .is_none_or(|slots: &Vec<&str>| slots.contains(&slot))
        })
    };
    let mut keys = Vec::new();
    let mut candidate = Vec::new();
    for s in &m.candidate_slots {
        if !publicly_free(s) {
            continue;
        }
        let Some(slot) = known.slots.get(s) else {
            r.push(
                key_path(path, "candidate_slots"),
                ImportError::UnknownName {
                    kind: "slot of `slots`".into(),
                    name: s.clone(),
                    help: None,
                },
            );
            continue;
        };
        let end = m
            .duration_minutes
            .map_or(slot.end, |d| {
                (slot.start as u64).saturating_add(d).min(1440) as u16
            })
            .max(slot.start + 1);
        keys.push(s.clone());
        candidate.push(Slot { end, ..*slot });
    }
    (keys, candidate)
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_are_read_by_name_or_keyword_and_nothing_else() {
        assert_eq!(super::day("Monday"), Some(super::Day::Mon));
        assert_eq!(super::day(" wed "), Some(super::Day::Wed));
        for other in ["Mo", "Mondays", "mön", "ñññ", "", "😀😀"] {
            assert_eq!(super::day(other), None, "{other}");
        }
    }
}
