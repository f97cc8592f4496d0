//! Flips that need a second finding. In a rule family one changed finding
//! often leaves the level open: a variable no one has reported on yet
//! decides between two levels, and the edited facts allow both. Such a
//! flip is completed by a new detail, from the holder of the changed
//! finding, that states that variable's value, so that exactly one level
//! other than the oracle is allowed. A severity case with two findings
//! thus has more than one way to move, as its rubric allows.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::mutate::{critical_facts, flip_candidate};
use crate::counterfactual::base::vocab::{Candidate, Edit};
use crate::driver::Checked;
use crate::model::direct::severity_levels;
use crate::phrasing::FactTexts;
use crate::printer::predicate;
use crate::sema::{
    Category, Decision, FormKind, PersonId, Predicate, RulePredicate, RuleSetting, Scenario,
    Setting,
};

/// Completed flips tried, at most, per scenario.
const MOST: usize = 4;

/// Flips of a rule scenario that change one critical finding and add the
/// finding that settles the level the change left open.
pub fn flips(c: &Checked, texts: &FactTexts, rng: &mut ChaCha8Rng) -> Vec<Candidate> {
    let sc = &c.scenario;
    let (Setting::Rule(ss), Decision::Rule(oracle)) = (&sc.setting, &sc.oracle) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (a, f, index, old) in critical_facts(c) {
        if c.report.facts[f].necessary != Some(true) {
            continue;
        }
        for new in super::neighbours::argument_mutations(sc, &old) {
            let base = facts_with(sc, &old, &new);
            let refs: Vec<&Predicate> = base.iter().collect();
            if new == old || severity_levels(ss, &refs).len() < 2 {
                continue;
            }
            let mut settling = settling(ss, &base, *oracle);
            settling.shuffle(rng);
            let Some(extra) = settling.into_iter().next() else {
                continue;
            };
            let flip = flip_candidate(texts, sc, (a, index), &old, new, false, rng);
            out.extend(with_finding(
                flip,
                sc.attributes[a].holder,
                extra,
                texts,
                rng,
            ));
        }
    }
    out.shuffle(rng);
    out.truncate(MOST);
    out
}

/// The appropriate facts of the scenario, with `old` replaced by `new`.
fn facts_with(sc: &Scenario, old: &Predicate, new: &Predicate) -> Vec<Predicate> {
    let mut replaced = false;
    sc.attributes
        .iter()
        .map(|a| a.fact_form().1)
        .filter(|form| form.appropriate)
        .flat_map(|form| form.facts.iter().map(|f| f.predicate.clone()))
        .map(|p| {
            if !replaced && p == *old {
                replaced = true;
                new.clone()
            } else {
                p
            }
        })
        .collect()
}

/// Findings on a variable no fact states that, added to `facts`, allow
/// exactly one level, and not the oracle.
fn settling(ss: &RuleSetting, facts: &[Predicate], oracle: usize) -> Vec<Predicate> {
    let stated = |v: usize| {
        facts.iter().any(|p| {
            matches!(p, Predicate::Rule(RulePredicate::Evidence { variable, .. }) if *variable == v)
        })
    };
    let mut out = Vec::new();
    for variable in (0..ss.evidence.len()).filter(|&v| !stated(v)) {
        for value in 0..ss.evidence[variable].values.len() {
            let extra = Predicate::Rule(RulePredicate::Evidence { variable, value });
            let refs: Vec<&Predicate> = facts.iter().chain(Some(&extra)).collect();
            if matches!(severity_levels(ss, &refs)[..], [level] if level != oracle) {
                out.push(extra);
            }
        }
    }
    out
}

/// The flip with a new appropriate detail of `holder` stating `fact`, and
/// the edit that says so; None when the fact has no phrasing.
fn with_finding(
    flip: Candidate,
    holder: PersonId,
    fact: Predicate,
    texts: &FactTexts,
    rng: &mut ChaCha8Rng,
) -> Option<Candidate> {
    let mut v = Scenario::clone(&flip.scenario);
    let t = crate::phrasing::hard(texts, &v, &fact, rng);
    if t.raw.is_empty() {
        return None;
    }
    let stated = predicate(&v, &fact);
    crate::planted::push_attribute(
        &mut v,
        holder,
        Some(Category::Operational),
        t.raw.clone(),
        None,
        vec![fact],
        Vec::new(),
    );
    // Seen by whom the norms say, as the other findings are.
    let last = v.attributes.len() - 1;
    v.attributes[last].raw.visible = v.derived_visibility(&v.attributes[last], FormKind::Raw);
    let id = v.attributes[last].id.clone();
    if v.attributes.iter().filter(|a| a.id == id).count() > 1 {
        return None;
    }
    let mut edits = flip.edits;
    edits.push(Edit::AddAttribute {
        attribute: id,
        holder: v.people[holder].id.clone(),
        text: t.raw,
        fact: Some(stated),
    });
    Some(Candidate {
        scenario: v.into(),
        edits,
        flow: None,
    })
}
