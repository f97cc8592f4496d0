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
