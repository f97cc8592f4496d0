//! The JSON export of a checked scenario: the dual annotations of PiSAs.
//!
//! In: a scenario and its report. Out: a [`ScenarioExport`], whose JSON
//! Schema is generated from these very types ([`schema`]) and against which
//! every export is validated before it is written ([`Validator`]).
//!
//! Every attribute form is its own record: the raw form keeps the attribute
//! id, the sanitized form is `<id>.sanitized` with `derived_from` set.

pub mod inspect;
pub mod model;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::analysis::{Class, Report};
use crate::printer::{decision_rows, predicate};
use crate::records::{setting, PersonExport, SettingExport};
use crate::sema::{Category, Family, FormKind, Scenario};

/// The version of the export format; bump it when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

/// One scenario with everything an evaluation needs.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(title = "cici scenario export", deny_unknown_fields)]
pub struct ScenarioExport {
    pub schema_version: u32,
    pub id: String,
    pub family: Family,
    pub title: String,
    pub task: String,
    pub recipient: Option<String>,
    /// Public context with no semantics.
    pub public: Vec<String>,
    /// The decision rule as workplace prose, where the seed gives one.
    pub policy: Option<String>,
    pub executor: String,
    pub people: Vec<PersonExport>,
    pub setting: SettingExport,
    /// Every attribute form as its own record.
    pub forms: Vec<FormExport>,
    /// Who may see which forms: person id to form ids.
    pub visibility: BTreeMap<String, Vec<String>>,
    pub oracle: Vec<OracleEntryExport>,
    pub analysis: AnalysisExport,
}

/// One form of one attribute.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormExport {
    /// The attribute id for the raw form, `<id>.sanitized` for the sanitized one.
    pub id: String,
    pub attribute: String,
    pub form: FormKind,
    /// For a sanitized form: the id of the raw form it derives from.
    pub derived_from: Option<String>,
    pub text: String,
    pub holder: String,
    pub about: String,
    pub category: Option<Category>,
    /// Personal and sensitive (as opposed to context).
    pub personal: bool,
    pub appropriate: bool,
    pub visible_to: Vec<String>,
    /// The class of the attribute, from the prover.
    pub class: Class,
    /// Hard facts the form states, in seed syntax.
    pub facts: Vec<String>,
    /// Soft facts (raw form only), in seed syntax.
    pub soft: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct OracleEntryExport {
    /// The meeting or ticket, or `level`.
    pub target: String,
    /// `tue 10:00-11:00 @ elm`, `avi + bea`, or a level.
    pub value: String,
}

/// What the prover established.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct AnalysisExport {
    pub unique: bool,
    pub trivial: Option<bool>,
    pub critical: Vec<String>,
    pub supporting: Vec<String>,
    pub traps: Vec<String>,
    pub benign: Vec<String>,
    pub irrelevant: Vec<String>,
    pub idle: Vec<String>,
}

/// The export of a checked scenario.
pub fn export(sc: &Scenario, report: &Report) -> ScenarioExport {
    let person = |p: usize| sc.people[p].id.clone();
    let mut forms = Vec::new();
    let mut visibility: BTreeMap<String, Vec<String>> = sc
        .people
        .iter()
        .map(|p| (p.id.clone(), Vec::new()))
        .collect();
    for (a, attr) in sc.attributes.iter().enumerate() {
        let class = report.attributes[a].class;
        for (kind, form) in attr.forms() {
            let id = attr.form_id(kind);
            for &p in &form.visible {
                visibility.entry(person(p)).or_default().push(id.clone());
            }
            forms.push(FormExport {
                id,
                attribute: attr.id.clone(),
                form: kind,
                derived_from: (kind == FormKind::Sanitized).then(|| attr.id.clone()),
                text: form.text.clone(),
                holder: person(attr.holder),
                about: person(attr.about),
                category: attr.category,
                personal: attr.category.is_some_and(Category::is_personal),
                appropriate: form.appropriate,
                visible_to: form.visible.iter().map(|&p| person(p)).collect(),
                class,
                facts: form
                    .facts
                    .iter()
                    .map(|f| predicate(sc, &f.predicate))
                    .collect(),
                soft: if kind == FormKind::Raw {
                    attr.soft
                        .iter()
                        .map(|f| predicate(sc, &f.predicate))
                        .collect()
                } else {
                    Vec::new()
                },
            });
        }
    }
    let with = |c: Class| -> Vec<String> {
        sc.attributes
            .iter()
            .zip(&report.attributes)
            .filter(|(_, f)| f.class == c)
            .map(|(a, _)| a.id.clone())
            .collect()
    };
    ScenarioExport {
        schema_version: SCHEMA_VERSION,
        id: sc.id.clone(),
        family: sc.family(),
        title: sc.title.clone(),
        task: sc.task.clone(),
        recipient: sc.recipient.clone(),
        public: sc.public.clone(),
        policy: sc.policy.clone(),
        executor: person(sc.executor),
        people: PersonExport::all(sc),
        setting: setting(sc),
        forms,
        visibility,
        oracle: decision_rows(sc, &sc.oracle)
            .into_iter()
            .map(|(target, value)| OracleEntryExport { target, value })
            .collect(),
        analysis: AnalysisExport {
            unique: report.unique,
            trivial: report.trivial,
            critical: with(Class::Critical),
            supporting: with(Class::Supporting),
            traps: with(Class::Trap),
            benign: with(Class::Benign),
            irrelevant: with(Class::Irrelevant),
            idle: with(Class::Idle),
        },
    }
}

/// The JSON Schema of [`ScenarioExport`].
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ScenarioExport)).expect("schemas serialize")
}

/// Validates exports against the schema, compiled once.
pub struct Validator {
    inner: jsonschema::Validator,
}

impl Validator {
    pub fn new() -> Validator {
        Validator {
            inner: jsonschema::validator_for(&schema())
                .expect("the generated schema is a valid schema"),
        }
    }

    /// Every way the value breaks the schema, as text; empty when valid.
    pub fn errors(&self, value: &serde_json::Value) -> Vec<String> {
        self.inner
            .iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect()
    }
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new()
    }
}
