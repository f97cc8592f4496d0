//! How a text words a fact: the phrases of its arguments and the name of
//! the person it is about. The symbolic generator replaces these phrases
//! when it changes a fact, and the critic looks for them in the text of a
//! changed fact; both read them here, so the critic knows no generator.

use crate::sema::{
    JiraPredicate, MeetingPredicate, MeetingSetting, Predicate, RulePredicate, Scenario, Setting,
    Slot,
};

/// The phrases a text may use for a fact's arguments: `Tuesday from 10 to
/// 11`, `Tuesday 10-11`, `Tuesday`, `10-11`, room names, hours, evidence
/// values. A fact of another family than the scenario's has none.
pub(crate) fn phrases(sc: &Scenario, p: &Predicate) -> Vec<String> {
    match (p, &sc.setting) {
        (Predicate::Meeting(p), Setting::Meeting(ms)) => meeting_phrases(ms, p),
        (Predicate::Jira(p), Setting::Jira(_)) => match p {
            JiraPredicate::Capacity { hours, .. } => vec![hours.to_string()],
            JiraPredicate::CannotOwn { .. }
            | JiraPredicate::NoSensitive { .. }
            | JiraPredicate::CannotPair { .. }
            | JiraPredicate::NoHighPriority { .. }
            | JiraPredicate::NoCollaborationHeavy { .. }
            | JiraPredicate::CannotBeSoleOwner { .. }
            | JiraPredicate::Unavailable { .. } => Vec::new(),
        },
        (Predicate::Rule(p), Setting::Rule(ss)) => match p {
            RulePredicate::Evidence { variable, value } => {
                vec![ss.evidence[*variable].values[*value].replace('_', " ")]
            }
            RulePredicate::Toward { .. } => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn meeting_phrases(ms: &MeetingSetting, p: &MeetingPredicate) -> Vec<String> {
    match p {
        MeetingPredicate::Unavailable { slot, .. }
        | MeetingPredicate::NotBefore { slot, .. }
        | MeetingPredicate::NotAfter { slot, .. } => slot_phrases(slot),
        MeetingPredicate::AvoidRoom { room, .. } => {
            let r = &ms.rooms[*room];
            r.name
                .iter()
                .cloned()
                .chain(std::iter::once(r.id.clone()))
                .collect()
        }
        MeetingPredicate::NeedsFeature { .. }
        | MeetingPredicate::Attends { .. }
        | MeetingPredicate::RequiresFeature { .. }
        | MeetingPredicate::WithinHours { .. }
        | MeetingPredicate::Before { .. } => Vec::new(),
    }
}

/// A slot in words, as day and time, as day, as time; then every other
/// spelling a generated text may give it (`between 10 and 11 on
/// Tuesday`), each at the same place for every slot, so that one slot's
/// spelling is replaced by the other's in the same words.
fn slot_phrases(s: &Slot) -> Vec<String> {
    let when = crate::phrasing::when(s);
    let (day, time) = when
        .split_once(' ')
        .map(|(d, t)| (d.to_string(), t.to_string()))
        .unwrap_or_default();
    let mut out = vec![crate::phrasing::when_words(s), when, day, time];
    for w in crate::phrasing::slot_words(s) {
        out.extend([w.at_when, w.when]);
    }
    out
}

/// The name by which texts refer to the person a fact is about, if any.
pub fn subject_name(sc: &Scenario, p: &Predicate) -> Option<String> {
    let person = p.subject()?;
    crate::words::leading_word(&sc.people[person].name).map(str::to_string)
}
