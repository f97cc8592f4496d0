//! The seed syntax of a fact, a decision and a rubric condition: the
//! printer writes them into seed text, and diagnostics, exports and
//! generators that quote seed syntax take it from here.

use crate::sema::{ArgValue, Condition, Decision, Predicate, RuleSetting, Scenario, Setting};

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
        (Setting::Rule(ss), Decision::Rule(l)) => {
            vec![("level".into(), ss.levels[*l].id.clone())]
        }
        _ => Vec::new(),
    }
}

/// A fact in seed syntax, e.g. `unavailable(eli, tue 10:00-11:00)`.
pub fn predicate(sc: &Scenario, p: &Predicate) -> String {
    let args = p.args();
    let words: Vec<String> = args.iter().map(|a| arg_syntax(sc, a, &args)).collect();
    format!("{}({})", p.spec().name, words.join(", "))
}

/// One argument as the seed writes it: an id, a slot, a number.
fn arg_syntax(sc: &Scenario, a: &ArgValue, all: &[ArgValue]) -> String {
    let ms = sc.meeting_setting();
    let ss = sc.rule_setting();
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

/// A rubric condition in seed syntax.
pub fn condition(ss: &RuleSetting, c: &Condition) -> String {
    fn go(ss: &RuleSetting, c: &Condition, nested: bool) -> String {
        let atom = |v: &usize, x: &usize, op: &str| {
            format!("{} {op} {}", ss.evidence[*v].id, ss.evidence[*v].values[*x])
        };
        match c {
            Condition::Eq(v, x) => atom(v, x, "="),
            Condition::Ne(v, x) => atom(v, x, "!="),
            Condition::In(v, xs) => format!(
                "{} in [{}]",
                ss.evidence[*v].id,
                xs.iter()
                    .map(|x| ss.evidence[*v].values[*x].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Condition::Not(inner) => format!("not {}", go(ss, inner, true)),
            Condition::And(parts) | Condition::Or(parts) => {
                let op = if matches!(c, Condition::And(_)) {
                    " and "
                } else {
                    " or "
                };
                let body = parts
                    .iter()
                    .map(|p| go(ss, p, true))
                    .collect::<Vec<_>>()
                    .join(op);
                if nested {
                    format!("({body})")
                } else {
                    body
                }
            }
        }
    }
    go(ss, c, false)
}
