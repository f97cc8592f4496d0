//! A decision edit can leave another finding idle: once a severity
//! finding reads otherwise, a finding on a signal that no rule still
//! open reads rules out nothing, and the variant warns of a fact it does
//! not need, which the critic turns down. Rather than lose the side, the
//! details whose facts went idle are dropped, as a writer would drop what
//! no longer bears on the case; each drop is one more edit of the side.

use crate::counterfactual::base::records::Evaluated;
use crate::counterfactual::base::vocab::{Candidate, Edit};
use crate::model::FactStatus;

/// The warning of an appropriate fact that rules nothing out.
const IDLE: &str = "cici::check::idle_fact";

/// The candidate with the details dropped whose facts the edit left idle,
/// and the edits that say so; None when the variant warns of no idle fact
/// the anchor did not, or when an idle fact is one the edit wrote.
pub(crate) fn dropped(
    anchor: &Evaluated,
    candidate: &Candidate,
    ev: &Evaluated,
) -> Option<Candidate> {
    let new = ev.warnings.iter().any(|w| w == IDLE) && !anchor.warnings.iter().any(|w| w == IDLE);
    if !new {
        return None;
    }
    let c = &ev.checked;
    let idle: Vec<usize> = c
        .report
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, finding)| {
            finding.facts.iter().any(|&f| {
                c.model.facts[f].status == FactStatus::Appropriate
                    && c.report.facts[f].relevant == Some(false)
            })
        })
        .map(|(a, _)| a)
        .collect();
    let sc = &c.scenario;
    // An attribute is known by its place: one the edit moved has a new
    // id in the variant and its old one in the edits.
    let place =
        |id: &str| crate::counterfactual::base::vocab::place(id, &anchor.checked.scenario, sc);
    let written: Vec<usize> = candidate
        .edits
        .iter()
        .filter_map(|e| match e {
            Edit::ReplaceFact { attribute, .. }
            | Edit::AddAttribute { attribute, .. }
            | Edit::SetHolder { attribute, .. } => place(attribute),
            _ => None,
        })
        .collect();
    if idle.is_empty() || idle.iter().any(|a| written.contains(a)) {
        return None;
    }
    let mut v = sc.clone();
    let mut edits = candidate.edits.clone();
    for &a in idle.iter().rev() {
        edits.push(Edit::DropAttribute {
            attribute: v.attributes.remove(a).id,
        });
    }
    Some(Candidate {
        scenario: v.into(),
        edits,
        flow: candidate.flow.clone(),
    })
}
