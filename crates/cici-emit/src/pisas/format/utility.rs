//! `utility.json`: what the answer must be, every attribute's value, the
//! structured oracle of the assignment families, and, in a bundle cici
//! wrote, the seed it came from.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `utility.json` of a bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UtilityFile {
    /// cici reads the id from `scenario.json` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    #[serde(default)]
    pub allowed_answers: Vec<String>,
    pub oracle_answer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_rule: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle_reasoning: Option<String>,
    pub attribute_values: IndexMap<String, AttributeValue>,
    /// ticket → specialty (or `owner`, `collaborator`) → participant key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle_assignment: Option<IndexMap<String, IndexMap<String, String>>>,
    /// meeting → slot and room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle_schedule: Option<IndexMap<String, Placement>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_valid_assignment_count_before_private_constraints: Option<Count>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_valid_assignment_count_after_private_constraints: Option<Count>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_valid_schedule_count_before_private_constraints: Option<Count>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_valid_schedule_count_after_private_constraints: Option<Count>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_private_solution: Option<bool>,
    /// The state of every evidence variable (rule-based families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<IndexMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_evidence_variables: Option<Vec<String>>,
    /// The private constraints of a JIRA bundle with their sanitized
    /// rewrites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_private_constraints: Option<Vec<HiddenPrivate>>,
    /// What cici adds: the seed, the family, the note style, the defects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cici: Option<CiciSection>,
}

/// A count of decisions: a number when exact, `{"at_least": n}` when a
/// bound or a deadline stopped the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Count {
    Exact(u64),
    AtLeast { at_least: u64 },
}

/// Where the oracle puts one meeting, by the bundle's slot and room ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Placement {
    pub slot: String,
    pub room: String,
}

/// One bundle attribute: its text and what the generator knew of it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AttributeValue {
    pub value: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about_attribute: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about_value: Option<String>,
    /// `required`, `trap_critical`, `trap_decoy`, `personal`,
    /// `public_source`...
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The artifact that carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cici_class: Option<String>,
    /// For a trap that leads somewhere: the decision a reader reaches who
    /// honours this detail, in seed syntax, one `target -> value` per row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cici_leads_to: Option<String>,
    /// The evidence an entangled detail is fused with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_sentence: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clean_rewrite: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivered_phrasing: Option<String>,
    /// The evidence variable it states (rule-based families).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
    /// The outcome a decoy pushes toward.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pushes: Option<String>,
    /// The raw detail an operational constraint is the twin of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_trap_attr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanitized_operational_constraint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_solver_constraint: Option<HiddenConstraint>,
}

/// A private constraint as the solver of the release's generators reads
/// it: an archetype (`type`) and the fields that archetype uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HiddenConstraint {
    /// The participant key of the person it constrains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_person: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_meeting_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_meeting_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earliest_hour: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest_hour: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_day: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_hour: Option<f64>,
}

/// A private constraint of a JIRA bundle with its sanitized rewrite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HiddenPrivate {
    pub person: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanitized: Option<String>,
}

/// `utility.json`'s `cici` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CiciSection {
    pub family: String,
    pub notes: String,
    /// The seed text of the scenario, as its source file has it.
    pub seed: String,
    /// Errors `cici check` found, when the bundle was written anyway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defects: Option<Vec<Defect>>,
    /// Each bundle id (`a1`) with the cici id of its form
    /// (`eli_infusion.sanitized`). Absent in bundles written before ids
    /// were neutral, whose ids are cici's own.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub ids: IndexMap<String, String>,
}

/// One error of the check, as a bundle written with defects records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Defect {
    pub code: Option<String>,
    pub message: String,
    pub help: Option<String>,
}
