//! The import map (`import.json`): what each written scenario came from.

use std::collections::BTreeMap;

use serde::Serialize;

/// Where one attribute of an imported scenario came from.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AttributeSource {
    /// The evidence of this variable.
    Variable(String),
    /// A decision decoy, by its id in the seed.
    Decoy(String),
    /// An item of the personal-context library, by its id.
    Personal(String),
    /// An attribute of a bundle, by its id there.
    Bundle(String),
    /// A text an artifact of a bundle carries that no attribute names (the
    /// sanitized form of a private constraint), by the artifact's id.
    Artifact(String),
}

/// One written scenario, as `import.json` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ImportedScenario {
    pub file: String,
    pub scenario: String,
    /// The seed file or bundle folder read.
    pub source: String,
    /// The state of every evidence variable (policy tasks).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub configuration: BTreeMap<String, String>,
    pub oracle: String,
    pub attributes: BTreeMap<String, AttributeSource>,
    /// Bundle attributes that state the public setting (a roster, a ticket
    /// board, a room inventory) rather than something a person holds: what
    /// each became in the seed.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub public: BTreeMap<String, String>,
    /// Parts of the source that had errors and were left out (`--keep-going`):
    /// `path: reason`. The scenario depends on none of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

/// `import.json`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportMap {
    pub scenarios: Vec<ImportedScenario>,
}

/// One scenario ready to write: its seed text and its map entry.
#[derive(Clone, Debug)]
pub struct Written {
    pub text: String,
    pub entry: ImportedScenario,
}
