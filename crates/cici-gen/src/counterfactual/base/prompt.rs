//! What a language model is shown of a scenario, the same for the model
//! generator and the model critic, so that the critic knows no generator.
//!
//! In: a checked scenario and edits. Out: the prompts' shared parts.

use schemars::JsonSchema;
use serde::Serialize;

use super::vocab::Edit;
use crate::driver::Checked;

/// The system message of every prompt.
pub const SYSTEM: &str = "You edit and review scenarios of a privacy benchmark. You reply with one JSON object and nothing else.";

/// The JSON Schema of a reply type, for structured output.
pub fn schema_of<T: JsonSchema>() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialize")
}

/// An attribute as a prompt shows it.
#[derive(Serialize)]
pub struct AttributeCtx {
    pub id: String,
    pub holder: String,
    pub category: Option<String>,
    pub raw: String,
    pub sanitized: Option<String>,
    pub facts: Vec<String>,
}

/// The attributes of `c` as prompts show them; only those in `only`
/// when given.
pub fn attributes(c: &Checked, only: Option<&[String]>) -> Vec<AttributeCtx> {
    let sc = &c.scenario;
    sc.attributes
        .iter()
        .filter(|a| only.is_none_or(|ids| ids.contains(&a.id)))
        .map(|a| AttributeCtx {
            id: a.id.clone(),
            holder: sc.people[a.holder].id.clone(),
            category: a.category.map(|c| c.name().to_string()),
            raw: a.raw.text.clone(),
            sanitized: a.sanitized.as_ref().map(|s| s.text.clone()),
            facts: a
                .fact_form()
                .1
                .facts
                .iter()
                .chain(&a.soft)
                .map(|f| crate::printer::predicate(sc, &f.predicate))
                .collect(),
        })
        .collect()
}

/// Edits as the JSON the prompts quote.
pub fn edits_json(edits: &[Edit]) -> String {
    serde_json::to_string(edits).expect("edits serialize")
}
