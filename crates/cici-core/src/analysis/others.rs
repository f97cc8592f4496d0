//! A text that states another attribute's fact
//! (`text_states_other_fact`): a clause that names a person whose fact
//! belongs to another attribute, and with that person a number, day,
//! time, ticket or room of the kinds that fact is about, which no fact of
//! its own attribute says ("Mila has 4 hours available this sprint, and
//! Jonas has 2." on `capacity(mila, 4)`, while `capacity(jonas, 5)` is
//! another attribute's).
//!
//! A text may name other people: around a reason, in a pair its fact is
//! about, or beside what its own fact says ("Eli and Ana both miss
//! Tuesday 10-11" on Eli's Tuesday). Only a clause that says something of
//! another person that its own facts do not is one.

use super::agreement::{fits, group, pins, word_span, Group};
use super::clauses::{clauses, within};
use super::diagnostic::CheckDiagnostic;
use super::mentions::Reader;
use super::tokens::{toks, Mention, Named};
use crate::sema::{ArgValue, Attribute, Predicate, Scenario};

/// Every fact of an attribute: hard ones of both forms, soft ones and
/// claims.
fn facts(attr: &Attribute) -> Vec<&Predicate> {
    attr.forms()
        .flat_map(|(_, f)| &f.facts)
        .chain(&attr.soft)
        .chain(&attr.claims)
        .map(|f| &f.predicate)
        .collect()
}

fn people(p: &Predicate) -> impl Iterator<Item = usize> + '_ {
    p.args().into_iter().filter_map(|a| match a {
        ArgValue::Person(x) => Some(x),
        _ => None,
    })
}

/// Every fact of the scenario by the people it is about: for each person,
/// the attributes (by index) and their facts that name them.
pub(super) struct ByPerson<'a>(Vec<Vec<(usize, &'a Predicate)>>);

impl<'a> ByPerson<'a> {
    pub(super) fn new(sc: &'a Scenario) -> ByPerson<'a> {
        let mut by = vec![Vec::new(); sc.people.len()];
        for (a, attr) in sc.attributes.iter().enumerate() {
            for f in facts(attr) {
                for x in people(f) {
                    if let Some(v) = by.get_mut(x) {
                        v.push((a, f));
                    }
                }
            }
        }
        ByPerson(by)
    }

    /// The diagnostics of attribute `a`'s texts.
    pub(super) fn check(&self, sc: &Scenario, reader: &Reader, a: usize) -> Vec<CheckDiagnostic> {
        let attr = &sc.attributes[a];
        let own = facts(attr);
        if own.is_empty() {
            return Vec::new();
        }
        let mut ours: Vec<usize> = own.iter().flat_map(|p| people(p)).collect();
        ours.extend([attr.holder, attr.about]);
        let mut out = Vec::new();
        for (kind, form) in attr.forms() {
            let toks = toks(&form.text);
            let mentions = reader.read(&form.text);
            let mut told: Vec<usize> = Vec::new();
            for c in clauses(&toks) {
                let named = within(&mentions, &toks, &c);
                for m in &named {
                    let Named::Person(x) = m.what else { continue };
                    if ours.contains(&x) || told.contains(&x) {
                        continue;
                    }
                    let Some((b, fact)) = self.stated(a, &own, x, &named) else {
                        continue;
                    };
                    told.push(x);
                    let other = &sc.attributes[b].id;
                    out.push(CheckDiagnostic::TextStatesOtherFact {
                        attribute: attr.id.clone(),
                        form: kind.name().into(),
                        word: form.text[m.at.clone()].to_string(),
                        other: other.clone(),
                        span: word_span(form, m),
                        help: Some(format!(
                            "`{}` is the fact of `{other}`: a text states its own attribute's facts, and another person's belong in that person's attribute",
                            crate::printer::predicate(sc, fact),
                        )),
                    });
                }
            }
        }
        out
    }

    /// Another attribute than `a`, and its fact about person `x`, of which
    /// the clause (`named`) says something that `a`'s own facts (`own`) do
    /// not.
    fn stated(
        &self,
        a: usize,
        own: &[&Predicate],
        x: usize,
        named: &[&Mention],
    ) -> Option<(usize, &'a Predicate)> {
        self.0.get(x)?.iter().copied().find(|&(b, f)| {
            b != a
                && named.iter().any(|n| {
                    let g = group(&n.what);
                    g.is_some_and(|g| g != Group::Person && pins(f, g))
                        && !own.iter().any(|p| fits(p, &n.what))
                })
        })
    }
}
