//! Decisions and facts in words, for diagnostics and `cici explain`.

use crate::printer::decision_rows;
use crate::sema::{Decision, Scenario, Setting};
use crate::words::id_words;

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
        (Setting::Rule(ss), Decision::Rule(l)) => {
            vec![(String::new(), id_words(&ss.levels[*l].id))]
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

/// A decision on one line in seed syntax: the rows where it differs from
/// the scenario's oracle (all of them when none differs).
pub fn one_line(sc: &Scenario, d: &Decision) -> String {
    let ours = decision_rows(sc, d);
    let oracle = decision_rows(sc, &sc.oracle);
    let differ: Vec<String> = ours
        .iter()
        .zip(&oracle)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, _)| format!("{} -> {}", x.0, x.1))
        .collect();
    if differ.is_empty() {
        let all: Vec<String> = ours.iter().map(|x| format!("{} -> {}", x.0, x.1)).collect();
        return format!("`{}`", all.join(", "));
    }
    format!("`{}`", differ.join(", "))
}
