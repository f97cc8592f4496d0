//! What a scenario's team must be for its texts and norms to mean one
//! thing: no person or group named with a word the norms read as a
//! recipient, each person clause given once, reporting lines that end,
//! display names that tell people apart, and no blank name, role, title
//! or task. Each check is linear in the number of people.

use std::collections::HashMap;

use super::error::ResolveError;
use super::norm::RECIPIENT_WORDS;
use super::scenario::Person;
use crate::span::Span;
use crate::syntax::{self as ast, Item};

/// Every check of this module, its errors pushed to `errors`. `people` are
/// the declared people, their reporting lines bound.
pub(super) fn check(
    errors: &mut Vec<ResolveError>,
    sc: &ast::ScenarioAst,
    persons: &[&ast::PersonAst],
    people: &[Person],
) {
    reserved(errors, persons);
    repeated_clauses(errors, persons);
    cycles(errors, persons, people);
    display_names(errors, persons);
    blanks(errors, sc);
}

/// What a recipient word means in a norm.
fn meaning(word: &str) -> Option<&'static str> {
    Some(match word {
        "everyone" => "every person of the scenario",
        "executor" => "the person who makes the decision",
        "holder" => "the person who holds the attribute",
        "subject" => "the person the attribute is about",
        "manager" => "the manager of the person the attribute is about",
        _ => return None,
    })
}

fn reserved_name(kind: &'static str, id: &ast::Ident) -> Option<ResolveError> {
    let word = RECIPIENT_WORDS.iter().find(|w| **w == id.name)?;
    Some(ResolveError::ReservedName {
        kind,
        name: id.name.clone(),
        meaning: meaning(word)?,
        span: id.span.into(),
    })
}

/// Person ids and group names that a norm would read as its own words.
fn reserved(errors: &mut Vec<ResolveError>, persons: &[&ast::PersonAst]) {
    for p in persons {
        errors.extend(reserved_name("person", &p.id));
        if let Some((_, groups)) = &p.groups {
            errors.extend(
                groups
                    .items
                    .iter()
                    .filter_map(|g| reserved_name("group", g)),
            );
        }
    }
}

/// A person clause given twice: the second would have been dropped.
fn repeated_clauses(errors: &mut Vec<ResolveError>, persons: &[&ast::PersonAst]) {
    for p in persons {
        for (i, (what, kw)) in p.clauses.iter().enumerate() {
            if let Some((_, first)) = p.clauses[..i].iter().find(|(w, _)| w == what) {
                errors.push(ResolveError::DuplicateStatement {
                    what: what.to_string(),
                    span: kw.span.into(),
                    first: first.span.into(),
                });
            }
        }
    }
}

/// Reporting lines that go round, each named once from where it is first
/// entered. A person who reports to themself is `reports_to_self`.
fn cycles(errors: &mut Vec<ResolveError>, persons: &[&ast::PersonAst], people: &[Person]) {
    // The span of the `reports_to` that bound each person's manager.
    let mut to_span: HashMap<&str, Span> = HashMap::new();
    for p in persons {
        if let Some((_, to)) = &p.reports_to {
            to_span.entry(p.id.name.as_str()).or_insert(to.span);
        }
    }
    // 0: not seen; 1: on the line being walked; 2: done.
    let mut state = vec![0u8; people.len()];
    for start in 0..people.len() {
        let mut line = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at.filter(|&i| i < people.len() && state[i] == 0) {
            state[i] = 1;
            line.push(i);
            at = people[i].manager.filter(|&m| m != i);
        }
        if let Some(back) = at.filter(|&i| i < people.len() && state[i] == 1) {
            let from = line.iter().position(|&i| i == back).unwrap_or(0);
            let members = &line[from..];
            let mut names: Vec<&str> = members.iter().map(|&i| people[i].id.as_str()).collect();
            names.push(&people[back].id);
            let last = people[*members.last().unwrap_or(&back)].id.as_str();
            errors.push(ResolveError::ReportsToCycle {
                cycle: names.join(" → "),
                span: to_span.get(last).copied().unwrap_or(Span::DERIVED).into(),
            });
        }
        for i in line {
            state[i] = 2;
        }
    }
}

/// A character that shows nothing: a blank, or a zero-width or
/// direction mark.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}')
}

/// A name as a reader tells it from others: its visible words, in lower case.
fn as_read(name: &str) -> String {
    name.split(invisible)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Two people with one display name (whatever its case and spacing).
fn display_names(errors: &mut Vec<ResolveError>, persons: &[&ast::PersonAst]) {
    let mut seen: HashMap<String, &ast::Str> = HashMap::new();
    for p in persons {
        let key = as_read(&p.name.value);
        if key.is_empty() {
            continue;
        }
        match seen.get(&key) {
            Some(first) => errors.push(ResolveError::DuplicateDisplayName {
                name: first.value.clone(),
                span: p.name.span.into(),
                first: first.span.into(),
            }),
            None => {
                seen.insert(key, &p.name);
            }
        }
    }
}

/// Names, roles, titles and tasks with no visible character.
fn blanks(errors: &mut Vec<ResolveError>, sc: &ast::ScenarioAst) {
    let mut texts: Vec<(&'static str, &ast::Str)> = Vec::new();
    for item in &sc.items {
        match item {
            Item::Title(s) => texts.push(("title", s)),
            Item::Task(s) => texts.push(("task", s)),
            Item::Person(p) => {
                texts.push(("display name", &p.name));
                texts.push(("role", &p.role));
            }
            Item::Room(r) => texts.extend(r.name.as_ref().map(|n| ("room name", n))),
            Item::Meeting(m) => texts.push(("meeting title", &m.title)),
            Item::Ticket(t) => texts.push(("ticket title", &t.title)),
            _ => {}
        }
    }
    for (what, s) in texts {
        if s.value.chars().all(invisible) {
            errors.push(ResolveError::BlankText {
                what,
                span: s.span.into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_recipient_word_has_a_meaning() {
        for w in RECIPIENT_WORDS {
            assert!(meaning(w).is_some(), "{w}");
        }
    }

    #[test]
    fn names_are_read_without_case_spacing_or_invisible_marks() {
        assert_eq!(as_read(" Avi\u{200B}  SHAH "), "avi shah");
        assert_eq!(as_read("\u{200D}\u{FEFF} "), "");
        assert_eq!(as_read("王伟"), "王伟");
    }
}
