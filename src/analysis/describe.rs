//! Decisions and facts in words, for diagnostics and `cici explain`.

use crate::sema::{ArgValue, Decision, Predicate, Scenario, Setting};

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
    let args = p.args();
    let words: Vec<String> = args.iter().map(|a| arg_syntax(sc, a, &args)).collect();
    format!("{}({})", p.spec().name, words.join(", "))
}

/// One argument as the seed writes it: an id, a slot, a number.
fn arg_syntax(sc: &Scenario, a: &ArgValue, all: &[ArgValue]) -> String {
    let ms = sc.meeting_setting();
    let ss = sc.severity_setting();
    let or_unknown = |s: Option<&str>| s.unwrap_or("?").to_string();
    match a {
        ArgValue::Person(i) => sc.people[*i].id.clone(),
        ArgValue::Room(i) => or_unknown(ms.map(|m| m.rooms[*i].id.as_str())),
        ArgValue::Meeting(i) => or_unknown(ms.map(|m| m.meetings[*i].id.as_str())),
        ArgValue::Feature(f) => f.clone(),
        ArgValue::Slot(s) => s.to_string(),
        ArgValue::Ticket(i) => or_unknown(sc.jira_setting().map(|j| j.tickets[*i].id.as_str())),
        ArgValue::Integer(n) => n.to_string(),
        ArgValue::Variable(v) => or_unknown(ss.map(|s| s.evidence[*v].id.as_str())),
        ArgValue::Value(x) => {
            let variable = ArgValue::variable_in(all);
            or_unknown(
                ss.zip(variable)
                    .map(|(s, v)| s.evidence[v].values[*x].as_str()),
            )
        }
        ArgValue::Level(l) => or_unknown(ss.map(|s| s.levels[*l].id.as_str())),
    }
}
