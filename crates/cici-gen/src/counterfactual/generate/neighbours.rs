//! The same fact with other arguments: what the symbolic generator needs
//! to rewrite a fact (its texts are rewritten through `wording`). Each
//! family's predicates are matched in full, so a new predicate is a
//! compile error here until it says what it varies.

use crate::sema::{
    JiraPredicate, JiraSetting, MeetingPredicate, MeetingSetting, Predicate, RulePredicate,
    RuleSetting, Scenario, Setting, Slot,
};

/// The same fact with other arguments and the same subject: other hours,
/// another ticket, slot, room or feature, another evidence value. A fact of
/// another family than the scenario's has none.
pub(crate) fn argument_mutations(sc: &Scenario, old: &Predicate) -> Vec<Predicate> {
    match (old, &sc.setting) {
        (Predicate::Meeting(p), Setting::Meeting(ms)) => meeting_mutations(ms, p)
            .into_iter()
            .map(Predicate::Meeting)
            .collect(),
        (Predicate::Jira(p), Setting::Jira(js)) => jira_mutations(js, p)
            .into_iter()
            .map(Predicate::Jira)
            .collect(),
        (Predicate::Rule(p), Setting::Rule(ss)) => rule_mutations(ss, p)
            .into_iter()
            .map(Predicate::Rule)
            .collect(),
        _ => Vec::new(),
    }
}

fn jira_mutations(js: &JiraSetting, old: &JiraPredicate) -> Vec<JiraPredicate> {
    match *old {
        JiraPredicate::Capacity { person, hours } => {
            let total: u64 = js.tickets.iter().map(|t| u64::from(t.hours) * 2).sum();
            // No one works 0 hours in prose: a capacity stays positive.
            (1..=total.min(60) as u32)
                .filter(|&h| h != hours)
                .map(|h| JiraPredicate::Capacity { person, hours: h })
                .collect()
        }
        JiraPredicate::CannotOwn { person, ticket } => (0..js.tickets.len())
            .filter(|&t| t != ticket)
            .map(|t| JiraPredicate::CannotOwn { person, ticket: t })
            .collect(),
        JiraPredicate::NoSensitive { .. }
        | JiraPredicate::CannotPair { .. }
        | JiraPredicate::NoHighPriority { .. }
        | JiraPredicate::NoCollaborationHeavy { .. }
        | JiraPredicate::CannotBeSoleOwner { .. }
        | JiraPredicate::Unavailable { .. } => Vec::new(),
    }
}

fn meeting_mutations(ms: &MeetingSetting, old: &MeetingPredicate) -> Vec<MeetingPredicate> {
    match old {
        MeetingPredicate::Unavailable { person, slot } => {
            let mut slots: Vec<Slot> = ms
                .meetings
                .iter()
                .flat_map(|m| m.slots.iter().copied())
                .collect();
            slots.sort();
            slots.dedup();
            slots
                .into_iter()
                .filter(|s| s != slot)
                .map(|s| MeetingPredicate::Unavailable {
                    person: *person,
                    slot: s,
                })
                .collect()
        }
        MeetingPredicate::AvoidRoom { person, room } => (0..ms.rooms.len())
            .filter(|r| r != room)
            .map(|r| MeetingPredicate::AvoidRoom {
                person: *person,
                room: r,
            })
            .collect(),
        MeetingPredicate::NeedsFeature { meeting, feature } => {
            let mut features: Vec<&String> = ms.rooms.iter().flat_map(|r| &r.features).collect();
            features.sort();
            features.dedup();
            features
                .into_iter()
                .filter(|f| *f != feature)
                .map(|f| MeetingPredicate::NeedsFeature {
                    meeting: *meeting,
                    feature: f.clone(),
                })
                .collect()
        }
        MeetingPredicate::Attends { .. }
        | MeetingPredicate::NotBefore { .. }
        | MeetingPredicate::NotAfter { .. }
        | MeetingPredicate::RequiresFeature { .. }
        | MeetingPredicate::WithinHours { .. }
        | MeetingPredicate::Before { .. } => Vec::new(),
    }
}

fn rule_mutations(ss: &RuleSetting, old: &RulePredicate) -> Vec<RulePredicate> {
    match *old {
        RulePredicate::Evidence { variable, value } => (0..ss.evidence[variable].values.len())
            .filter(|&v| v != value)
            .map(|v| RulePredicate::Evidence { variable, value: v })
            .collect(),
        RulePredicate::Toward { .. } => Vec::new(),
    }
}
