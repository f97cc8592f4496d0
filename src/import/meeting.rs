//! Released meeting bundles (`oracle_schedule`) back into
//! `meeting_allocation` seeds.
//!
//! The release's meeting bundles state their setting as structure in
//! `scenario.json` (`slots`, `rooms`, `meetings`), which becomes the seed's
//! rooms and meetings; the attributes that restate it (the room inventory,
//! the meeting list) are listed under `public` in `import.json`. Every
//! hard private constraint is two attributes, the raw detail and its
//! sanitized operational form (`raw_trap_attr` links them): one cici
//! attribute with two forms, whose fact is the `hidden_solver_constraint`.
//! Decoys and irrelevant details state nothing.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::bundle::{oracle_text, written};
use super::cast::{bundle_scenario, labelled_form, Cast, Held};
use super::files::BundleFiles;
use super::json::{key_path, Report};
use super::names::identifier;
use super::{diagnostic::ImportError, map::AttributeSource, map::Written};
use crate::sema::*;
use crate::span::Span;

/// The setting as the bundle names it: slots, rooms and meetings by the
/// bundle's ids.
struct Layout {
    slots: HashMap<String, Slot>,
    room_ids: HashMap<String, RoomId>,
    rooms: Vec<Room>,
    meeting_ids: HashMap<String, MeetingId>,
    meetings: Vec<Meeting>,
    /// Per meeting, the bundle's slot ids in candidate order.
    slot_keys: Vec<Vec<String>>,
}

/// A day by its name (`Monday`) or keyword (`mon`), in any case.
fn day(name: &str) -> Option<Day> {
    let n = name.trim();
    Day::ALL
        .into_iter()
        .find(|d| n.eq_ignore_ascii_case(d.name()) || n.eq_ignore_ascii_case(d.keyword()))
}

/// Hours as a number (9.5) in minutes of the day.
fn minutes(v: &Value) -> Option<u16> {
    let h = v.as_f64()?;
    let m = (h * 60.0).round();
    (h.is_finite() && (0.0..=1440.0).contains(&m)).then_some(m as u16)
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn setting(scenario: &Value, cast: &Cast, r: &mut Report) -> Option<Layout> {
    let slots = read_slots(scenario, r);
    let (rooms, room_ids) = read_rooms(scenario, r);
    // People's public availability, where the bundle gives it.
    let available: HashMap<&str, Vec<&str>> = scenario["people"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let slots = p.get("public_available_slots")?;
            Some((p["id"].as_str()?, strings(slots)))
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
    for (i, m) in scenario["meetings"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some((key, meeting, keys)) = read_meeting(m, i, &known, r) else {
            continue;
        };
        meeting_ids.insert(key, meetings.len());
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
fn read_slots(scenario: &Value, r: &mut Report) -> HashMap<String, Slot> {
    let mut slots = HashMap::new();
    for (i, s) in scenario["slots"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let key = s["id"].as_str().unwrap_or_default();
        match (
            day(s["day"].as_str().unwrap_or_default()),
            minutes(&s["start"]),
            minutes(&s["end"]),
        ) {
            (Some(day), Some(start), Some(end)) if start < end => {
                slots.insert(key.to_string(), Slot { day, start, end });
            }
            _ => r.shape(
                &super::json::index_path("slots", i),
                "a slot {id, day, start, end} with hours of the day, start before end",
            ),
        }
    }
    slots
}

/// The bundle's rooms, and each one's index by key.
fn read_rooms(scenario: &Value, r: &mut Report) -> (Vec<Room>, HashMap<String, usize>) {
    let mut rooms = Vec::new();
    let mut room_ids = HashMap::new();
    for (i, room) in scenario["rooms"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let key = room["id"].as_str().unwrap_or_default();
        let (Some(id), Some(capacity)) = (identifier(key), room["capacity"].as_u64()) else {
            r.shape(
                &super::json::index_path("rooms", i),
                "a room {id, name, capacity, features}",
            );
            continue;
        };
        room_ids.insert(key.to_string(), rooms.len());
        rooms.push(Room {
            id,
            name: room["name"].as_str().map(str::to_string),
            capacity: capacity.min(u64::from(MAX_QUANTITY)) as u32,
            features: strings(&room["features"])
                .into_iter()
                .filter_map(identifier)
                .collect(),
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

/// One meeting of the bundle with its key and the keys of its candidate
/// slots; `None`, reported, when it has no id or no candidate left.
fn read_meeting(
    m: &Value,
    i: usize,
    known: &Known,
    r: &mut Report,
) -> Option<(String, Meeting, Vec<String>)> {
    let path = super::json::index_path("meetings", i);
    let key = m["id"].as_str().unwrap_or_default();
    let Some(id) = identifier(key) else {
        r.shape(&path, "a meeting with an id");
        return None;
    };
    let attendee_keys: Vec<&str> = strings(&m["required_attendees"])
        .into_iter()
        .chain(strings(&m["optional_attendees"]))
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
    for k in strings(&m["candidate_rooms"]) {
        match known.room_ids.get(k) {
            Some(&room) => candidate_rooms.push(room),
            None => r.push(
                key_path(&path, "candidate_rooms"),
                ImportError::UnknownName {
                    kind: "room of `rooms`".into(),
                    name: k.into(),
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
        title: m["title"].as_str().unwrap_or(key).to_string(),
        attendees,
        slots: candidate,
        rooms: candidate_rooms,
        features: Vec::new(),
        span: Span::DERIVED,
    };
    Some((key.to_string(), meeting, keys))
}

/// A meeting's candidate slots, with their keys: a slot some attendee is
/// publicly unavailable in is no candidate (when the bundle lists people's
/// `public_available_slots`), and the meeting runs from the slot's start
/// for its duration.
fn candidate_slots(
    m: &Value,
    path: &str,
    attendee_keys: &[&str],
    known: &Known,
    r: &mut Report,
) -> (Vec<String>, Vec<Slot>) {
    let duration = m["duration_minutes"].as_u64();
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
    for s in strings(&m["candidate_slots"]) {
        if !publicly_free(s) {
            continue;
        }
        let Some(slot) = known.slots.get(s) else {
            r.push(
                key_path(path, "candidate_slots"),
                ImportError::UnknownName {
                    kind: "slot of `slots`".into(),
                    name: s.into(),
                    help: None,
                },
            );
            continue;
        };
        let end = duration
            .map_or(slot.end, |d| (slot.start as u64 + d).min(1440) as u16)
            .max(slot.start + 1);
        keys.push(s.to_string());
        candidate.push(Slot { end, ..*slot });
    }
    (keys, candidate)
}

/// The fact of a `hidden_solver_constraint`.
fn constraint(c: &Value, cast: &Cast, s: &Layout, path: &str, r: &mut Report) -> Option<Predicate> {
    let unknown = |key: &str, kind: &str, r: &mut Report| {
        r.push(
            key_path(path, key),
            ImportError::UnknownName {
                kind: kind.into(),
                name: c[key]
                    .as_str()
                    .map_or_else(|| c[key].to_string(), str::to_string),
                help: None,
            },
        );
        None
    };
    let person = match cast.keyed(c["person"].as_str().unwrap_or_default()) {
        Some(p) => p,
        None => return unknown("person", "person of the cast", r),
    };
    let feature = |r: &mut Report| match c["room_feature"].as_str().and_then(identifier) {
        Some(f) => Some(f),
        None => {
            r.shape(&key_path(path, "room_feature"), "a room feature");
            None
        }
    };
    let meeting = |key: &str| {
        s.meeting_ids
            .get(c[key].as_str().unwrap_or_default())
            .copied()
    };
    let kind = c["type"].as_str().unwrap_or_default();
    Some(match kind {
        "person_unavailable" => match s.slots.get(c["slot_id"].as_str().unwrap_or_default()) {
            Some(&slot) => Predicate::Unavailable { person, slot },
            None => return unknown("slot_id", "slot of `slots`", r),
        },
        "requires_room_feature" => Predicate::RequiresFeature {
            person,
            feature: feature(r)?,
        },
        "meeting_requires_room_feature" => match meeting("meeting_id") {
            Some(meeting) => Predicate::NeedsFeature {
                meeting,
                feature: feature(r)?,
            },
            None => return unknown("meeting_id", "meeting of `meetings`", r),
        },
        "cannot_use_room" => match s.room_ids.get(c["room_id"].as_str().unwrap_or_default()) {
            Some(&room) => Predicate::AvoidRoom { person, room },
            None => return unknown("room_id", "room of `rooms`", r),
        },
        "timezone_boundary" => {
            let hour = |key: &str| {
                c[key]
                    .as_f64()
                    .filter(|h| h.fract() == 0.0 && (0.0..=24.0).contains(h))
                    .map(|h| h as u32)
            };
            match (hour("earliest_hour"), hour("latest_hour")) {
                (Some(earliest), Some(latest)) if earliest < latest => Predicate::WithinHours {
                    person,
                    earliest,
                    latest,
                },
                _ => {
                    r.shape(
                        path,
                        "whole hours `earliest_hour` < `latest_hour` between 0 and 24",
                    );
                    return None;
                }
            }
        }
        "meeting_ordering" => match (meeting("before_meeting_id"), meeting("after_meeting_id")) {
            (Some(first), Some(second)) => Predicate::Before { first, second },
            (None, _) => return unknown("before_meeting_id", "meeting of `meetings`", r),
            (_, None) => return unknown("after_meeting_id", "meeting of `meetings`", r),
        },
        "must_finish_before_deadline" => {
            let Some(m) = meeting("meeting_id") else {
                return unknown("meeting_id", "meeting of `meetings`", r);
            };
            match (
                day(c["deadline_day"].as_str().unwrap_or_default()),
                minutes(&c["deadline_hour"]),
            ) {
                // A slot that ends at the deadline: the meeting ends no later.
                (Some(day), Some(end)) if end > 0 => Predicate::NotAfter {
                    meeting: m,
                    slot: Slot { day, start: 0, end },
                },
                _ => {
                    r.shape(path, "a `deadline_day` and a `deadline_hour` after 0:00");
                    return None;
                }
            }
        }
        _ => {
            r.push(
                key_path(path, "type"),
                ImportError::UnknownName {
                    kind: "meeting constraint archetype".into(),
                    name: kind.into(),
                    help: Some("cici reads person_unavailable, requires_room_feature, meeting_requires_room_feature, cannot_use_room, timezone_boundary, meeting_ordering and must_finish_before_deadline".into()),
                },
            );
            return None;
        }
    })
}

/// What a public attribute restates, from its `about_attribute`.
fn restates(about: &str) -> String {
    let about = about.trim();
    if let Some(room) = about.strip_prefix("room ") {
        return format!("room {}", identifier(room).unwrap_or_default());
    }
    if let Some(m) = about.strip_prefix("requirements for ") {
        return format!("meeting {}", identifier(m).unwrap_or_default());
    }
    "the rooms and meetings".into()
}

/// A released meeting bundle as a `meeting_allocation` scenario.
pub fn from_bundle(files: &BundleFiles, source: &str, r: &mut Report) -> Option<Written> {
    let scenario = files.scenario.value.as_ref()?;
    let utility = files.utility.value.as_ref()?;
    let cast = Cast::read(scenario, r)?;
    let Some(s) = setting(scenario, &cast, r) else {
        r.shape(
            "",
            "`slots`, `rooms` and `meetings` in scenario.json, as the release's meeting bundles give them",
        );
        return None;
    };
    let Some(values) = utility["attribute_values"].as_object() else {
        r.shape("attribute_values", "the bundle's attributes, an object");
        return None;
    };
    // The appropriate operational twin of each raw constraint.
    let twins: HashMap<&str, &str> = values
        .iter()
        .filter_map(|(k, v)| Some((v["raw_trap_attr"].as_str()?, k.as_str())))
        .filter(|(raw, _)| values.contains_key(*raw))
        .collect();
    let mut public = BTreeMap::new();
    let mut held = Held::default();
    for (bid, v) in values {
        let path = key_path("attribute_values", bid);
        let Some(aid) = identifier(bid) else { continue };
        let kind = v["type"].as_str().unwrap_or_default();
        if kind == "public_source" {
            public.insert(
                bid.clone(),
                restates(v["about_attribute"].as_str().unwrap_or_default()),
            );
            continue;
        }
        if twins.values().any(|t| *t == bid) {
            continue; // the sanitized form of its raw twin
        }
        let hidden = &v["hidden_solver_constraint"];
        let fact = hidden
            .is_object()
            .then(|| {
                constraint(
                    hidden,
                    &cast,
                    &s,
                    &key_path(&path, "hidden_solver_constraint"),
                    r,
                )
            })
            .flatten();
        // The operational twin is the sanitized form; without one, a
        // rewrite an artifact carries.
        let sanitized = match twins.get(bid.as_str()) {
            Some(&twin) => {
                let twin_text = values[twin]["value"].as_str().unwrap_or_default();
                let form = labelled_form(
                    files,
                    &cast,
                    twin,
                    twin_text,
                    fact.iter().cloned().collect(),
                );
                if form.is_some() {
                    held.sources.insert(
                        format!("{aid}.sanitized"),
                        AttributeSource::Bundle(twin.to_string()),
                    );
                }
                form.map(|(_, f)| f)
            }
            None => v["sanitized_operational_constraint"]
                .as_str()
                .and_then(|text| {
                    held.carried_rewrite((files, scenario, &cast), bid, text, fact.as_ref())
                }),
        };
        let facts = if sanitized.is_some() {
            Vec::new()
        } else {
            fact.into_iter().collect()
        };
        held.push((files, &cast), bid, v, facts, sanitized);
    }
    let oracle = oracle(utility, &s, r)?;
    let setting = Setting::Meeting(MeetingSetting {
        rooms: s.rooms,
        meetings: s.meetings,
    });
    let sc = bundle_scenario(
        scenario,
        cast.people,
        (
            Family::MeetingAllocation,
            setting,
            Decision::Meeting(oracle),
        ),
        held.attributes,
        ("Meeting allocation", "Schedule every meeting."),
    );
    let mut w = written(&sc, source, BTreeMap::new(), oracle_text(&sc), held.sources);
    w.entry.public = public;
    Some(w)
}

/// `oracle_schedule` (meeting → {slot, room}) as one placement per meeting.
fn oracle(utility: &Value, s: &Layout, r: &mut Report) -> Option<Vec<Placement>> {
    let Some(given) = utility["oracle_schedule"].as_object() else {
        r.shape(
            "oracle_schedule",
            "the oracle schedule, {meeting: {slot, room}}",
        );
        return None;
    };
    let mut by_meeting: Vec<Option<Placement>> = vec![None; s.meetings.len()];
    for (key, p) in given {
        let path = key_path("oracle_schedule", key);
        let Some(&m) = s.meeting_ids.get(key) else {
            r.push(
                path,
                ImportError::UnknownName {
                    kind: "meeting of `meetings`".into(),
                    name: key.clone(),
                    help: None,
                },
            );
            continue;
        };
        let slot_key = p["slot"].as_str().unwrap_or_default();
        let room_key = p["room"].as_str().unwrap_or_default();
        let slot = s.slot_keys[m].iter().position(|k| k == slot_key);
        let room = s.room_ids.get(room_key).copied();
        match (slot, room) {
            (Some(slot), Some(room)) => by_meeting[m] = Some(Placement { slot, room }),
            (None, _) => r.push(
                key_path(&path, "slot"),
                ImportError::UnknownName {
                    kind: "candidate slot of the meeting".into(),
                    name: slot_key.into(),
                    help: None,
                },
            ),
            (_, None) => r.push(
                key_path(&path, "room"),
                ImportError::UnknownName {
                    kind: "room of `rooms`".into(),
                    name: room_key.into(),
                    help: None,
                },
            ),
        }
    }
    let mut out = Vec::new();
    for (m, p) in by_meeting.into_iter().enumerate() {
        match p {
            Some(p) => out.push(p),
            None => {
                r.shape(
                    "oracle_schedule",
                    &format!(
                        "a slot and room for every meeting; `{}` has none",
                        s.meetings[m].id
                    ),
                );
                return None;
            }
        }
    }
    Some(out)
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
