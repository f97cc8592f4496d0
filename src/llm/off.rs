//! Without the `llm` feature there is no model to call: [`Llm`] has no
//! value, so every place that would use one is unreachable, and the
//! counterfactual loop runs the symbolic generator and critic alone.

/// A model client, which cannot exist without the `llm` feature.
#[derive(Debug)]
pub enum Llm {}

/// What a model was asked and answered; never produced without models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub requests: u64,
    pub cache_hits: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub retries: u64,
    pub pending: u64,
}

impl Llm {
    pub fn model(&self) -> &str {
        match *self {}
    }

    pub fn usage(&self) -> Usage {
        match *self {}
    }

    pub fn fatal(&self) -> Option<String> {
        match *self {}
    }
}
