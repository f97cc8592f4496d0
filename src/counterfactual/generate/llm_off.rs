//! Without the `llm` feature: the model generator and critic cannot be
//! configured (their [`Llm`] has no value), so these are never reached.

use super::critic::Verdict;
use super::vocab::Candidate;
use super::{Proposal, Proposer, Rejection};
use crate::driver::Checked;
use crate::llm::Llm;
use crate::render::Templates;

/// The model's proposer; it cannot be built without a model.
pub struct LlmProposer<'a> {
    pub llm: &'a Llm,
    pub templates: &'a Templates,
    pub anchor: &'a Checked,
    pub seed_text: &'a str,
    pub goal: String,
    pub taken: Vec<String>,
}

impl Proposer for LlmProposer<'_> {
    fn next(&mut self, _rejected: &[Rejection]) -> Proposal {
        match *self.llm {}
    }
}

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
