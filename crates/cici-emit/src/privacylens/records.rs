//! The PrivacyLens release's records (`data/main_data.json` of
//! SALT-NLP/PrivacyLens): a list of cases, each a seed (the 5-tuple of data
//! type, subject, sender, recipient and transmission principle), a
//! vignette and an agent trajectory with its sensitive items.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cirl::fields::Keys;

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Case {
    pub name: String,
    pub seed: Seed,
    pub vignette: Vignette,
    pub trajectory: Trajectory,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Seed {
    pub data_type: String,
    pub data_subject: String,
    pub data_sender: String,
    pub data_sender_name: String,
    pub data_recipient: String,
    pub transmission_principle: String,
    pub source: String,
    #[serde(default)]
    pub source_details: Value,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Vignette {
    pub story: String,
    pub data_type_concrete: String,
    pub data_subject_concrete: String,
    pub data_sender_concrete: String,
    pub data_recipient_concrete: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Trajectory {
    pub user_name: String,
    pub user_email: String,
    pub user_instruction: String,
    pub toolkits: Vec<String>,
    /// `Action: ... Action Input: ... Observation: ...` rounds.
    pub executable_trajectory: String,
    pub final_action: String,
    /// What the final action must not disclose.
    pub sensitive_info_items: Vec<String>,
}

pub const CASE: Keys = Keys {
    required: &["name", "seed", "vignette", "trajectory"],
    optional: &[],
};
pub const SEED: Keys = Keys {
    required: &[
        "data_type",
        "data_subject",
        "data_sender",
        "data_sender_name",
        "data_recipient",
        "transmission_principle",
        "source",
    ],
    optional: &["source_details"],
};
pub const VIGNETTE: Keys = Keys {
    required: &[
        "story",
        "data_type_concrete",
        "data_subject_concrete",
        "data_sender_concrete",
        "data_recipient_concrete",
    ],
    optional: &[],
};
pub const TRAJECTORY: Keys = Keys {
    required: &[
        "user_name",
        "user_email",
        "user_instruction",
        "toolkits",
        "executable_trajectory",
        "final_action",
        "sensitive_info_items",
    ],
    optional: &[],
};
