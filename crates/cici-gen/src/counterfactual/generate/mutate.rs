//! The symbolic generator: mutation operators over a resolved scenario.
//!
//! Each operator proposes candidates: a copy of the scenario with a few
//! edits applied and the edits described. Whether a candidate flips or holds
//! a label is not decided here: the evaluator compiles it and computes the
//! labels.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::analysis::Class;
use crate::counterfactual::apply::rename::replace_words;
use crate::counterfactual::base::vocab::{Candidate, Edit, Later, PublicField};
use crate::counterfactual::base::wording::phrases;
use crate::driver::Checked;
use crate::model::FactStatus;
use crate::phrasing::FactTexts;
use crate::printer::predicate;
use crate::sema::{
    FormKind, JiraPredicate, MeetingPredicate, PersonId, Predicate, RulePredicate, Scenario,
};
use std::sync::Arc;

/// The texts of an attribute after its fact `old` becomes `new`: the
/// phrases of the old arguments are replaced by the new ones where the
/// texts use them; a text that does not is written afresh from the
/// family's templates.
fn retext(
    texts: &FactTexts,
    sc: &Scenario,
    attribute: usize,
    old: &Predicate,
    new: &Predicate,
    rng: &mut ChaCha8Rng,
) -> (String, Option<String>) {
    let attr = &sc.attributes[attribute];
    let (from, to) = (phrases(sc, old), phrases(sc, new));
    // For slots the phrases are (words, day and time, day, time): replacing
    // the day alone is only right when the time stays the same.
    let slot_like = matches!(
        old,
        Predicate::Meeting(MeetingPredicate::Unavailable { .. })
            | Predicate::Meeting(MeetingPredicate::NotBefore { .. })
            | Predicate::Meeting(MeetingPredicate::NotAfter { .. })
    );
    // A finding's value governs its verb (`has failed`, `is pending`, `has
    // been observed`), so a finding is stated afresh for its new value
    // rather than edited word for word.
    let prose_value = !matches!(new, Predicate::Rule(RulePredicate::Evidence { .. }));
    let apply = |text: &str| -> (String, bool) {
        if !prose_value {
            return (text.to_string(), false);
        }
        for (i, (f, n)) in from.iter().zip(&to).enumerate() {
            if slot_like && i == 2 && from.get(3) != to.get(3) {
                continue;
            }
            let (next, changed) = replace_words(text, f, n);
            if changed {
                return (next, true);
            }
        }
        (text.to_string(), false)
    };
    // A finding told with a personal reason is told again by its holder,
    // with a reason of the same category, and stated alone in its
    // sanitized form.
    if !prose_value && attr.sanitized.is_some() {
        if let Some(t) = told_again(texts, sc, new, (attr.holder, attr.category), rng) {
            return (t.raw, t.sanitized);
        }
    }
    // A text written afresh keeps the detail's category, so its reason is
    // one of that category's and the category note stays true.
    let fresh = stating(texts, sc, new, attr.category, rng);
    let raw = match apply(&attr.raw.text) {
        (t, true) => t,
        _ => fresh.raw.clone(),
    };
    let sanitized = attr.sanitized.as_ref().map(|s| match apply(&s.text) {
        (t, true) => t,
        _ => fresh.sanitized.clone().unwrap_or_else(|| fresh.raw.clone()),
    });
    (raw, sanitized)
}

/// Fresh texts of fact `p`, drawn again (a few times) until the raw one
/// (and the sanitized one) names one of the fact's phrases where it has any: a state's words vary
/// (`has been observed`), and a text that does not name the new value
/// does not state the replaced fact.
pub(crate) fn stating(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    category: Option<crate::sema::Category>,
    rng: &mut ChaCha8Rng,
) -> crate::phrasing::Texts {
    let names = names_fact(sc, p);
    let mut fresh = crate::phrasing::hard_in(texts, sc, p, category, rng);
    for _ in 0..STATING_TRIES {
        if names(&fresh.raw) && fresh.sanitized.as_deref().is_none_or(&names) {
            break;
        }
        fresh = crate::phrasing::hard_in(texts, sc, p, category, rng);
    }
    fresh
}

/// A finding told by `teller` with a personal reason of `category` (see
/// [`crate::phrasing::personal_finding`]), drawn again (a few times) until
/// both texts name one of the fact's phrases; None when the fact has no
/// such phrasing.
pub(crate) fn told_again(
    texts: &FactTexts,
    sc: &Scenario,
    p: &Predicate,
    (teller, category): (usize, Option<crate::sema::Category>),
    rng: &mut ChaCha8Rng,
) -> Option<crate::phrasing::Texts> {
    let names = names_fact(sc, p);
    (0..STATING_TRIES).find_map(|_| {
        crate::phrasing::personal_finding(texts, sc, p, teller, category, rng)
            .filter(|t| names(&t.raw) && t.sanitized.as_deref().is_some_and(&names))
    })
}

/// Whether a text names one of fact `p`'s phrases (any text does for a
/// fact without phrases).
fn names_fact(sc: &Scenario, p: &Predicate) -> impl Fn(&str) -> bool {
    let wanted = phrases(sc, p);
    move |t: &str| wanted.is_empty() || wanted.iter().any(|w| t.contains(w.as_str()))
}

/// Draws of a fresh text, at most, for one that names its fact.
const STATING_TRIES: usize = 8;

/// Whether a fact makes sense said in prose: nobody works 0 hours.
pub(crate) fn reads_well(p: &Predicate) -> bool {
    !matches!(p, Predicate::Jira(JiraPredicate::Capacity { hours: 0, .. }))
}

/// Whether a fact of the scenario's family can take this predicate's place.
fn same_kind(a: &Predicate, b: &Predicate) -> bool {
    a.kind() == b.kind()
}

/// The appropriate facts of critical details, in the report's order: the
/// attribute, the model's fact, its index among its form's facts and its
/// predicate. Flips and holds replace these.
pub(crate) fn critical_facts(
    c: &Checked,
) -> impl Iterator<Item = (usize, usize, usize, Predicate)> + '_ {
    let sc = &c.scenario;
    c.report
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, finding)| finding.class == Class::Critical)
        .flat_map(|(a, finding)| finding.facts.iter().map(move |&f| (a, f)))
        .filter(|&(_, f)| c.model.facts[f].status == FactStatus::Appropriate)
        .map(move |(a, f)| {
            let index = c.model.facts[f].origin.index;
            let old = sc.attributes[a].fact_form().1.facts[index]
                .predicate
                .clone();
            (a, f, index, old)
        })
}

/// Candidates that should flip the decision: a critical fact replaced by
/// one that rules the oracle out and lets in the decision the original
/// fact was keeping out.
pub fn decision_flips(c: &Checked, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    for (a, f, index, old) in critical_facts(c) {
        if c.report.facts[f].necessary != Some(true) {
            continue;
        }
        let Some(target) = c.report.facts[f].lets_in.clone() else {
            continue;
        };
        let (replacements, moved_start) = flip_replacements(sc, &old, &target, rng);
        for (i, new) in replacements.into_iter().enumerate() {
            let moved = i >= moved_start;
            out.push(flip_candidate(texts, sc, (a, index), &old, new, moved, rng));
        }
    }
    out
}

/// Candidates that should hold the decision by the same kind of edit a
/// flip makes: a fact of a critical detail replaced by another of its
/// kind, after which the oracle is still the one decision allowed (at most
/// `KEEPS_PER_FACT` per fact). As for flips, facts that keep out the
/// decision the old one kept out come first, about the same person or,
/// with the detail moving to them, another; then other arguments. The
/// prover is asked of each new value in turn, as most values that still
/// allow the oracle let another decision in. Flips and holds then differ
/// in what the new fact allows, never in the shape of the diff.
pub fn decision_keeps(c: &Checked, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let sc = &c.scenario;
    let mut out = Vec::new();
    // The scenario each new value is tried in, and taken back from.
    let mut work = sc.clone();
    for (a, f, index, old) in critical_facts(c) {
        let fits = |p: &Predicate| {
            *p != old && reads_well(p) && crate::model::direct::allowed(sc, &sc.oracle, &[p])
        };
        let mut separating: Vec<(Predicate, bool)> = c.report.facts[f]
            .lets_in
            .as_ref()
            .map(|target| crate::planted::separating_facts(sc, target))
            .unwrap_or_default()
            .into_iter()
            .filter(|p| same_kind(p, &old) && fits(p))
            .filter(|p| p.subject() == old.subject() || p.subject().is_some())
            .map(|p| {
                let moved = p.subject() != old.subject();
                (p, moved)
            })
            .collect();
        separating.shuffle(rng);
        let mut news: Vec<(Predicate, bool)> = super::neighbours::argument_mutations(sc, &old)
            .into_iter()
            .filter(|p| p.subject() == old.subject() && fits(p))
            .map(|p| (p, false))
            .collect();
        news.shuffle(rng);
        separating.append(&mut news);
        separating.dedup();
        let kept: Vec<(Predicate, bool)> = separating
            .into_iter()
            .take(KEEP_TRIES)
            .filter(|(new, _)| keeps_oracle(&mut work, (a, index), new))
            .take(KEEPS_PER_FACT)
            .collect();
        for (new, moved) in kept {
            out.push(flip_candidate(texts, sc, (a, index), &old, new, moved, rng));
        }
    }
    out.shuffle(rng);
    out
}

/// New values of a fact tried, at most, for a hold that keeps the oracle.
const KEEP_TRIES: usize = 12;

/// Holds offered, at most, per fact: two, so that a hold may take the
/// value a flip takes elsewhere.
const KEEPS_PER_FACT: usize = 2;

/// Whether the oracle is still the one decision allowed once fact `at`
/// (attribute, index among its form's facts) of `work` is `new`.
fn keeps_oracle(work: &mut Scenario, at: (usize, usize), new: &Predicate) -> bool {
    with_fact(work, at, new, |v| {
        decides(&crate::model::lower(v), &v.oracle)
    })
}

/// `ask` of the scenario with fact `at` (attribute, index among its form's
/// facts) stating `new`, its texts as they were. The fact is set in `sc`
/// itself and put back after, where a copy of the scenario cost more than
/// most questions asked of it.
pub(crate) fn with_fact<T>(
    sc: &mut Scenario,
    at: (usize, usize),
    new: &Predicate,
    ask: impl FnOnce(&Scenario) -> T,
) -> T {
    fn slot(sc: &mut Scenario, (a, index): (usize, usize)) -> &mut Predicate {
        &mut sc.attributes[a].fact_form_mut().facts[index].predicate
    }
    let old = std::mem::replace(slot(sc, at), new.clone());
    let out = ask(sc);
    *slot(sc, at) = old;
    out
}

/// Whether `oracle` is the one decision the model allows.
pub(crate) fn decides(model: &crate::model::Model, oracle: &crate::sema::Decision) -> bool {
    // No deadline: a bound met under load would make the run's output
    // depend on the machine's speed.
    matches!(
        crate::analysis::decided(model, None),
        crate::analysis::Decided::One(d) if d == *oracle
    )
}

/// What may replace `old` to let `target` in and rule the oracle out:
/// facts that separate the two first, then any change of arguments that
/// rules the oracle out, then (from the index returned) the same kind of
/// fact about someone else, for which the attribute moves to that person.
fn flip_replacements(
    sc: &Scenario,
    old: &Predicate,
    target: &crate::sema::Decision,
    rng: &mut ChaCha8Rng,
) -> (Vec<Predicate>, usize) {
    let all = crate::planted::separating_facts_from(sc, target, &sc.oracle);
    let separating = all
        .iter()
        .filter(|p| same_kind(p, old))
        // Same subject: the texts keep talking about the right person.
        .filter(|p| p.subject() == old.subject())
        .filter(|p| crate::model::direct::allowed(sc, target, &[p]))
        .cloned();
    let mut replacements: Vec<Predicate> = separating
        .chain(super::neighbours::argument_mutations(sc, old))
        .filter(|p| p != old && !crate::model::direct::allowed(sc, &sc.oracle, &[p]))
        .filter(reads_well)
        .collect();
    // Last resort: the same kind of fact about someone else, with the
    // attribute moving to that person.
    let moved: Vec<Predicate> = all
        .into_iter()
        .filter(|p| same_kind(p, old) && p.subject() != old.subject())
        .filter(|p| {
            crate::model::direct::allowed(sc, target, &[p])
                && !crate::model::direct::allowed(sc, &sc.oracle, &[p])
        })
        .filter(reads_well)
        .collect();
    replacements.dedup();
    // Shuffle within the two sources, keeping separating facts first.
    let split = replacements.len().min(2);
    replacements[split..].shuffle(rng);
    let moved_start = replacements.len().min(4);
    replacements.truncate(4);
    replacements.extend(moved.into_iter().take(2));
    (replacements, moved_start)
}

/// The candidate in which fact `at` (attribute, index among its form's
/// facts) is `new` instead of `old`, its texts written again, and, when
/// `moved`, the attribute moved to the new fact's subject.
pub(crate) fn flip_candidate(
    texts: &FactTexts,
    sc: &Scenario,
    at: (usize, usize),
    old: &Predicate,
    new: Predicate,
    moved: bool,
    rng: &mut ChaCha8Rng,
) -> Candidate {
    let (a, index) = at;
    let mut variant = sc.clone();
    let mut edits = vec![Edit::ReplaceFact {
        attribute: sc.attributes[a].id.clone(),
        from: predicate(sc, old),
        to: predicate(sc, &new),
    }];
    let (raw, sanitized) = if moved {
        move_attribute(texts, sc, &mut variant, a, &new, &mut edits, rng)
    } else {
        retext(texts, sc, a, old, &new, rng)
    };
    let attr = &mut variant.attributes[a];
    if raw != attr.raw.text {
        edits.push(text_edit(&attr.id, FormKind::Raw, &attr.raw.text, &raw));
        attr.raw.text = raw;
    }
    if let (Some(s), Some(text)) = (attr.sanitized.as_mut(), sanitized) {
        if text != s.text {
            edits.push(text_edit(&attr.id, FormKind::Sanitized, &s.text, &text));
            s.text = text;
        }
    }
    attr.fact_form_mut().facts[index].predicate = new;
    Candidate {
        flow: None,
        scenario: variant.into(),
        edits,
    }
}

/// Moves attribute `a` of the variant as a whole to the subject of its new
/// fact: holder, subject, who sees it (the new holder in the old one's
/// place), its category and an id that names the new holder. The texts
/// for the new fact are returned, not yet set.
fn move_attribute(
    texts: &FactTexts,
    sc: &Scenario,
    variant: &mut Scenario,
    a: usize,
    new: &Predicate,
    edits: &mut Vec<Edit>,
    rng: &mut ChaCha8Rng,
) -> (String, Option<String>) {
    let subject = new.subject().expect("a moved fact has a subject");
    let fresh = stating(texts, sc, new, None, rng);
    let old_holder = sc.attributes[a].holder;
    let new_id = moved_id(sc, a, &sc.people[subject].id, fresh.category);
    let attr = &mut variant.attributes[a];
    edits.push(Edit::SetHolder {
        attribute: attr.id.clone(),
        from: sc.people[old_holder].id.clone(),
        to: sc.people[subject].id.clone(),
    });
    attr.id = new_id;
    attr.category = Some(fresh.category);
    attr.pass_to(subject);
    follow_norms(sc, a, variant, a);
    (fresh.raw, fresh.sanitized)
}

/// Attribute `a` of the variant, edited from attribute `was` of `sc`, takes
/// the visibility the norms derive for it now (its holder, subject or
/// category may have changed) wherever the old one had what the norms gave
/// it; a written exception stays as written.
pub(crate) fn follow_norms(sc: &Scenario, was: usize, variant: &mut Scenario, a: usize) {
    let before = &sc.attributes[was];
    for kind in [FormKind::Raw, FormKind::Sanitized] {
        let derived = before
            .form(kind)
            .is_some_and(|f| f.visible == sc.derived_visibility(before, kind));
        if derived {
            let now = variant.derived_visibility(&variant.attributes[a], kind);
            if let Some(f) = variant.attributes[a].form_mut(kind) {
                f.visible = now;
            }
        }
    }
}

/// The id of attribute `a` once it belongs to `new_pid`: its id with the
/// old holder's id replaced, else `<new_pid>_<category>`; numbered until
/// no attribute has it.
pub(crate) fn moved_id(
    sc: &Scenario,
    a: usize,
    new_pid: &str,
    category: crate::sema::Category,
) -> String {
    let old_pid = &sc.people[sc.attributes[a].holder].id;
    let (renamed, changed) =
        replace_words(&sc.attributes[a].id.replace('_', " "), old_pid, new_pid);
    let repeats = renamed.split(' ').filter(|w| *w == new_pid).count() > 1;
    let base = if changed && !repeats {
        renamed.replace(' ', "_")
    } else {
        format!("{new_pid}_{}", category.name())
    };
    (0..)
        .map(|n| {
            if n == 0 {
                base.clone()
            } else {
                format!("{base}_{n}")
            }
        })
        .find(|id| sc.attribute(id).is_none())
        .expect("some id is free")
}

/// Candidates that change one number of the public setting: a ticket's
/// hours or a room's capacity. Whether that moves the oracle is for the
/// prover to say.
pub fn public_edits(shared: &Arc<Scenario>, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let sc = shared.as_ref();
    let mut out = Vec::new();
    let mut attendee_edits = Vec::new();
    let mut push = |v: Later, target: &str, field: PublicField, from: u32, to: u32| {
        out.push(Candidate {
            flow: None,
            scenario: v,
            edits: vec![Edit::SetPublic {
                target: target.to_string(),
                field,
                from,
                to,
            }],
        })
    };
    match &sc.setting {
        crate::sema::Setting::Jira(js) => {
            for (t, ticket) in js.tickets.iter().enumerate() {
                // Small changes first read as minimal; at most three either way.
                let lo = ticket.hours.saturating_sub(3).max(1);
                for h in (lo..=ticket.hours + 3).filter(|&h| h != ticket.hours) {
                    let v = Later::variant(shared, move |v| {
                        if let crate::sema::Setting::Jira(j) = &mut v.setting {
                            j.tickets[t].hours = h;
                        }
                    });
                    push(v, &ticket.id, PublicField::Hours, ticket.hours, h);
                }
            }
        }
        crate::sema::Setting::Meeting(ms) => {
            // Who attends: one person more or one fewer.
            for (m, meeting) in ms.meetings.iter().enumerate() {
                for p in (0..sc.people.len()).filter(|&p| p != sc.executor) {
                    let mut to = meeting.attendees.clone();
                    match to.iter().position(|&a| a == p) {
                        Some(i) if to.len() > 1 => {
                            to.remove(i);
                        }
                        Some(_) => continue,
                        None => to.push(p),
                    }
                    let ids = |v: &[PersonId]| {
                        v.iter()
                            .map(|&p| sc.people[p].id.clone())
                            .collect::<Vec<_>>()
                    };
                    let attendees = to.clone();
                    let v = Later::variant(shared, move |v| {
                        if let crate::sema::Setting::Meeting(x) = &mut v.setting {
                            x.meetings[m].attendees = attendees;
                        }
                    });
                    attendee_edits.push(Candidate {
                        flow: None,
                        scenario: v,
                        edits: vec![Edit::SetAttendees {
                            meeting: meeting.id.clone(),
                            from: ids(&meeting.attendees),
                            to: ids(&to),
                        }],
                    });
                }
            }
            for (r, room) in ms.rooms.iter().enumerate() {
                for c in [
                    room.capacity.saturating_sub(2),
                    room.capacity.saturating_sub(1),
                    room.capacity + 1,
                ] {
                    if c == room.capacity {
                        continue;
                    }
                    let v = Later::variant(shared, move |v| {
                        if let crate::sema::Setting::Meeting(m) = &mut v.setting {
                            m.rooms[r].capacity = c;
                        }
                    });
                    push(v, &room.id, PublicField::Capacity, room.capacity, c);
                }
            }
        }
        crate::sema::Setting::Rule(_) => {}
    }
    out.extend(attendee_edits);
    out.shuffle(rng);
    out
}

pub(crate) fn text_edit(attribute: &str, form: FormKind, from: &str, to: &str) -> Edit {
    Edit::ReplaceText {
        attribute: attribute.to_string(),
        form,
        from: from.to_string(),
        to: to.to_string(),
    }
}

/// A candidate that sets who may see a form.
pub fn set_visibility(
    sc: &Scenario,
    a: usize,
    kind: FormKind,
    visible: Vec<PersonId>,
) -> Candidate {
    let ids = |v: &[PersonId]| {
        v.iter()
            .map(|&p| sc.people[p].id.clone())
            .collect::<Vec<_>>()
    };
    let mut v = sc.clone();
    let attr = &mut v.attributes[a];
    let form = match kind {
        FormKind::Raw => &mut attr.raw,
        FormKind::Sanitized => attr.sanitized.as_mut().expect("the flow's form exists"),
    };
    let before = form.visible.clone();
    form.visible = visible;
    Candidate {
        flow: None,
        edits: vec![Edit::SetVisibility {
            attribute: attr.id.clone(),
            form: kind,
            from: ids(&before),
            to: ids(&form.visible),
        }],
        scenario: v.into(),
    }
}
