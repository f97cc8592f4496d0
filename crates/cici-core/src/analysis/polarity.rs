//! Polarity: a text that says its subject is free when the fact says
//! unavailable, or unavailable when the fact gives hours or a window of
//! availability (`text_opposes_fact`).
//!
//! The check reads the clause that names the fact (its slot, its hours, its
//! number; for an unavailability without a slot, its subject) and looks
//! there for a word of the other polarity that nothing negates. It stays
//! quiet where the clause names another time, another person, an exception
//! or a limit ("free on Monday except 9-10", "cannot take more than 4
//! hours"), or reserves the slot ("keep Monday 9-10 free for Eli").

use std::ops::Range;

use super::agreement::fits;
use super::clauses::{clauses, has_any, negated, within};
use super::diagnostic::CheckDiagnostic;
use super::mentions::Reader;
use super::tokens::{toks, Mention, Named, Tok};
use crate::sema::{
    Attribute, Form, FormKind, JiraPredicate, MeetingPredicate, Predicate, Scenario,
};

/// Which way a fact points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Polarity {
    /// The subject is not there: `unavailable`.
    Away,
    /// The subject is there for so much or so long: `capacity`,
    /// `within_hours`.
    There,
}

/// Words that say the subject is there.
const THERE: &[&str] = &[
    "free",
    "available",
    "can",
    "could",
    "open",
    "around",
    "reachable",
];

/// Words that say the subject is not there.
const AWAY: &[&str] = &["unavailable", "busy", "cannot", "can"];

/// Words that, before `out`, `away` or `off`, make it a state of the
/// subject ("is out", "'s away").
const BE: &[&str] = &["is", "are", "be", "s", "was", "were", "re", "been"];

/// Words that keep a slot for its holder: "keep Monday free for Eli".
const RESERVE: &[&str] = &[
    "keep", "keeps", "kept", "leave", "leaves", "leaving", "left", "hold", "holds", "block",
    "blocks", "reserve", "reserved", "clear", "protect",
];

/// Words that make a clause an exception or a bound, not a plain claim.
const LIMITS: &[&str] = &[
    "except",
    "apart",
    "besides",
    "beside",
    "aside",
    "excluding",
    "outside",
    "other",
    "else",
    "before",
    "after",
    "past",
    "earlier",
    "later",
    "until",
    "till",
];

/// Words that make a clause about hours a cap ("cannot take more than 4").
const CAPS: &[&str] = &[
    "more",
    "than",
    "beyond",
    "over",
    "exceed",
    "exceeds",
    "above",
    "extra",
    "additional",
    "rest",
    "only",
    "most",
    "maximum",
    "max",
];

/// Who says what the subject can do, when it is not the subject.
const OTHERS: &[&str] = &[
    "we", "you", "i", "someone", "anyone", "everyone", "others", "nobody", "somebody",
];

/// The fact's polarity, if it has one the check reads.
fn polarity(p: &Predicate) -> Option<Polarity> {
    match p {
        Predicate::Meeting(MeetingPredicate::Unavailable { .. })
        | Predicate::Jira(JiraPredicate::Unavailable { .. }) => Some(Polarity::Away),
        Predicate::Jira(JiraPredicate::Capacity { .. })
        | Predicate::Meeting(MeetingPredicate::WithinHours { .. }) => Some(Polarity::There),
        _ => None,
    }
}

/// The diagnostics of one attribute's texts. A raw text with a sanitized
/// twin tells its story around the fact, in words of its own, and is not
/// held to this: its twin is.
pub(super) fn check(sc: &Scenario, reader: &Reader, attr: &Attribute) -> Vec<CheckDiagnostic> {
    let (kind, form) = attr.fact_form();
    let mut out = Vec::new();
    if !form.facts.iter().any(|f| polarity(&f.predicate).is_some()) {
        return out;
    }
    let toks = toks(&form.text);
    let mentions = reader.read(&form.text);
    for fact in &form.facts {
        let Some(pole) = polarity(&fact.predicate) else {
            continue;
        };
        for c in spans(&toks) {
            let named = within(&mentions, &toks, &c);
            if !about(&fact.predicate, &named) {
                continue;
            }
            if let Some(i) = opposite(&toks, &c, pole) {
                out.push(diagnostic(sc, attr, kind, form, &toks[i], &fact.predicate));
                break;
            }
        }
    }
    out
}

/// The stretches read: each clause, and each two clauses a comma alone
/// parts ("On Monday 9-10, Eli is free"), where the slot stands in one and
/// what is said of it in the other.
fn spans(toks: &[Tok]) -> Vec<Range<usize>> {
    let cs = clauses(toks);
    let mut out = cs.clone();
    for w in cs.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if b.start == a.end + 1 && toks[a.end].lower == "," {
            out.push(a.start..b.end);
        }
    }
    out
}

/// Whether a clause is about the fact: it names what the fact is about
/// (its slot, hours or number; its subject, for a fact of a person alone),
/// nothing of those kinds that the fact does not say, and no person
/// but the fact's own.
fn about(p: &Predicate, named: &[&Mention]) -> bool {
    let subject = p.subject();
    let people: Vec<usize> = named
        .iter()
        .filter_map(|m| match m.what {
            Named::Person(x) => Some(x),
            _ => None,
        })
        .collect();
    if people.iter().any(|x| Some(*x) != subject) {
        return false;
    }
    let measured: Vec<&&Mention> = named
        .iter()
        .filter(|m| {
            matches!(
                m.what,
                Named::Day(_) | Named::Time { .. } | Named::PartOfDay(..) | Named::Number(_)
            )
        })
        .collect();
    let slotless = matches!(p, Predicate::Jira(JiraPredicate::Unavailable { .. }));
    if slotless {
        return !people.is_empty() && measured.is_empty();
    }
    !measured.is_empty() && measured.iter().all(|m| fits(p, &m.what))
}

/// The first word of the clause that says the opposite of `pole`, not
/// negated, not a reservation, in a clause that states no exception.
fn opposite(toks: &[Tok], c: &Range<usize>, pole: Polarity) -> Option<usize> {
    if has_any(toks, c, LIMITS) || (pole == Polarity::There && has_any(toks, c, CAPS)) {
        return None;
    }
    let words = match pole {
        Polarity::Away => THERE,
        Polarity::There => AWAY,
    };
    c.clone().find(|&i| {
        let w = toks[i].lower.as_str();
        let prev = (i > c.start).then(|| toks[i - 1].lower.as_str());
        let next = toks.get(i + 1).map(|t| t.lower.as_str());
        match (pole, w) {
            // `can` is of the other polarity only negated ("can't make it").
            (Polarity::There, "can") => {
                next.is_some_and(|n| n == "not" || n == "'" || n == "’") && negated(toks, c, i)
            }
            (Polarity::There, "out" | "away" | "off") => {
                prev.is_some_and(|p| BE.contains(&p)) && !negated(toks, c, i)
            }
            (Polarity::There, _) => words.contains(&w) && !negated(toks, c, i),
            (Polarity::Away, "can" | "could") => {
                !negated(toks, c, i) && !prev.is_some_and(|p| OTHERS.contains(&p))
            }
            (Polarity::Away, "free" | "open" | "available") => {
                !negated(toks, c, i) && next != Some("up") && !has_any(toks, &(c.start..i), RESERVE)
            }
            (Polarity::Away, "around") => {
                !negated(toks, c, i) && toks.get(i + 1).is_none_or(|t| t.number.is_none())
            }
            (Polarity::Away, _) => words.contains(&w) && !negated(toks, c, i),
        }
    })
}

fn diagnostic(
    sc: &Scenario,
    attr: &Attribute,
    kind: FormKind,
    form: &Form,
    word: &Tok,
    p: &Predicate,
) -> CheckDiagnostic {
    let m = Mention {
        what: Named::Number(0),
        at: word.at.clone(),
    };
    CheckDiagnostic::TextOpposesFact {
        attribute: attr.id.clone(),
        form: kind.name().into(),
        word: form.text[word.at.clone()].to_string(),
        span: super::agreement::word_span(form, &m),
        help: Some(super::agreement::wording_help(sc, p)),
    }
}
