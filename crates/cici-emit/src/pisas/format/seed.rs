//! A PiSAs task-family seed (schema 2.1), as far as cici reads it: the
//! only spelling of its keys. Every part is a [`Field`], so reading a seed
//! never fails as a whole; `pisas::import::seed` reads it part by part.
//! Keys cici does not read are left out, and ignored.

use indexmap::IndexMap;
use serde::Deserialize;

use super::field::{objects, Field, Shape};

/// A list of parts, each read on its own.
pub type List<T> = Field<Vec<Field<T>>>;
/// A map of parts by key, in the file's order, each read on its own.
pub type Map<T> = Field<IndexMap<String, Field<T>>>;
/// `{variable: state}` or `{variable: [states]}`: a state name is a string,
/// and a single one need not be in a list (it is then `Bad`, a value of
/// another shape than a list).
pub type StatesEntry = Map<Vec<Field<String>>>;

/// The seed file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct SeedFile {
    pub task_family_id: Field<String>,
    pub task: Field<SeedTask>,
    pub timeline: Field<Timeline>,
    pub decision_policy: Field<DecisionPolicy>,
    pub participants: Field<Participants>,
    pub outcomes: List<String>,
    pub evidence_variables: Map<VariableEntry>,
    pub generation_plan: Field<GenerationPlan>,
    pub decision_decoys: List<DecoyEntry>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct SeedTask {
    pub description: Field<String>,
    pub executor_brief: Field<ExecutorBrief>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ExecutorBrief {
    pub template: Field<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Timeline {
    pub default_layout: Field<Layout>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Layout {
    pub context_artifact: Field<ContextArtifact>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ContextArtifact {
    pub content: Field<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct DecisionPolicy {
    pub summary: Field<String>,
    pub rules: List<RuleEntry>,
}

/// One first-match rule.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct RuleEntry {
    pub outcome: Field<String>,
    pub when: Field<ConditionEntry>,
}

/// A rule's condition: `{"otherwise": true}`, `all`, `any`, `not`, or
/// `evidence` with `is`, `is_not` or `in`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConditionEntry {
    pub otherwise: Field<bool>,
    pub all: List<ConditionEntry>,
    pub any: List<ConditionEntry>,
    pub not: Field<Box<ConditionEntry>>,
    pub evidence: Field<String>,
    pub is: Field<String>,
    pub is_not: Field<String>,
    #[serde(rename = "in")]
    pub within: List<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Participants {
    pub executor: Field<RoleEntry>,
    pub roles: List<RoleEntry>,
    pub subject: Field<RoleEntry>,
    pub other_cast: List<RoleEntry>,
}

/// A member of the cast.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct RoleEntry {
    pub role_id: Field<String>,
    pub title: Field<String>,
    pub team: Field<String>,
    pub name: Field<String>,
}

/// An evidence variable, with its states.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct VariableEntry {
    pub holder_role: Field<String>,
    pub states: Map<StateEntry>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StateEntry {
    pub surface_realizations: List<RealizationEntry>,
    pub canonical_fact: Field<String>,
}

/// One way a state is said: `clean`, or `privacy_entangled` with the
/// sentence that says the fact alone.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct RealizationEntry {
    pub text: Field<String>,
    pub kind: Field<String>,
    pub clean_rewrite: Field<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct DecoyEntry {
    pub id: Field<String>,
    pub holder_role: Field<String>,
    pub text: Field<String>,
    pub pushes_outcome: Field<String>,
    pub preconditions: StatesEntry,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct GenerationPlan {
    pub invalid_configurations: List<StatesCase>,
    pub decision_decoys_per_scenario: Field<RangeEntry>,
    pub personal_context_items_per_person: Field<RangeEntry>,
    pub max_decoys_per_holder: Field<u64>,
    pub outcome_quotas: Map<u64>,
    pub coverage_cases: List<StatesCase>,
    pub evidence_realization_mix: Field<RealizationMix>,
}

/// An invalid configuration or a coverage case.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StatesCase {
    pub evidence_states: StatesEntry,
}

/// A number, or `{min, max}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum RangeEntry {
    Exact(u64),
    Span {
        #[serde(default)]
        min: Field<u64>,
        #[serde(default)]
        max: Field<u64>,
    },
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct RealizationMix {
    pub required_evidence: Field<EntangledShare>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct EntangledShare {
    pub privacy_entangled_fraction: Field<f64>,
}

/// The personal-context library that goes with the seeds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct LibraryFile {
    pub items: List<LibraryItem>,
}

/// One personal-context item: a sentence template, its topic, and the
/// roles it fits.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct LibraryItem {
    pub id: Field<String>,
    pub template: Field<String>,
    pub topic: Field<String>,
    pub fits: List<String>,
}

objects!(
    LibraryFile,
    LibraryItem,
    SeedFile,
    SeedTask,
    ExecutorBrief,
    Timeline,
    Layout,
    ContextArtifact,
    DecisionPolicy,
    RuleEntry,
    ConditionEntry,
    Participants,
    RoleEntry,
    VariableEntry,
    StateEntry,
    RealizationEntry,
    DecoyEntry,
    GenerationPlan,
    StatesCase,
    RealizationMix,
    EntangledShare,
);

impl Shape for RangeEntry {
    fn fits(v: &serde_json::Value) -> bool {
        v.is_object() || v.is_number()
    }
}

#[cfg(test)]
mod tests {
    use super::super::field::Shape;
    use super::{Field, RoleEntry, SeedFile};
    use serde_json::json;

    fn read<T: serde::de::DeserializeOwned + Shape>(v: serde_json::Value) -> Field<T> {
        serde::Deserialize::deserialize(&v).unwrap()
    }

    #[test]
    fn each_part_is_read_as_absent_null_of_its_type_or_of_another_shape() {
        let seed: SeedFile =
            serde_json::from_value(json!({"task_family_id": 3, "task": null})).unwrap();
        assert_eq!(seed.task_family_id, Field::Bad(json!(3)));
        assert!(matches!(seed.task, Field::Null));
        assert!(matches!(seed.participants, Field::Missing));
        assert_eq!(read::<String>(json!("x")), Field::Ok("x".into()));
        assert_eq!(read::<u64>(json!(-1)), Field::Bad(json!(-1)));
        assert_eq!(read::<u64>(json!(2.5)), Field::Bad(json!(2.5)));
    }

    #[test]
    fn a_struct_is_read_from_an_object_only() {
        // serde alone reads a struct out of an array, field by field.
        assert!(serde_json::from_value::<RoleEntry>(json!(["a", "b"])).is_ok());
        assert!(
            read::<RoleEntry>(json!(["a", "b"])).get().is_none(),
            "an array is of another shape"
        );
        let role = read::<RoleEntry>(json!({"role_id": "lead", "title": 7}));
        let role = role.get().expect("an object is a role");
        assert_eq!(role.role_id, Field::Ok("lead".into()));
        assert_eq!(role.title, Field::Bad(json!(7)));
        assert!(matches!(role.name, Field::Missing));
    }

    #[test]
    fn text_and_json_forms_of_a_string_field() {
        assert_eq!(Field::Ok("a".to_string()).as_json(), "\"a\"");
        assert_eq!(Field::<String>::Bad(json!(1)).as_json(), "1");
        assert_eq!(Field::<String>::Null.as_json(), "null");
        assert_eq!(Field::<String>::Bad(json!(1)).text_or_empty(), "");
    }
}
