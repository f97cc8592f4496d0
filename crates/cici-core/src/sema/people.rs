//! The people of a scenario (with their groups and reporting lines) and its
//! norms, resolved.

use super::cx::Cx;
use super::error::ResolveError;
use super::norm::{InfoKind, Norm, Recipient, KIND_WORDS, RECIPIENT_WORDS};
use super::scenario::{Category, Family, Person, PersonId};
use crate::suggest::{help_for, help_within};
use crate::syntax::{self as ast, Ident};

/// Declares every person; `skills` outside `jira_allocation` is an error.
/// Reporting lines are bound by [`managers`], once every person is known.
pub(super) fn people(cx: &mut Cx, persons: &[&ast::PersonAst]) -> Vec<Person> {
    let mut people = Vec::new();
    for p in persons {
        if let Some((kw, _)) = &p.skills {
            if cx.family != Family::JiraAllocation {
                cx.errors
                    .push(super::cx::not_in_family("skills", cx.family, kw.span));
            }
        }
        if cx.people.declare("person", &p.id, &mut cx.errors) {
            let names = |l: &Option<(ast::Keyword, ast::List<Ident>)>| {
                l.as_ref()
                    .map(|(_, l)| l.items.iter().map(|s| s.name.clone()).collect())
                    .unwrap_or_default()
            };
            let mut person = Person::new(
                p.id.name.clone(),
                p.name.value.clone(),
                p.role.value.clone(),
                names(&p.skills),
                p.span,
            );
            person.groups = names(&p.groups);
            people.push(person);
        }
    }
    people
}

/// Binds every `reports_to` to its person.
pub(super) fn managers(cx: &mut Cx, persons: &[&ast::PersonAst], people: &mut [Person]) {
    for p in persons {
        let (Some((_, to)), Some(me)) = (&p.reports_to, cx.people.get(&p.id.name)) else {
            continue;
        };
        let Some(manager) = cx.person(to) else {
            continue;
        };
        if manager == me {
            cx.errors.push(ResolveError::ReportsToSelf {
                name: to.name.clone(),
                span: to.span.into(),
            });
            continue;
        }
        if let Some(person) = people.get_mut(me) {
            person.manager = Some(manager);
        }
    }
}

/// The kinds a norm may name, for suggestions.
fn kind_names() -> Vec<&'static str> {
    KIND_WORDS
        .into_iter()
        .chain(Category::ALL.iter().map(|c| c.name()))
        .collect()
}

fn kind(cx: &mut Cx, id: &Ident) -> Option<InfoKind> {
    let found = InfoKind::from_name(&id.name);
    if found.is_none() {
        cx.errors.push(ResolveError::UnknownNormKind {
            name: id.name.clone(),
            span: id.span.into(),
            help: Category::by_meaning(&id.name)
                .map(|m| crate::suggest::Help::suggest(m.name()))
                .or_else(|| help_for(&id.name, "information kind", kind_names())),
        });
    }
    found
}

/// The groups of a scenario's people, for telling recipients apart.
type Groups<'a> = std::collections::HashSet<&'a str>;

fn recipient(cx: &mut Cx, id: &Ident, people: &[Person], groups: &Groups) -> Option<Recipient> {
    let word = match id.name.as_str() {
        "everyone" => Some(Recipient::Everyone),
        "executor" => Some(Recipient::Executor),
        "holder" => Some(Recipient::Holder),
        "subject" => Some(Recipient::Subject),
        "manager" => Some(Recipient::Manager),
        _ => None,
    };
    if word.is_some() {
        return word;
    }
    // Declared people are numbered in the order they were declared.
    let person: Option<PersonId> = cx.people.get(&id.name);
    let group = groups.contains(id.name.as_str());
    match (person, group) {
        (Some(_), true) => {
            cx.errors.push(ResolveError::AmbiguousRecipient {
                name: id.name.clone(),
                span: id.span.into(),
            });
            None
        }
        (Some(p), false) => Some(Recipient::Person(p)),
        (None, true) => Some(Recipient::Group(id.name.clone())),
        (None, false) if !cx.suggest.left() => {
            cx.errors.push(ResolveError::UnknownRecipient {
                name: id.name.clone(),
                span: id.span.into(),
                help: Some(crate::suggest::unsearched("recipient")),
            });
            None
        }
        (None, false) => {
            let mut known: Vec<&str> = RECIPIENT_WORDS.to_vec();
            known.extend(super::visibility::team_groups(people));
            known.extend(people.iter().map(|p| p.id.as_str()));
            let mut seen = std::collections::HashSet::new();
            known.retain(|k| seen.insert(*k));
            cx.errors.push(ResolveError::UnknownRecipient {
                name: id.name.clone(),
                span: id.span.into(),
                help: help_within(&id.name, "recipient", known, &mut cx.suggest),
            });
            None
        }
    }
}

/// The norms of a `norms` block: every kind, recipient and purpose bound.
pub(super) fn norms(cx: &mut Cx, block: &ast::NormsAst, people: &[Person]) -> Vec<Norm> {
    let mut out = Vec::new();
    let groups: Groups = people
        .iter()
        .flat_map(|p| p.groups.iter().map(String::as_str))
        .collect();
    for n in &block.rules {
        let kinds: Vec<Option<InfoKind>> = n.kinds.items.iter().map(|k| kind(cx, k)).collect();
        let recipients: Vec<Option<Recipient>> = n
            .recipients
            .items
            .iter()
            .map(|r| recipient(cx, r, people, &groups))
            .collect();
        let (Some(kinds), Some(recipients)) = (
            kinds.into_iter().collect::<Option<Vec<_>>>(),
            recipients.into_iter().collect::<Option<Vec<_>>>(),
        ) else {
            continue;
        };
        out.push(Norm {
            kinds,
            recipients,
            purpose: n.purpose.as_ref().map(|p| p.name.clone()),
            span: n.span,
        });
    }
    out
}
