//! Without the `llm` feature: the model critic cannot be configured (its
//! [`Llm`] has no value), so this is never reached.

use crate::counterfactual::base::records::Verdict;
use crate::counterfactual::base::vocab::Candidate;
use crate::driver::Checked;
use crate::llm::Llm;
use crate::render::Templates;

/// The model critic's verdicts; unreachable without a model.
pub fn critique(
    llm: &Llm,
    _templates: &Templates,
    _anchor: &Checked,
    _variant: &Checked,
    _candidate: &Candidate,
    _goal: &str,
) -> Option<Vec<Verdict>> {
    match *llm {}
}
