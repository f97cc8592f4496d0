//! Facts evaluated directly on one concrete decision, with no encoding in
//! between: what the generators (`planted`, the counterfactual mutations)
//! ask when they pick a fact that rules a decision out and keeps another,
//! and the words the analyses give for an oracle that breaks the public
//! constraints.
//!
//! This is product code. The reference the analyses are tested against is
//! written apart, in the tests (`tests/it/reference.rs`), and shares nothing
//! with this module or the model.

use crate::sema::*;

/// Why a decision breaks the public constraints, in words; empty if it does not.
pub fn public_violations(sc: &Scenario, decision: &Decision) -> Vec<String> {
    check(sc, decision, &[]).err().unwrap_or_default()
}

/// Whether the decision is allowed by the public constraints plus `facts`.
/// For severity, whether some completion of the unknowns consistent with the
/// facts gets the decision's level.
pub fn allowed(sc: &Scenario, decision: &Decision, facts: &[&Predicate]) -> bool {
    check(sc, decision, facts).is_ok()
}

fn check(sc: &Scenario, decision: &Decision, facts: &[&Predicate]) -> Result<(), Vec<String>> {
    let mut why = Vec::new();
    let of_family = |f: &&&Predicate| match &sc.setting {
        Setting::Meeting(_) => f.meeting().is_some(),
        Setting::Jira(_) => f.jira().is_some(),
        Setting::Rule(_) => f.rule().is_some(),
    };
    if let Some(f) = facts.iter().find(|f| !of_family(f)) {
        return Err(vec![format!("{f:?} is a fact of another family")]);
    }
    match (&sc.setting, decision) {
        (Setting::Meeting(ms), Decision::Meeting(ps)) => {
            let facts: Vec<&MeetingPredicate> = facts.iter().filter_map(|f| f.meeting()).collect();
            meeting(sc, ms, ps, &facts, &mut why)
        }
        (Setting::Jira(js), Decision::Jira(asg)) => {
            let facts: Vec<&JiraPredicate> = facts.iter().filter_map(|f| f.jira()).collect();
            jira(sc, js, asg, &facts, &mut why)
        }
        (Setting::Rule(ss), Decision::Rule(level)) => {
            if !severity_levels(ss, facts).contains(level) {
                why.push(format!(
                    "no completion of the evidence gives `{}`",
                    ss.levels[*level].id
                ));
            }
        }
        _ => why.push("the decision is of another family".into()),
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(why)
    }
}

fn meeting(
    sc: &Scenario,
    ms: &MeetingSetting,
    ps: &[Placement],
    facts: &[&MeetingPredicate],
    why: &mut Vec<String>,
) {
    let meetings = &ms.meetings;
    let mut attendees: Vec<Vec<PersonId>> = meetings.iter().map(|m| m.attendees.clone()).collect();
    for f in facts {
        if let MeetingPredicate::Attends { person, meeting } = f {
            if !attendees[*meeting].contains(person) {
                attendees[*meeting].push(*person);
            }
        }
    }
    let slot = |m: usize| meetings[m].slots[ps[m].slot];
    for (m, p) in ps.iter().enumerate() {
        let room = &ms.rooms[p.room];
        let name = &meetings[m].id;
        if !meetings[m].rooms.contains(&p.room) || p.slot >= meetings[m].slots.len() {
            why.push(format!("`{name}` is placed outside its candidates"));
        }
        if (room.capacity as usize) < attendees[m].len() {
            why.push(format!(
                "`{}` holds {} but `{name}` has {} attendees",
                room.id,
                room.capacity,
                attendees[m].len()
            ));
        }
        for f in &meetings[m].features {
            if !room.features.contains(f) {
                why.push(format!("`{name}` needs `{f}`, which `{}` lacks", room.id));
            }
        }
    }
    for m1 in 0..ps.len() {
        for m2 in m1 + 1..ps.len() {
            if !slot(m1).overlaps(&slot(m2)) {
                continue;
            }
            if ps[m1].room == ps[m2].room {
                why.push(format!(
                    "`{}` and `{}` overlap in `{}`",
                    meetings[m1].id, meetings[m2].id, ms.rooms[ps[m1].room].id
                ));
            }
            for p in &attendees[m1] {
                if attendees[m2].contains(p) {
                    why.push(format!(
                        "{} attends both `{}` and `{}`, which overlap",
                        sc.people[*p].id, meetings[m1].id, meetings[m2].id
                    ));
                }
            }
        }
    }
    for f in facts {
        let broken = match f {
            MeetingPredicate::Unavailable { person, slot: s } => {
                (0..ps.len()).any(|m| attendees[m].contains(person) && slot(m).overlaps(s))
            }
            MeetingPredicate::AvoidRoom { person, room } => {
                (0..ps.len()).any(|m| attendees[m].contains(person) && ps[m].room == *room)
            }
            MeetingPredicate::NeedsFeature { meeting, feature } => {
                !ms.rooms[ps[*meeting].room].features.contains(feature)
            }
            MeetingPredicate::NotBefore { meeting, slot: s } => {
                slot(*meeting).week_start() < s.week_start()
            }
            MeetingPredicate::NotAfter { meeting, slot: s } => {
                slot(*meeting).week_end() > s.week_end()
            }
            MeetingPredicate::RequiresFeature { person, feature } => (0..ps.len()).any(|m| {
                attendees[m].contains(person) && !ms.rooms[ps[m].room].features.contains(feature)
            }),
            MeetingPredicate::WithinHours {
                person,
                earliest,
                latest,
            } => (0..ps.len()).any(|m| {
                let s = slot(m);
                attendees[m].contains(person)
                    && (u32::from(s.start) < earliest * 60 || u32::from(s.end) > latest * 60)
            }),
            MeetingPredicate::Before { first, second } => {
                slot(*first).week_end() > slot(*second).week_start()
            }
            // An attendee more is no way to break a decision: it adds to whom
            // the other facts apply.
            MeetingPredicate::Attends { .. } => false,
        };
        if broken {
            why.push(format!("breaks {f:?}"));
        }
    }
}

fn jira(
    sc: &Scenario,
    js: &JiraSetting,
    asg: &[Assignment],
    facts: &[&JiraPredicate],
    why: &mut Vec<String>,
) {
    for (t, a) in asg.iter().enumerate() {
        let ticket = &js.tickets[t];
        for (seat, p) in std::iter::once(a.owner).chain(a.collaborator).enumerate() {
            let Some((skill, _)) = ticket.seat(seat) else {
                continue;
            };
            if !sc.people[p].skills.iter().any(|s| s == skill) {
                why.push(format!(
                    "{} lacks `{skill}` for `{}`",
                    sc.people[p].id, ticket.id
                ));
            }
        }
        if a.collaborator == Some(a.owner) {
            why.push(format!(
                "`{}` has the same owner and collaborator",
                ticket.id
            ));
        }
        if ticket.pair != a.collaborator.is_some() {
            why.push(format!("`{}` has the wrong number of people", ticket.id));
        }
    }
    let on = |t: usize, p: PersonId| asg[t].owner == p || asg[t].collaborator == Some(p);
    for f in facts {
        let broken = match f {
            JiraPredicate::Capacity { person, hours } => {
                let load: u64 = (0..asg.len())
                    .map(|t| {
                        let ticket = &js.tickets[t];
                        let own = if asg[t].owner == *person {
                            ticket.hours
                        } else {
                            0
                        };
                        let second = if asg[t].collaborator == Some(*person) {
                            ticket.second_seat().map_or(0, |(_, h)| h)
                        } else {
                            0
                        };
                        u64::from(own) + u64::from(second)
                    })
                    .sum();
                load > u64::from(*hours)
            }
            JiraPredicate::NoHighPriority { person } => (0..asg.len()).any(|t| {
                js.tickets[t].priority == Some(crate::sema::Priority::High) && on(t, *person)
            }),
            JiraPredicate::NoCollaborationHeavy { person } => (0..asg.len()).any(|t| {
                (js.tickets[t].collaboration_heavy || js.tickets[t].pair) && on(t, *person)
            }),
            JiraPredicate::CannotBeSoleOwner { person } => {
                (0..asg.len()).any(|t| !js.tickets[t].pair && on(t, *person))
            }
            JiraPredicate::CannotOwn { person, ticket } => asg[*ticket].owner == *person,
            JiraPredicate::NoSensitive { person } => {
                (0..asg.len()).any(|t| js.tickets[t].sensitive && on(t, *person))
            }
            JiraPredicate::CannotPair { a, b } => {
                (0..asg.len()).any(|t| on(t, *a) && on(t, *b) && a != b)
            }
            JiraPredicate::Unavailable { person } => (0..asg.len()).any(|t| on(t, *person)),
        };
        if broken {
            why.push(format!("breaks {f:?}"));
        }
    }
}

/// The levels that some completion consistent with the facts gets; facts
/// of another family say nothing of a rule setting.
pub fn severity_levels(ss: &RuleSetting, facts: &[&Predicate]) -> Vec<LevelId> {
    let mut fixed: Vec<Vec<usize>> = ss
        .evidence
        .iter()
        .map(|e| (0..e.values.len()).collect())
        .collect();
    let mut toward: Option<Vec<LevelId>> = None;
    for f in facts.iter().filter_map(|f| f.rule()) {
        match f {
            RulePredicate::Evidence { variable, value } => fixed[*variable].retain(|v| v == value),
            RulePredicate::Toward { level } => toward
                .get_or_insert_with(|| vec![*level])
                .retain(|l| l == level),
        }
    }
    let mut levels = Vec::new();
    let mut values = vec![0usize; fixed.len()];
    let mut idx = vec![0usize; fixed.len()];
    if fixed.iter().any(Vec::is_empty) {
        return levels;
    }
    loop {
        for (i, d) in fixed.iter().enumerate() {
            values[i] = d[idx[i]];
        }
        if let Some(level) = ss.rubric.level(&values).filter(|_| ss.valid(&values)) {
            if !levels.contains(&level) && toward.as_ref().is_none_or(|t| t.contains(&level)) {
                levels.push(level);
            }
        }
        // Next completion, odometer style.
        let mut i = 0;
        loop {
            if i == idx.len() {
                levels.sort_unstable();
                return levels;
            }
            idx[i] += 1;
            if idx[i] < fixed[i].len() {
                break;
            }
            idx[i] = 0;
            i += 1;
        }
    }
}
