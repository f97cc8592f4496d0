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

mod constraint;
mod layout;

use std::collections::{BTreeMap, HashMap};

use super::bundle::{oracle_text, written};
use super::cast::{bundle_scenario, labelled_form, Cast, Held};
use super::json::{key_path, Report};
use super::names::identifier;
use super::{diagnostic::ImportError, map::AttributeSource, map::Written};
use crate::pisas::format::{AttributeValue, Bundle, UtilityFile};
use crate::sema::*;
use constraint::constraint;
use layout::Layout;

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
pub fn from_bundle(files: &Bundle, source: &str, r: &mut Report) -> Option<Written> {
    let (scenario, utility) = (&files.scenario, &files.utility);
    let cast = Cast::read(scenario, r)?;
    let Some(s) = layout::setting(scenario, &cast, r) else {
        r.shape(
            "",
            "`slots`, `rooms` and `meetings` in scenario.json, as the release's meeting bundles give them",
        );
        return None;
    };
    let values = &utility.attribute_values;
    // The appropriate operational twin of each raw constraint.
    let twins: HashMap<&str, &str> = values
        .iter()
        .filter_map(|(k, v)| Some((v.raw_trap_attr.as_deref()?, k.as_str())))
        .filter(|(raw, _)| values.contains_key(*raw))
        .collect();
    let mut public = BTreeMap::new();
    let mut held = Held::default();
    for (bid, v) in values {
        if v.kind.as_deref() == Some("public_source") {
            // What it is about is optional: "the rooms and meetings" then.
            let about = v.about_attribute.as_deref().unwrap_or_default();
            public.insert(bid.clone(), restates(about));
            continue;
        }
        if identifier(bid).is_none() || twins.values().any(|t| t == bid) {
            continue; // no id, or the sanitized form of its raw twin
        }
        let read = Read {
            files,
            cast: &cast,
            layout: &s,
            twins: &twins,
        };
        let (facts, sanitized) = read.held(bid, v, &mut held, r);
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
        (setting, Decision::Meeting(oracle)),
        held.attributes,
        ("Meeting allocation", "Schedule every meeting."),
    );
    let mut w = written(&sc, source, BTreeMap::new(), oracle_text(&sc), held.sources);
    w.entry.public = public;
    Some(w)
}

/// What an attribute someone holds is read against.
struct Read<'a> {
    files: &'a Bundle,
    cast: &'a Cast,
    layout: &'a Layout,
    twins: &'a HashMap<&'a str, &'a str>,
}

impl Read<'_> {
    /// The facts of held attribute `bid` and its sanitized form: the
    /// operational twin, else a rewrite an artifact carries. A sanitized
    /// form states the constraint in place of the raw one.
    fn held(
        &self,
        bid: &str,
        v: &AttributeValue,
        held: &mut Held,
        r: &mut Report,
    ) -> (Vec<Predicate>, Option<Form>) {
        let path = key_path("attribute_values", bid);
        let fact = v.hidden_solver_constraint.as_ref().and_then(|hidden| {
            let at = key_path(&path, "hidden_solver_constraint");
            constraint(hidden, self.cast, self.layout, &at, r)
        });
        let sanitized = match self.twins.get(bid) {
            Some(&twin) => self.twin(bid, twin, fact.as_ref(), held),
            None => v
                .sanitized_operational_constraint
                .as_deref()
                .and_then(|text| {
                    held.carried_rewrite((self.files, self.cast), bid, text, fact.as_ref())
                }),
        };
        let facts = if sanitized.is_some() {
            Vec::new()
        } else {
            fact.into_iter().collect()
        };
        (facts, sanitized)
    }

    /// The operational twin of `bid` as its sanitized form, stating `fact`.
    fn twin(
        &self,
        bid: &str,
        twin: &str,
        fact: Option<&Predicate>,
        held: &mut Held,
    ) -> Option<Form> {
        let text = &self.files.utility.attribute_values[twin].value;
        let form = labelled_form(
            self.files,
            self.cast,
            twin,
            text,
            fact.into_iter().cloned().collect(),
        );
        let aid = identifier(bid)?;
        if form.is_some() {
            held.sources.insert(
                format!("{aid}.sanitized"),
                AttributeSource::Bundle(twin.to_string()),
            );
        }
        form.map(|(_, f)| f)
    }
}

/// `oracle_schedule` (meeting → {slot, room}) as one placement per meeting.
fn oracle(utility: &UtilityFile, s: &Layout, r: &mut Report) -> Option<Vec<Placement>> {
    let Some(given) = &utility.oracle_schedule else {
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
        let (slot_key, room_key) = (p.slot.as_str(), p.room.as_str());
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
