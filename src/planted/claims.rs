//! Consequential traps, planted backwards: take a decision the oracle
//! would give way to if one appropriate fact were dropped, find a fact
//! that rules the oracle out and lets that decision in, and state it as
//! the `claim` of an inappropriate personal detail; then prove that a
//! reader who honours it reaches that decision and no other (see
//! `docs/language.md`, "Traps that lead somewhere"), else try another.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::analysis::{analyse, Options, TrapEffect};
use crate::model::{self, FactStatus};
use crate::sema::{Attribute, Decision, Fact, Form, Predicate, RulePredicate, Scenario, Setting};
use crate::span::Span;

/// Candidate claims tried, at most, per planted trap.
const TRIES: usize = 24;

/// The bound on all proofs of one planting: a scenario too large to prove
/// in it gets no planted trap rather than a long wait.
const PROOF_BOUND: std::time::Duration = std::time::Duration::from_secs(5);

/// Plants one consequential trap and returns the decision it leads to;
/// None when no candidate is proved to lead to exactly one other decision
/// (the scenario is then unchanged).
pub(crate) fn plant(sc: &mut Scenario, rng: &mut ChaCha8Rng) -> Option<Decision> {
    let deadline = std::time::Instant::now() + PROOF_BOUND;
    let options = || Options {
        max_solve: Some(deadline.saturating_duration_since(std::time::Instant::now())),
    };
    let m = model::lower(sc);
    let report = analyse(sc, &m, &options());
    if !report.unique || report.timed_out {
        return None;
    }
    let mut candidates = claim_candidates(sc, &m, &report);
    candidates.shuffle(rng);
    for p in candidates.into_iter().take(TRIES) {
        let mut trial = sc.clone();
        let holder = match p.subject() {
            Some(s) => s,
            None => rng.random_range(1..sc.people.len()),
        };
        if !push_claim(&mut trial, holder, p, rng) {
            continue;
        }
        let m = model::lower(&trial);
        let r = analyse(&trial, &m, &options());
        if r.timed_out {
            return None;
        }
        let leads: Option<Vec<Decision>> = m
            .facts
            .iter()
            .zip(&r.facts)
            .filter(|(f, _)| f.status == FactStatus::Claim)
            .map(|(_, found)| match &found.trap {
                Some(TrapEffect::Leads(d)) => Some(d.clone()),
                _ => None,
            })
            .collect();
        if let (true, Some(to)) = (r.unique, leads.and_then(|l| l.into_iter().next())) {
            *sc = trial;
            return Some(to);
        }
    }
    None
}

/// Facts that rule the oracle out: for the allocation families, those
/// that let in a decision a necessary fact alone keeps out (the nearest
/// other decisions); for the rule families, another value of a variable
/// the evidence pins down, so that a rule's condition reads otherwise.
fn claim_candidates(
    sc: &Scenario,
    m: &model::Model,
    report: &crate::analysis::Report,
) -> Vec<Predicate> {
    let mut out = Vec::new();
    if let Setting::Rule(ss) = &sc.setting {
        for f in &m.facts {
            if f.status != FactStatus::Appropriate {
                continue;
            }
            let attr = &sc.attributes[f.origin.attribute];
            let Some(fact) = attr.fact_form().1.facts.get(f.origin.index) else {
                continue;
            };
            if let Predicate::Rule(RulePredicate::Evidence { variable, value }) = fact.predicate {
                for other in 0..ss.evidence[variable].values.len() {
                    if other != value {
                        out.push(Predicate::Rule(RulePredicate::Evidence {
                            variable,
                            value: other,
                        }));
                    }
                }
            }
        }
        return out;
    }
    let mut targets: Vec<&Decision> = report
        .facts
        .iter()
        .filter(|f| f.necessary == Some(true))
        .filter_map(|f| f.lets_in.as_ref())
        .collect();
    targets.dedup();
    for d in targets {
        let mut swapped = sc.clone();
        swapped.oracle = d.clone();
        for p in super::separating_facts(&swapped, &sc.oracle) {
            if p.subject().is_some()
                && !out.contains(&p)
                && model::direct::allowed(sc, d, &[&p])
                && !model::direct::allowed(sc, &sc.oracle, &[&p])
            {
                out.push(p);
            }
        }
    }
    out
}

/// Appends an inappropriate personal detail of `holder` whose raw form
/// claims `p`, worded as the needed details are; false when the fact has
/// no claim phrasing.
fn push_claim(sc: &mut Scenario, holder: usize, p: Predicate, rng: &mut ChaCha8Rng) -> bool {
    let texts = crate::phrasing::FactTexts::builtin();
    let Some(t) = crate::phrasing::claim(texts, sc, &p, holder, rng) else {
        return false;
    };
    let raw = Form {
        text: t.raw,
        appropriate: false,
        visible: vec![holder],
        facts: Vec::new(),
        span: Span::DERIVED,
        text_span: Span::DERIVED,
    };
    let id = format!("a{:03}_{}", sc.attributes.len() + 1, sc.people[holder].id);
    let mut attr = Attribute::derived(id, holder, Some(t.category), raw, None, Vec::new());
    attr.claims = vec![Fact::derived(p)];
    // Among the other details, not after them.
    let at = rng.random_range(0..=sc.attributes.len());
    sc.attributes.insert(at, attr);
    for (n, a) in sc.attributes.iter_mut().enumerate() {
        a.id = format!("a{:03}_{}", n + 1, sc.people[a.holder].id);
    }
    true
}
