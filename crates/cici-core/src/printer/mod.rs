//! From a resolved scenario back to seed text.
//!
//! The printer writes one canonical layout and spells out every label and
//! visibility that differs from the defaults, so that parsing and resolving
//! the output gives back the same scenario. Generated scenarios (the planted
//! generator, counterfactual variants) become seed files through it.

mod syntax;

pub use syntax::{condition, decision_rows, predicate};

use std::fmt::Write;

use crate::sema::*;

/// A string literal with the escapes of the language.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(", "))
}

/// The seed text of one scenario.
pub fn print(sc: &Scenario) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "scenario {} {{", sc.id);
    header(&mut o, sc);
    let _ = writeln!(o);
    people(&mut o, sc);
    let _ = writeln!(o);
    if let Some(norms) = &sc.norms {
        let _ = writeln!(o, "  norms {{");
        for n in norms {
            let _ = writeln!(o, "    {}", norm(sc, n));
        }
        let _ = writeln!(o, "  }}");
        let _ = writeln!(o);
    }
    match &sc.setting {
        Setting::Meeting(ms) => meeting_setting(&mut o, sc, ms),
        Setting::Jira(js) => jira_setting(&mut o, js),
        Setting::Rule(ss) => rule_setting(&mut o, ss),
    }
    for a in &sc.attributes {
        let _ = writeln!(o);
        attribute(&mut o, sc, a);
    }
    let _ = writeln!(o);
    oracle(&mut o, sc);
    let _ = writeln!(o, "}}");
    o
}

/// The one-line statements: family, title, task, executor and the rest.
fn header(o: &mut String, sc: &Scenario) {
    let person = |p: PersonId| sc.people[p].id.as_str();
    let _ = writeln!(o, "  family {}", sc.family().name());
    let _ = writeln!(o, "  title {}", quote(&sc.title));
    let _ = writeln!(o, "  task {}", quote(&sc.task));
    let _ = writeln!(o, "  executor {}", person(sc.executor));
    if let Some(r) = &sc.recipient {
        let _ = writeln!(o, "  recipient {}", quote(r));
    }
    for p in &sc.public {
        let _ = writeln!(o, "  public {}", quote(p));
    }
    if let Some(p) = &sc.policy {
        let _ = writeln!(o, "  policy {}", quote(p));
    }
    if let Some(p) = &sc.purpose {
        let _ = writeln!(o, "  purpose {p}");
    }
}

fn people(o: &mut String, sc: &Scenario) {
    let person = |p: PersonId| sc.people[p].id.as_str();
    for p in &sc.people {
        let _ = write!(
            o,
            "  person {} {} role {}",
            p.id,
            quote(&p.name),
            quote(&p.role)
        );
        if sc.family() == Family::JiraAllocation {
            let _ = write!(o, " skills {}", list(p.skills.iter().map(String::as_str)));
        }
        if !p.groups.is_empty() {
            let _ = write!(o, " groups {}", list(p.groups.iter().map(String::as_str)));
        }
        if let Some(m) = p.manager {
            let _ = write!(o, " reports_to {}", person(m));
        }
        let _ = writeln!(o);
    }
}

fn meeting_setting(o: &mut String, sc: &Scenario, ms: &crate::sema::MeetingSetting) {
    let person = |p: PersonId| sc.people[p].id.as_str();
    for r in &ms.rooms {
        let _ = write!(o, "  room {}", r.id);
        if let Some(n) = &r.name {
            let _ = write!(o, " {}", quote(n));
        }
        let _ = write!(o, " capacity {}", r.capacity);
        if !r.features.is_empty() {
            let _ = write!(
                o,
                " features {}",
                list(r.features.iter().map(String::as_str))
            );
        }
        let _ = writeln!(o);
    }
    for m in &ms.meetings {
        let _ = writeln!(o, "  meeting {} {} {{", m.id, quote(&m.title));
        let _ = writeln!(
            o,
            "    attendees {}",
            list(m.attendees.iter().map(|&p| person(p)))
        );
        let slots: Vec<String> = m.slots.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(o, "    slots {}", list(slots.iter().map(String::as_str)));
        let _ = writeln!(
            o,
            "    rooms {}",
            list(m.rooms.iter().map(|&r| ms.rooms[r].id.as_str()))
        );
        if !m.features.is_empty() {
            let _ = writeln!(
                o,
                "    features {}",
                list(m.features.iter().map(String::as_str))
            );
        }
        let _ = writeln!(o, "  }}");
    }
}

fn jira_setting(o: &mut String, js: &crate::sema::JiraSetting) {
    for t in &js.tickets {
        let _ = writeln!(o, "  ticket {} {} {{", t.id, quote(&t.title));
        let _ = writeln!(o, "    needs {}", t.needs);
        let _ = writeln!(o, "    hours {}", t.hours);
        match &t.with {
            Some(seat) => {
                let _ = writeln!(o, "    with {} hours {}", seat.skill, seat.hours);
            }
            None if t.pair => {
                let _ = writeln!(o, "    pair");
            }
            None => {}
        }
        if let Some(p) = t.priority {
            let _ = writeln!(o, "    priority {}", p.name());
        }
        if t.collaboration_heavy {
            let _ = writeln!(o, "    collaboration_heavy");
        }
        if t.sensitive {
            let _ = writeln!(o, "    sensitive");
        }
        let _ = writeln!(o, "  }}");
    }
}

/// Levels or outcomes, evidence, the rubric or rules, and exclusions.
fn rule_setting(o: &mut String, ss: &crate::sema::RuleSetting) {
    let policy = ss.kind == crate::sema::RuleKind::Policy;
    let (list_kw, block_kw) = if policy {
        ("outcomes", "rules")
    } else {
        ("levels", "rubric")
    };
    let _ = writeln!(
        o,
        "  {list_kw} {}",
        list(ss.levels.iter().map(|l| l.id.as_str()))
    );
    for e in &ss.evidence {
        let _ = writeln!(
            o,
            "  evidence {} {}",
            e.id,
            list(e.values.iter().map(String::as_str))
        );
    }
    let _ = writeln!(o, "  {block_kw} {{");
    for r in &ss.rubric.rules {
        let _ = writeln!(
            o,
            "    {} when {}",
            ss.levels[r.level].id,
            condition(ss, &r.when)
        );
    }
    if let Some(otherwise) = ss.rubric.otherwise {
        let _ = writeln!(o, "    otherwise {}", ss.levels[otherwise].id);
    }
    let _ = writeln!(o, "  }}");
    for e in &ss.excludes {
        let _ = writeln!(o, "  exclude {}", condition(ss, &e.when));
    }
}

/// One norm as a seed writes it: `share <kinds> with <recipients> [for <purpose>]`.
pub fn norm(sc: &Scenario, n: &Norm) -> String {
    let one_or_list = |names: Vec<&str>| {
        if names.len() == 1 {
            names[0].to_string()
        } else {
            list(names)
        }
    };
    let mut out = format!(
        "share {} with {}",
        one_or_list(n.kinds.iter().map(InfoKind::name).collect()),
        one_or_list(n.recipients.iter().map(|r| r.name(&sc.people)).collect())
    );
    if let Some(p) = &n.purpose {
        let _ = write!(out, " for {p}");
    }
    out
}

/// Appends the text of one attribute block, indented for a scenario body.
pub fn attribute(o: &mut String, sc: &Scenario, a: &Attribute) {
    let person = |p: PersonId| sc.people[p].id.as_str();
    let _ = writeln!(o, "  attribute {} {{", a.id);
    let _ = writeln!(o, "    holder {}", person(a.holder));
    if a.about != a.holder {
        let _ = writeln!(o, "    about {}", person(a.about));
    }
    if let Some(c) = a.category {
        let _ = writeln!(o, "    category {}", c.name());
    }
    let has_facts = !a.fact_form().1.facts.is_empty();
    let raw_default = a.sanitized.is_none() && has_facts;
    form(o, sc, a, FormKind::Raw, &a.raw, raw_default);
    if let Some(s) = &a.sanitized {
        form(o, sc, a, FormKind::Sanitized, s, true);
    }
    for f in &a.fact_form().1.facts {
        let _ = writeln!(o, "    fact {}", predicate(sc, &f.predicate));
    }
    for f in &a.soft {
        let _ = writeln!(o, "    soft {}", predicate(sc, &f.predicate));
    }
    for f in &a.claims {
        let _ = writeln!(o, "    claim {}", predicate(sc, &f.predicate));
    }
    let _ = writeln!(o, "  }}");
}

fn form(
    o: &mut String,
    sc: &Scenario,
    a: &Attribute,
    kind: FormKind,
    f: &Form,
    default_appropriate: bool,
) {
    let _ = write!(o, "    {} {}", kind.name(), quote(&f.text));
    if f.appropriate != default_appropriate {
        let _ = write!(
            o,
            " {}",
            if f.appropriate {
                "appropriate"
            } else {
                "inappropriate"
            }
        );
    }
    let all: Vec<PersonId> = (0..sc.people.len()).collect();
    let derived = sc.derived_visibility(a, kind);
    let default_visible = &derived;
    if &f.visible != default_visible {
        if f.visible == all {
            let _ = write!(o, " visible all");
        } else {
            let names: Vec<&str> = f
                .visible
                .iter()
                .map(|&p| sc.people[p].id.as_str())
                .collect();
            let _ = write!(o, " visible {}", list(names));
        }
    }
    let _ = writeln!(o);
}

fn oracle(o: &mut String, sc: &Scenario) {
    match &sc.oracle {
        Decision::Rule(l) => {
            let ss = sc
                .rule_setting()
                .expect("severity oracle in a severity scenario");
            let _ = writeln!(o, "  oracle {}", ss.levels[*l].id);
        }
        d => {
            let _ = writeln!(o, "  oracle {{");
            for (target, value) in decision_rows(sc, d) {
                let _ = writeln!(o, "    {target} -> {value}");
            }
            let _ = writeln!(o, "  }}");
        }
    }
}
