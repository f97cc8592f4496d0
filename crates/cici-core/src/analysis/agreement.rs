//! Texts held to their facts: a form's text may not name another day,
//! time, person, room, meeting, feature, ticket, number, level or state
//! than its attribute's facts, and the form that carries a critical or
//! supporting fact has to name something of it.

use super::mentions::{Mention, Named, Reader};
use super::{class::Class, diagnostic::CheckDiagnostic};
use crate::sema::{
    ArgValue, Attribute, Bound, Form, FormKind, Predicate, RulePredicate, Scenario, Slot,
};

/// The diagnostics of one attribute's texts, read by the scenario's
/// `reader`, for an attribute of `class`: what a text states against its
/// facts or beyond them, and a text of a critical or supporting fact that
/// names nothing of it.
pub fn check(
    sc: &Scenario,
    reader: &Reader,
    attr: &Attribute,
    class: Class,
) -> Vec<CheckDiagnostic> {
    let (fact_kind, fact_form) = attr.fact_form();
    let facts: Vec<&Predicate> = fact_form
        .facts
        .iter()
        .chain(&attr.soft)
        .chain(&attr.claims)
        .map(|f| &f.predicate)
        .collect();
    if facts.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (kind, form) in [
        (FormKind::Raw, Some(&attr.raw)),
        (FormKind::Sanitized, attr.sanitized.as_ref()),
    ] {
        let Some(form) = form else { continue };
        let mentions = reader.read(&form.text);
        let held = Held {
            sc,
            attr,
            form,
            kind,
            facts: &facts,
        };
        let wrong = held.contradictions(&mentions);
        let contradicted = wrong
            .iter()
            .any(|d| matches!(d, CheckDiagnostic::TextContradictsFact { .. }));
        out.extend(wrong);
        let carries = kind == fact_kind && !fact_form.facts.is_empty() && !contradicted;
        if carries && matches!(class, Class::Critical | Class::Supporting) {
            let hard: Vec<&Predicate> = fact_form.facts.iter().map(|f| &f.predicate).collect();
            if !hard.iter().any(|p| names_something(p, &mentions)) && readable(&hard) {
                out.push(CheckDiagnostic::TextStatesNothing {
                    attribute: attr.id.clone(),
                    form: kind.name().into(),
                    span: form.text_span.into(),
                    help: Some(wording_help(sc, hard[0])),
                });
            }
        }
    }
    out
}

/// One form and the facts it is held to.
struct Held<'a> {
    sc: &'a Scenario,
    attr: &'a Attribute,
    form: &'a Form,
    kind: FormKind,
    facts: &'a [&'a Predicate],
}

/// The kinds of thing a text names that a fact can pin down.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Group {
    Person,
    Day,
    Time,
    Number,
    Room,
    Meeting,
    Feature,
    Ticket,
    Level,
}

impl Held<'_> {
    /// Per group a fact pins down: mentions that fit no fact are errors
    /// when nothing of that group fits, else warnings (the text states
    /// more than its facts).
    fn contradictions(&self, mentions: &[Mention]) -> Vec<CheckDiagnostic> {
        use Group::*;
        let mut out = Vec::new();
        for g in [
            Person, Day, Time, Number, Room, Meeting, Feature, Ticket, Level,
        ] {
            if !self.facts.iter().any(|p| pins(p, g)) {
                continue;
            }
            let of_group: Vec<&Mention> = mentions
                .iter()
                .filter(|m| group(&m.what) == Some(g))
                .collect();
            let (fits, misfits): (Vec<&Mention>, Vec<&Mention>) = of_group
                .into_iter()
                .partition(|m| self.facts.iter().any(|p| fits(p, &m.what)));
            let Some(wrong) = misfits.first() else {
                continue;
            };
            // Raw texts name the people around a reason freely; a pressure
            // (an attribute of soft facts alone) is worded as its holder
            // pushes, about whoever it names, and may say more.
            let pressure = self.attr.fact_form().1.facts.is_empty();
            let more = !fits.is_empty();
            // A raw form with a sanitized twin tells its story around the
            // fact: only a contradiction counts there.
            let story = self.kind == FormKind::Raw && self.attr.sanitized.is_some();
            let pair_broken = g == Person && self.unnamed_pair(&fits);
            if (g == Person && (more || pressure) && !pair_broken) || ((pressure || story) && more)
            {
                continue;
            }
            let more = more && !pair_broken;
            out.push(self.diagnostic(wrong, !more));
        }
        out.extend(self.wrong_states(mentions));
        out
    }

    /// Whether a fact about two people has one of them unnamed while the
    /// text names someone else (`Omar and Bea` for `cannot_pair(omar, avi)`).
    fn unnamed_pair(&self, named: &[&Mention]) -> bool {
        self.facts.iter().any(|p| {
            let people: Vec<usize> = p
                .args()
                .iter()
                .filter_map(|a| match a {
                    ArgValue::Person(x) => Some(*x),
                    _ => None,
                })
                .collect();
            people.len() > 1
                && people
                    .iter()
                    .any(|x| !named.iter().any(|m| m.what == Named::Person(*x)))
        })
    }

    /// A state of an evidence variable other than the fact's, where the
    /// text does not also name the fact's state.
    fn wrong_states(&self, mentions: &[Mention]) -> Vec<CheckDiagnostic> {
        let mut out = Vec::new();
        for p in self.facts {
            let Predicate::Rule(RulePredicate::Evidence { variable, value }) = p else {
                continue;
            };
            let states: Vec<&Mention> = mentions
                .iter()
                .filter(|m| matches!(m.what, Named::Value(v, _) if v == *variable))
                .collect();
            let right = states
                .iter()
                .any(|m| m.what == Named::Value(*variable, *value));
            if let (false, Some(wrong)) = (right, states.first()) {
                out.push(self.diagnostic(wrong, true));
            }
        }
        out
    }

    fn diagnostic(&self, m: &Mention, contradicts: bool) -> CheckDiagnostic {
        let word = self.form.text[m.at.clone()].to_string();
        let span = word_span(self.form, m);
        let fact = self.facts.first().copied();
        let help = fact.map(|p| wording_help(self.sc, p));
        let (attribute, form) = (self.attr.id.clone(), self.kind.name().to_string());
        if contradicts {
            CheckDiagnostic::TextContradictsFact {
                attribute,
                form,
                word,
                span,
                help,
            }
        } else {
            CheckDiagnostic::TextStatesMore {
                attribute,
                form,
                word,
                span,
                help,
            }
        }
    }
}

/// The kinds of thing (`person`, `day`, `time`, `number`, …) that the
/// facts carried by `attr` pin down and its carrying text does not name:
/// empty when the text names something fitting of every kind, or carries
/// no fact the reader can read. A text that states its facts only in part
/// no longer supports a label that depends on them.
pub fn unstated(reader: &Reader, attr: &Attribute) -> Vec<&'static str> {
    use Group::*;
    let (_, form) = attr.fact_form();
    let hard: Vec<&Predicate> = form.facts.iter().map(|f| &f.predicate).collect();
    if hard.is_empty() || !readable(&hard) {
        return Vec::new();
    }
    let mentions = reader.read(&form.text);
    let mut out = Vec::new();
    for (g, name) in [
        (Person, "person"),
        (Day, "day"),
        (Time, "time"),
        (Number, "number"),
        (Room, "room"),
        (Meeting, "meeting"),
        (Feature, "feature"),
        (Ticket, "ticket"),
        (Level, "level"),
    ] {
        let pinned = hard.iter().any(|p| pins(p, g));
        let named = mentions
            .iter()
            .any(|m| group(&m.what) == Some(g) && hard.iter().any(|p| fits(p, &m.what)));
        if pinned && !named {
            out.push(name);
        }
    }
    out
}

/// The help that quotes the fact and how it reads.
pub(super) fn wording_help(sc: &Scenario, p: &Predicate) -> String {
    let syntax = crate::printer::predicate(sc, p);
    match crate::phrasing::statement(crate::phrasing::FactTexts::builtin(), sc, p) {
        Some(words) => format!("the fact is `{syntax}`, which reads: \"{words}\""),
        None => format!("the fact is `{syntax}`"),
    }
}

/// Where a mention stands in the seed: its words, in a plain literal whose
/// offsets are its value's; else the whole literal.
pub(super) fn word_span(form: &Form, m: &Mention) -> miette::SourceSpan {
    let lit = form.text_span;
    if lit.is_derived() || lit.len() != form.text.len() + 2 {
        return lit.into();
    }
    (lit.start as usize + 1 + m.at.start, m.at.len()).into()
}

/// Which group a mention belongs to (states are held apart).
pub(super) fn group(n: &Named) -> Option<Group> {
    Some(match n {
        Named::Person(_) => Group::Person,
        Named::Day(_) => Group::Day,
        Named::Time { .. } | Named::PartOfDay(..) => Group::Time,
        Named::Number(_) => Group::Number,
        Named::Room(_) => Group::Room,
        Named::Meeting(_) => Group::Meeting,
        Named::Feature(_) => Group::Feature,
        Named::Ticket(_) => Group::Ticket,
        Named::Level(_) => Group::Level,
        Named::Variable(_) | Named::Value(..) => return None,
    })
}

/// Whether the fact pins the group down: it has an argument of that kind
/// (hours of the day pin times, a quantity pins numbers).
pub(super) fn pins(p: &Predicate, g: Group) -> bool {
    p.spec().params.iter().any(|param| {
        use crate::sema::ArgKind as K;
        match (param.kind, g) {
            (K::Person, Group::Person) | (K::Room, Group::Room) | (K::Meeting, Group::Meeting) => {
                true
            }
            (K::Feature, Group::Feature)
            | (K::Ticket, Group::Ticket)
            | (K::Level, Group::Level) => true,
            (K::Slot, Group::Day | Group::Time) => true,
            (K::Integer, Group::Time) => matches!(param.bound, Bound::Hour { .. }),
            (K::Integer, Group::Number) => param.bound == Bound::Quantity,
            _ => false,
        }
    })
}

/// Whether a mention fits one of the fact's arguments.
pub(super) fn fits(p: &Predicate, n: &Named) -> bool {
    let args = p.args();
    let hours: Vec<u16> = p
        .spec()
        .params
        .iter()
        .zip(&args)
        .filter_map(|(param, a)| match (param.bound, a) {
            (Bound::Hour { .. }, ArgValue::Integer(h)) => Some(*h as u16 * 60),
            _ => None,
        })
        .collect();
    if !hours.is_empty() {
        if let Named::Time { start, end, twelve } = n {
            return readings(*start, *end, *twelve)
                .any(|(s, e)| hours.contains(&s) && e.is_none_or(|e| hours.contains(&e) && s < e));
        }
    }
    args.iter().any(|a| match (a, n) {
        (ArgValue::Person(x), Named::Person(y)) => x == y,
        (ArgValue::Room(x), Named::Room(y)) | (ArgValue::Meeting(x), Named::Meeting(y)) => x == y,
        (ArgValue::Ticket(x), Named::Ticket(y)) | (ArgValue::Level(x), Named::Level(y)) => x == y,
        (ArgValue::Feature(x), Named::Feature(y)) => x == y,
        (ArgValue::Integer(x), Named::Number(y)) => x == y,
        (ArgValue::Slot(s), _) => slot_fits(s, n),
        _ => false,
    })
}

/// The readings of a time: as written, and twelve hours on where a bare
/// hour may be an afternoon one.
fn readings(
    start: u16,
    end: Option<u16>,
    twelve: bool,
) -> impl Iterator<Item = (u16, Option<u16>)> {
    let later = twelve.then(|| (start + 720, end.map(|e| if e <= 720 { e + 720 } else { e })));
    std::iter::once((start, end)).chain(later)
}

fn slot_fits(s: &Slot, n: &Named) -> bool {
    match n {
        Named::Day(d) => *d == s.day,
        Named::Time { start, end, twelve } => {
            readings(*start, *end, *twelve).any(|(a, b)| match b {
                Some(b) => a == s.start && b == s.end,
                None => s.start <= a && a <= s.end,
            })
        }
        Named::PartOfDay(a, b) => s.start < *b && *a < s.end,
        _ => false,
    }
}

/// Whether the text names anything of the fact beyond its subject: the
/// day or time of a slot, the room, the ticket, the hours; a fact of a
/// person alone is named by the person.
fn names_something(p: &Predicate, mentions: &[Mention]) -> bool {
    let subject = p.spec().subject;
    let beyond = p.spec().params.len() > usize::from(subject.is_some());
    mentions.iter().any(|m| {
        let is_subject = matches!(m.what, Named::Person(x) if Some(x) == p.subject());
        fits(p, &m.what) && (!beyond || !is_subject)
    })
}

/// Facts whose arguments a text can be read for (not evidence, whose
/// states texts word in their own terms).
fn readable(facts: &[&Predicate]) -> bool {
    facts.iter().all(|p| {
        !matches!(
            p,
            Predicate::Rule(RulePredicate::Evidence { .. })
                | Predicate::Rule(RulePredicate::Toward { .. })
        )
    })
}
