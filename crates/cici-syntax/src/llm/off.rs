//! Without the `llm` feature there is no model to call: [`Llm`] has no
//! value, so every place that would use one is unreachable, and the
//! counterfactual loop runs the symbolic generator and critic alone.

use super::Usage;

/// A model client, which cannot exist without the `llm` feature.
#[derive(Debug)]
pub enum Llm {}

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
