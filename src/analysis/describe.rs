//! Decisions and facts in words, for diagnostics and `cici explain`.

use crate::sema::{Decision, Predicate, Scenario, Setting};

/// One row per decision target: (`target`, `value`), e.g.
/// (`meet_001`, `wed 10:00-11:00 @ elm`).
pub fn decision_rows(sc: &Scenario, d: &Decision) -> Vec<(String, String)> {
    let person = |p: usize| sc.people[p].id.clone();
    match (&sc.setting, d) {
        (Setting::Meeting(ms), Decision::Meeting(ps)) => ps
            .iter()
            .zip(&ms.meetings)
            .map(|(p, m)| {
                (
                    m.id.clone(),
                    format!("{} @ {}", m.slots[p.slot], ms.rooms[p.room].id),
                )
            })
            .collect(),
        (Setting::Jira(js), Decision::Jira(asg)) => asg
            .iter()
            .zip(&js.tickets)
            .map(|(a, t)| {
                let value = match a.collaborator {
                    Some(c) => format!("{} + {}", person(a.owner), person(c)),
                    None => person(a.owner),
                };
                (t.id.clone(), value)
            })
            .collect(),
        (Setting::Severity(ss), Decision::Severity(l)) => {
            vec![("level".into(), ss.levels[*l].id.clone())]
        }
        _ => Vec::new(),
    }
}

/// Words for an id written with underscores: `needs_review` reads `needs review`.
pub fn words(id: &str) -> String {
    id.replace('_', " ")
}

/// The rows of a decision in the item's own words: meeting title, then day,
/// time and room name; ticket title, then owner (and collaborator) names;
/// or the level or outcome.
pub fn named_rows(sc: &Scenario, d: &Decision) -> Vec<(String, String)> {
    let name = |p: usize| sc.people[p].name.clone();
    match (&sc.setting, d) {
        (Setting::Meeting(ms), Decision::Meeting(ps)) => ps
            .iter()
            .zip(&ms.meetings)
            .map(|(p, m)| {
                let slot = m.slots[p.slot];
                let room = &ms.rooms[p.room];
                let time = slot.to_string();
                let time = time.split_once(' ').map_or(time.as_str(), |(_, t)| t);
                (
                    m.title.clone(),
                    format!(
                        "{} {time}, {}",
                        slot.day.name(),
                        room.name.clone().unwrap_or_else(|| room.id.clone())
                    ),
                )
            })
            .collect(),
        (Setting::Jira(js), Decision::Jira(asg)) => asg
            .iter()
            .zip(&js.tickets)
            .map(|(a, t)| {
                let value = match a.collaborator {
                    Some(c) => format!("{} with {}", name(a.owner), name(c)),
                    None => name(a.owner),
                };
                (t.title.clone(), value)
            })
            .collect(),
        (Setting::Severity(ss), Decision::Severity(l)) => {
            vec![(String::new(), words(&ss.levels[*l].id))]
        }
        _ => Vec::new(),
    }
}

/// The rows where two decisions differ, side by side under a header.
pub fn side_by_side(sc: &Scenario, oracle: &Decision, other: &Decision) -> String {
    let a = decision_rows(sc, oracle);
    let b = decision_rows(sc, other);
    let rows: Vec<(&str, &str, &str)> = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, y)| (x.0.as_str(), x.1.as_str(), y.1.as_str()))
        .collect();
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w1 = rows
        .iter()
        .map(|r| r.1.len())
        .max()
        .unwrap_or(0)
        .max("oracle".len());
    let mut out = format!("  {:w0$}  {:w1$}  also allowed", "", "oracle");
    for (t, x, y) in &rows {
        out.push_str(&format!("\n  {t:w0$}  {x:w1$}  {y}"));
    }
    let same = a.len() - rows.len();
    if same > 0 {
        out.push_str(&format!(
            "\n  ({same} other assignment{} the same)",
            if same == 1 { " is" } else { "s are" }
        ));
    }
    out
}

/// A fact in seed syntax, e.g. `unavailable(eli, tue 10:00-11:00)`.
pub fn describe_predicate(sc: &Scenario, p: &Predicate) -> String {
    let person = |i: usize| sc.people[i].id.as_str();
    let ms = sc.meeting_setting();
    let meeting = |i: usize| ms.map_or("?", |m| m.meetings[i].id.as_str());
    let room = |i: usize| ms.map_or("?", |m| m.rooms[i].id.as_str());
    let ticket = |i: usize| sc.jira_setting().map_or("?", |j| j.tickets[i].id.as_str());
    let ss = sc.severity_setting();
    match p {
        Predicate::Unavailable { person: p, slot } => {
            format!("unavailable({}, {slot})", person(*p))
        }
        Predicate::AvoidRoom { person: p, room: r } => {
            format!("avoid_room({}, {})", person(*p), room(*r))
        }
        Predicate::NeedsFeature {
            meeting: m,
            feature,
        } => format!("needs_feature({}, {feature})", meeting(*m)),
        Predicate::Attends {
            person: p,
            meeting: m,
        } => format!("attends({}, {})", person(*p), meeting(*m)),
        Predicate::NotBefore { meeting: m, slot } => format!("not_before({}, {slot})", meeting(*m)),
        Predicate::NotAfter { meeting: m, slot } => format!("not_after({}, {slot})", meeting(*m)),
        Predicate::Capacity { person: p, hours } => format!("capacity({}, {hours})", person(*p)),
        Predicate::CannotOwn {
            person: p,
            ticket: t,
        } => format!("cannot_own({}, {})", person(*p), ticket(*t)),
        Predicate::NoSensitive { person: p } => format!("no_sensitive({})", person(*p)),
        Predicate::CannotPair { a, b } => format!("cannot_pair({}, {})", person(*a), person(*b)),
        Predicate::Off { person: p } => format!("unavailable({})", person(*p)),
        Predicate::NoHighPriority { person: p } => format!("no_high_priority({})", person(*p)),
        Predicate::NoCollaborationHeavy { person: p } => {
            format!("no_collaboration_heavy({})", person(*p))
        }
        Predicate::CannotBeSoleOwner { person: p } => {
            format!("cannot_be_sole_owner({})", person(*p))
        }
        Predicate::RequiresFeature { person: p, feature } => {
            format!("requires_feature({}, {feature})", person(*p))
        }
        Predicate::WithinHours {
            person: p,
            earliest,
            latest,
        } => format!("within_hours({}, {earliest}, {latest})", person(*p)),
        Predicate::Before { first, second } => {
            format!("before({}, {})", meeting(*first), meeting(*second))
        }
        Predicate::Evidence { variable, value } => ss.map_or_else(String::new, |s| {
            let e = &s.evidence[*variable];
            format!("evidence({}, {})", e.id, e.values[*value])
        }),
        Predicate::Toward { level } => {
            ss.map_or_else(String::new, |s| format!("toward({})", s.levels[*level].id))
        }
    }
}
