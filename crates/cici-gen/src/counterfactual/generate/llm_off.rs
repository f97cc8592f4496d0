//! Without the `llm` feature: the model generator cannot be configured
//! (its [`Llm`] has no value), so this is never reached.

use super::proposal::{Proposal, Proposer};
use crate::counterfactual::base::records::Rejection;
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
