//! `appropriateness.json` and `visibility.json`: each bundle attribute's
//! label, and who holds it and may see it.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `appropriateness.json` of a bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AppropriatenessFile {
    /// cici reads the id from `scenario.json` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_id: Option<String>,
    pub attributes: IndexMap<String, Label>,
}

/// Whether an attribute may be used for the task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    Appropriate,
    Inappropriate,
}

/// `visibility.json` of a bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VisibilityFile {
    /// cici reads the id from `scenario.json` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_id: Option<String>,
    pub attributes: IndexMap<String, Visibility>,
}

/// Who holds an attribute and who may see it, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Visibility {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `source` for an appropriate attribute, `trap` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<String>,
    #[serde(default)]
    pub visible_to: Vec<String>,
    #[serde(default)]
    pub hidden_from: Vec<String>,
}
