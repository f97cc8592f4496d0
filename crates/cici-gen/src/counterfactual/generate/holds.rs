//! Candidates that should keep a decision: changes a reader of the item
//! sees and the decision does not depend on (renames, rewordings, other
//! irrelevant details, reorderings).

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::mutate::text_edit;
use crate::analysis::Class;
use crate::counterfactual::apply::rename::rename_person;
use crate::counterfactual::base::vocab::{Candidate, Edit, Later};
use crate::driver::Checked;
use crate::phrasing::FactTexts;
use crate::sema::{FormKind, PersonId, Predicate, RulePredicate, Scenario};
use crate::words;

/// How a name is usually read: a woman's, a man's, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gender {
    Female,
    Male,
    Either,
}

/// First names for renaming people, each with how it is usually read;
/// none of them is a common word.
pub const NAMES: &[(&str, Gender)] = &[
    ("Amara", Gender::Female),
    ("Bruno", Gender::Male),
    ("Chiara", Gender::Female),
    ("Dmitri", Gender::Male),
    ("Esther", Gender::Female),
    ("Femi", Gender::Either),
    ("Greta", Gender::Female),
    ("Hamid", Gender::Male),
    ("Ilse", Gender::Female),
    ("Joao", Gender::Male),
    ("Keiko", Gender::Female),
    ("Lars", Gender::Male),
    ("Mireille", Gender::Female),
    ("Nikhil", Gender::Male),
    ("Odile", Gender::Female),
    ("Pavel", Gender::Male),
    ("Rania", Gender::Female),
    ("Soren", Gender::Male),
    ("Remi", Gender::Either),
    ("Ulrich", Gender::Male),
    ("Vesna", Gender::Female),
    ("Jules", Gender::Either),
];

/// How the texts that name `first` refer to that person: by `she`/`her`,
/// by `he`/`him`/`his`, by both (or neither), as a [`Gender`] a new name
/// must fit (`Either` fits only a name read either way when both are
/// used, and any name when neither is).
pub fn pronouns(texts: &[&str], first: &str) -> Option<Gender> {
    let (mut female, mut male) = (false, false);
    for t in texts {
        // A text in ASCII names them only where it holds their name in
        // any case; most texts do not, and are not cut into words.
        if t.is_ascii() && !contains_ignoring_case(t, first) {
            continue;
        }
        let words: Vec<String> = crate::analysis::lints::words(t).collect();
        if !words.iter().any(|w| w.eq_ignore_ascii_case(first)) {
            continue;
        }
        female |= words
            .iter()
            .any(|w| matches!(w.as_str(), "she" | "her" | "hers" | "herself"));
        male |= words
            .iter()
            .any(|w| matches!(w.as_str(), "he" | "him" | "his" | "himself"));
    }
    match (female, male) {
        (true, false) => Some(Gender::Female),
        (false, true) => Some(Gender::Male),
        (true, true) => Some(Gender::Either),
        (false, false) => None,
    }
}

/// Whether `text` holds `part`, ASCII letters compared in either case.
fn contains_ignoring_case(text: &str, part: &str) -> bool {
    part.is_empty()
        || text
            .as_bytes()
            .windows(part.len())
            .any(|w| w.eq_ignore_ascii_case(part.as_bytes()))
}

/// Whether a name read as `name` fits texts that refer to the person as
/// `used` (`None`: the texts use no pronoun for them).
pub fn fits(name: Gender, used: Option<Gender>) -> bool {
    match used {
        None => true,
        Some(Gender::Either) => name == Gender::Either,
        Some(g) => name == g || name == Gender::Either,
    }
}

/// Renames person `p` everywhere: id, display name, and whole-word uses of
/// the first word of the name in texts.
pub fn rename(sc: &Arc<Scenario>, p: PersonId, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let old = &sc.people[p];
    let first = words::leading_word(&old.name)?.to_string();
    let taken = |n: &str| {
        sc.people
            .iter()
            .any(|q| q.id == n.to_lowercase() || words::leading_word(&q.name) == Some(n))
    };
    let texts: Vec<&str> = sc
        .attributes
        .iter()
        .flat_map(|a| {
            std::iter::once(a.raw.text.as_str())
                .chain(a.sanitized.as_ref().map(|s| s.text.as_str()))
        })
        .collect();
    let used = pronouns(&texts, &first);
    let mut pool: Vec<&str> = NAMES
        .iter()
        .filter(|(n, g)| !taken(n) && fits(*g, used))
        .map(|(n, _)| *n)
        .collect();
    pool.shuffle(rng);
    let new_first = pool.first()?.to_string();
    let new_id = new_first.to_lowercase();
    let new_name = old.name.replacen(&first, &new_first, 1);
    let (id, name) = (new_id.clone(), new_name.clone());
    Some(Candidate {
        flow: None,
        scenario: Later::variant(sc, move |v| rename_person(v, p, &id, &name)),
        edits: vec![Edit::RenamePerson {
            from: old.id.clone(),
            to: new_id,
            name_from: old.name.clone(),
            name_to: new_name,
        }],
    })
}

/// The first word of a person's name.
fn first_name(sc: &Scenario, p: PersonId) -> String {
    words::leading_word(&sc.people[p].name)
        .unwrap_or(&sc.people[p].id)
        .to_string()
}

/// Candidates that should hold the decision, each a change a reader of the
/// decision item sees: a fact replaced by one that keeps the decision, a
/// person renamed, a visible fact reworded with the
/// same meaning, an irrelevant detail replaced by another of its category,
/// a detail the decision does not need dropped, a new detail of the
/// executor's, the executor's details listed in another order, or the
/// trap told again so that it leads elsewhere.
///
/// `shared` is the seed's scenario, which the candidates a side seldom
/// reaches are made from when first read.
pub fn decision_holds(
    c: &Checked,
    shared: &Arc<Scenario>,
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
) -> Vec<Candidate> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    let mut people: Vec<PersonId> = (0..sc.people.len()).filter(|&p| p != sc.executor).collect();
    people.shuffle(rng);
    for &p in people.iter().take(2) {
        out.extend(rename(shared, p, rng));
    }
    paraphrased(shared, texts, rng, &mut out);
    let mut reworded = Vec::new();
    reworded_findings(sc, texts, rng, &mut reworded);
    out.extend(reworded.iter().cloned());
    replaced_irrelevant((c, shared), texts, rng, &mut out);
    super::side::told_again(sc, texts, rng, &mut out);
    out.extend(super::side::added(sc, texts, rng));
    // A new side finding with a finding told again, as a completed flip
    // adds a finding to the one it changes.
    if let Some(r) = reworded.first() {
        out.extend(
            super::side::added(&r.scenario, texts, rng).map(|added| Candidate {
                edits: r.edits.iter().chain(&added.edits).cloned().collect(),
                ..added
            }),
        );
    }
    dropped_supporting((c, shared), &mut out);
    out.extend(executor_aside(sc, texts, rng));
    out.extend(reordered(shared, rng));
    out.shuffle(rng);
    // A replaced fact that keeps the decision first, as flips replace one,
    // then the trap re-aimed, as flips re-aim theirs: the diff alone must
    // not tell a flip from a hold.
    let mut keeps = super::mutate::decision_keeps(c, texts, rng);
    keeps.extend(super::moved::supporting(c, texts, rng));
    // A few draws, so that each triplet of the seed may have its own.
    // Each draw re-aims the seed, whose check proved it already.
    let proof = crate::planted::claims::Proof::checked(&c.model, &c.report);
    for _ in 0..REAIMED_HOLDS {
        let Some(h) = proof.as_ref().and_then(|p| super::reaim::hold(sc, p, rng)) else {
            break;
        };
        if !keeps.iter().any(|k| k.edits == h.edits) {
            keeps.push(h);
        }
    }
    // A replaced fact with the trap re-aimed besides, as a flip re-aims
    // the trap it moved onto.
    // A finding told again serves where no fact can be replaced.
    let compound: Vec<Candidate> = keeps
        .iter()
        .filter(|k| k.edits.iter().all(|e| !claims_trap(sc, e)))
        .chain(&reworded)
        .take(COMPOUND_HOLDS)
        .filter_map(|k| super::reaim::hold_after(k, rng))
        .collect();
    keeps.extend(compound);
    keeps.append(&mut out);
    keeps
}

/// Holds of a replaced (or reworded) fact and a re-aimed trap, drawn at
/// most.
const COMPOUND_HOLDS: usize = 2;

/// Whether the edit replaces a trap's claim.
fn claims_trap(sc: &Scenario, e: &Edit) -> bool {
    matches!(e, Edit::ReplaceFact { attribute, .. }
        if sc.attribute(attribute).is_some_and(|a| !sc.attributes[a].claims.is_empty()))
}

/// Holds that re-aim the trap, drawn at most.
const REAIMED_HOLDS: usize = 3;

/// A fact the executor sees, said another way.
fn paraphrased(
    sc: &Arc<Scenario>,
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<Candidate>,
) {
    for (a, attr) in sc.attributes.iter().enumerate() {
        let (kind, form) = attr.fact_form();
        // Findings are worded by their authors better than a template can.
        if form.facts.len() != 1
            || !super::side::seen_by_executor(sc, a, kind)
            || matches!(
                form.facts[0].predicate,
                Predicate::Rule(RulePredicate::Evidence { .. })
            )
        {
            continue;
        }
        let mut options: Vec<String> =
            crate::phrasing::paraphrases(texts, sc, &form.facts[0].predicate, kind)
                .into_iter()
                .filter(|t| *t != form.text)
                .collect();
        options.shuffle(rng);
        if let Some(text) = options.into_iter().next() {
            out.push(Candidate {
                flow: None,
                edits: vec![text_edit(&attr.id, kind, &form.text, &text)],
                scenario: Later::variant(sc, move |v| {
                    let attr = &mut v.attributes[a];
                    match kind {
                        FormKind::Raw => attr.raw.text = text,
                        FormKind::Sanitized => {
                            attr.sanitized.as_mut().expect("the fact form").text = text
                        }
                    }
                }),
            });
        }
    }
}

/// A finding the executor sees, told again in other words that state the
/// same value: the same words of a state (`failed`, `present`) leave and
/// come back in a line of evidence, as when a flip sets a finding.
fn reworded_findings(
    sc: &Scenario,
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<Candidate>,
) {
    for (a, attr) in sc.attributes.iter().enumerate() {
        let (kind, form) = attr.fact_form();
        let [fact] = &form.facts[..] else {
            continue;
        };
        if !super::side::seen_by_executor(sc, a, kind)
            || !matches!(
                fact.predicate,
                Predicate::Rule(RulePredicate::Evidence { .. })
            )
        {
            continue;
        }
        // A finding told with a personal reason is told again by its
        // holder, both its texts, as a flip of it tells them.
        let (raw, sanitized) = match &attr.sanitized {
            None => {
                let t = super::mutate::stating(texts, sc, &fact.predicate, attr.category, rng);
                (t.raw, None)
            }
            Some(_) => {
                let told = (attr.holder, attr.category);
                let Some(t) = super::mutate::told_again(texts, sc, &fact.predicate, told, rng)
                else {
                    continue;
                };
                (t.raw, t.sanitized)
            }
        };
        if raw.is_empty() || raw == attr.raw.text || sanitized.as_ref() == Some(&form.text) {
            continue;
        }
        let mut v = sc.clone();
        let mut edits = vec![text_edit(&attr.id, FormKind::Raw, &attr.raw.text, &raw)];
        v.attributes[a].raw.text = raw;
        if let (Some(s), Some(form)) = (sanitized, v.attributes[a].sanitized.as_mut()) {
            edits.push(text_edit(&attr.id, FormKind::Sanitized, &form.text, &s));
            form.text = s;
        }
        out.push(Candidate {
            flow: None,
            edits,
            scenario: v.into(),
        });
    }
}

/// An irrelevant detail replaced by another of the same category about
/// the same person. (Only details the executor sees: the others do not
/// show in the item.)
fn replaced_irrelevant(
    (c, shared): (&Checked, &Arc<Scenario>),
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
    out: &mut Vec<Candidate>,
) {
    let sc = &c.scenario;
    for (a, finding) in c.report.attributes.iter().enumerate() {
        if finding.class != Class::Irrelevant
            || !super::side::seen_by_executor(sc, a, FormKind::Raw)
        {
            continue;
        }
        let attr = &sc.attributes[a];
        let (category, text) =
            crate::phrasing::irrelevant(texts, &first_name(sc, attr.about), attr.category, rng);
        if text == attr.raw.text || text.is_empty() {
            continue;
        }
        let edits = vec![text_edit(&attr.id, FormKind::Raw, &attr.raw.text, &text)];
        let base = Arc::clone(shared);
        out.push(Candidate {
            flow: None,
            edits,
            scenario: Later::variant(shared, move |v| {
                v.attributes[a].raw.text = text;
                v.attributes[a].category = Some(category);
                super::mutate::follow_norms(&base, a, v, a);
            }),
        });
    }
}

/// A supporting attribute dropped: its facts are each redundant.
fn dropped_supporting((c, shared): (&Checked, &Arc<Scenario>), out: &mut Vec<Candidate>) {
    let sc = &c.scenario;
    for (a, finding) in c.report.attributes.iter().enumerate() {
        let shows = super::side::seen_by_executor(sc, a, FormKind::Raw)
            || super::side::seen_by_executor(sc, a, FormKind::Sanitized);
        if finding.class == Class::Supporting && shows {
            out.push(Candidate {
                flow: None,
                scenario: Later::variant(shared, move |v| {
                    v.attributes.remove(a);
                }),
                edits: vec![Edit::DropAttribute {
                    attribute: sc.attributes[a].id.clone(),
                }],
            });
        }
    }
}

/// The executor mentions a personal detail of their own.
fn executor_aside(sc: &Scenario, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let holder = sc.executor;
    let (category, text) = crate::phrasing::irrelevant(texts, &first_name(sc, holder), None, rng);
    if text.is_empty() {
        return None;
    }
    let (v, edit) = super::side::with_detail(sc, holder, category, text, "aside");
    Some(Candidate {
        flow: None,
        scenario: v.into(),
        edits: vec![edit],
    })
}

/// Two details the executor sees, listed the other way round.
fn reordered(sc: &Arc<Scenario>, rng: &mut ChaCha8Rng) -> Option<Candidate> {
    let visible: Vec<usize> = (0..sc.attributes.len())
        .filter(|&a| {
            super::side::seen_by_executor(sc, a, FormKind::Raw)
                || super::side::seen_by_executor(sc, a, FormKind::Sanitized)
        })
        .collect();
    if visible.len() < 2 {
        return None;
    }
    let i = rng.random_range(0..visible.len() - 1);
    let (x, y) = (visible[i], visible[i + 1]);
    let from: Vec<String> = sc.attributes.iter().map(|a| a.id.clone()).collect();
    let mut to = from.clone();
    to.swap(x, y);
    Some(Candidate {
        flow: None,
        edits: vec![Edit::ReorderAttributes { from, to }],
        scenario: Later::variant(sc, move |v| v.attributes.swap(x, y)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pronouns_are_read_from_the_texts_that_name_the_person() {
        let texts = [
            "Eli said she is out",
            "Sam is in; he said so",
            "ELI's laptop",
        ];
        assert_eq!(pronouns(&texts, "Eli"), Some(Gender::Female));
        assert_eq!(pronouns(&texts, "sam"), Some(Gender::Male));
        assert_eq!(pronouns(&texts, "Ana"), None);
        // Within a word is not a name: `Elias` does not name `Eli`.
        assert_eq!(pronouns(&["Elias said he is out"], "Eli"), None);
        // Texts beyond ASCII are read word by word.
        assert_eq!(
            pronouns(&["Zoë said she is out"], "Zoë"),
            Some(Gender::Female)
        );
        assert_eq!(pronouns(&["ZOË: he is out"], "zoë"), Some(Gender::Male));
    }

    #[test]
    fn a_part_is_found_in_either_case() {
        assert!(contains_ignoring_case("Eli's laptop", "ELI"));
        assert!(contains_ignoring_case("anything", ""));
        assert!(!contains_ignoring_case("El", "Eli"));
    }
}
