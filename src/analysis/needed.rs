//! What the task needs of an attribute: whether its facts are evidence,
//! and whether it needs one of its forms.

use super::Report;
use crate::model::{FactStatus, Model};
use crate::sema::{FormKind, Scenario};

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
    let mut cx = super::Cx::new(sc, model, deadline);
    if !super::rules_pass(sc, deadline, &mut cx.report.diagnostics) {
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
    cx.relevance_of(&appropriate, &theirs).ok()?;
    Some(
        theirs
            .iter()
            .any(|&f| cx.report.facts[f].relevant == Some(true)),
    )
}
