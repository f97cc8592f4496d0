//! What the task needs of an attribute: whether its facts are evidence,
//! and whether it needs one of its forms.

use super::{FactFinding, Report};
use crate::model::{FactStatus, Model};
use crate::sema::{FormKind, Scenario};
use crate::solver::{Outcome, Session};

/// Whether an attribute's facts are evidence for the task: an appropriate
/// fact of it rules something out.
pub fn is_evidence(report: &Report, model: &Model, attribute: usize) -> bool {
    report.attributes[attribute].facts.iter().any(|&f| {
        model.facts[f].status == FactStatus::Appropriate && report.facts[f].relevant == Some(true)
    })
}

/// Whether the task needs one form of an attribute: it is appropriate,
/// carries the attribute's facts (no less revealing form carries them),
/// and those facts are evidence for the task.
pub fn form_needed(
    sc: &Scenario,
    report: &Report,
    model: &Model,
    attribute: usize,
    kind: FormKind,
) -> bool {
    let attr = &sc.attributes[attribute];
    attr.form(kind).is_some_and(|f| f.appropriate)
        && attr.fact_form().0 == kind
        && is_evidence(report, model, attribute)
}

/// [`form_needed`] with only the proofs it reads: the relevance of the
/// attribute's appropriate facts, each of which takes a solve or two where
/// the whole report takes uniqueness, necessity and every trap. A fact is
/// relevant or not whatever else is proved, so the answer is the whole
/// report's; `None` when the proofs (or a rule setting's lints, which the
/// whole report runs first) run out of time.
pub fn form_needed_proved(
    sc: &Scenario,
    model: &Model,
    attribute: usize,
    kind: FormKind,
    options: &super::Options,
) -> Option<bool> {
    let deadline = options.max_solve.map(|d| std::time::Instant::now() + d);
    if !super::rules_pass(sc, deadline, &mut Vec::new()) {
        return None;
    }
    let attr = &sc.attributes[attribute];
    if !(attr.form(kind).is_some_and(|f| f.appropriate) && attr.fact_form().0 == kind) {
        return Some(false);
    }
    let appropriate = model.facts_with(FactStatus::Appropriate);
    let theirs: Vec<usize> = appropriate
        .iter()
        .copied()
        .filter(|&f| model.facts[f].origin.attribute == attribute)
        .collect();
    let found = if model.facts.iter().any(|f| f.violated.is_none()) {
        // Relevance by enumeration asks the deciding session.
        let mut cx = super::Cx::new(sc, model, deadline);
        cx.relevance_of(&appropriate, &theirs).ok()?;
        cx.report.facts
    } else {
        let mut found = vec![FactFinding::default(); model.facts.len()];
        relevance_by_violation(model, deadline, &theirs, &mut found, &mut 0).ok()?;
        found
    };
    Some(theirs.iter().any(|&f| found[f].relevant == Some(true)))
}

/// The relevance of `facts` where every fact says how a decision violates
/// it: each is relevant when a decision the public constraints allow
/// violates it, each solve counted in `solves`.
pub(super) fn relevance_by_violation(
    model: &Model,
    deadline: Option<std::time::Instant>,
    facts: &[usize],
    found: &mut [FactFinding],
    solves: &mut u32,
) -> Result<(), super::TimedOut> {
    let mut session = Session::for_violations(model, deadline);
    let none = vec![false; model.facts.len()];
    for (i, &f) in facts.iter().enumerate() {
        if found[f].relevant.is_some() {
            continue;
        }
        let Some(v) = session.violation(f) else {
            found[f].relevant = Some(false);
            continue;
        };
        let outcome = session.solve(&none, &[v]);
        *solves += 1;
        match outcome {
            Outcome::Timeout => return Err(super::TimedOut),
            Outcome::Unsat => found[f].relevant = Some(false),
            Outcome::Sat(choice) => {
                // The same witness may violate later facts too.
                let decision = model.decode(&choice);
                for &g in &facts[i..] {
                    if found[g].relevant.is_none() && session.violated_now(g) {
                        found[g].relevant = Some(true);
                        found[g].forbids = Some(decision.clone());
                    }
                }
                found[f].relevant = Some(true);
                found[f].forbids.get_or_insert(decision);
            }
        }
    }
    Ok(())
}
