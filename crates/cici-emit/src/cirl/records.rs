//! The CI-RL release's records (`datasets/synthetic/dataset.json` of
//! EricGLan/CI-RL): a list of examples, each a seed and a dataset item.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::fields::Keys;

#[derive(Clone, Debug, Deserialize)]
pub struct Example {
    pub seed: Seed,
    pub dataset_item: DatasetItem,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Seed {
    /// `email` or `chat messages`: how the message goes.
    pub scenario: String,
    pub domain: String,
    pub user_intention: String,
    pub sender: String,
    pub recipient: String,
    pub data_subject: String,
    pub information_type: InformationType,
    /// `Confidentiality`, `Proportionality` or `Consent`.
    pub transmission_principle: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct InformationType {
    pub allowed: Vec<String>,
    pub disallowed: Vec<String>,
    /// Why the types are allowed or not, in most examples.
    #[serde(default)]
    pub reasoning: Option<Value>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct DatasetItem {
    pub user_task: String,
    /// What the prompt shows: attribute to value (a string, or a list or
    /// an object in a few examples).
    pub information: Map<String, Value>,
    /// Present in one example; the release's prompt does not show it.
    #[serde(default)]
    pub past_emails: Option<Value>,
    pub annotation: Annotation,
}

/// What the reward scores: attribute to the short value matched as a
/// substring of the answer.
#[derive(Clone, Debug, Deserialize)]
pub struct Annotation {
    pub allowed: Map<String, Value>,
    pub disallowed: Map<String, Value>,
}

pub const EXAMPLE: Keys = Keys {
    required: &["seed", "dataset_item"],
    optional: &[],
};
pub const SEED: Keys = Keys {
    required: &[
        "scenario",
        "domain",
        "user_intention",
        "sender",
        "recipient",
        "data_subject",
        "information_type",
        "transmission_principle",
    ],
    optional: &[],
};
pub const SIDES: Keys = Keys {
    required: &["allowed", "disallowed"],
    optional: &[],
};
pub const TYPES: Keys = Keys {
    required: &["allowed", "disallowed"],
    optional: &["reasoning"],
};
pub const ITEM: Keys = Keys {
    required: &["user_task", "information", "annotation"],
    optional: &["past_emails"],
};
