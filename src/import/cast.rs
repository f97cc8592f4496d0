//! What every released bundle shares: the cast, with the executor first,
//! the labels of its attributes, the texts its artifacts carry, and how an
//! attribute someone holds becomes a seed attribute.

use std::collections::HashMap;

use serde_json::Value;

use super::build;
use super::files::BundleFiles;
use super::json::{field, Report};
use super::names::{category_of_topic, identifier};
use super::{diagnostic::ImportError, map::AttributeSource};
use crate::sema::{
    Attribute, Decision, Family, Form, Person, PersonId, Predicate, Scenario, Setting,
};
use crate::span::Span;

/// The people of a bundle, by name and by the keys the bundle uses for
/// them (`task.participants`' keys, which the JIRA and meeting oracles
/// name people by).
pub struct Cast {
    pub people: Vec<Person>,
    by_name: HashMap<String, PersonId>,
    by_key: HashMap<String, PersonId>,
}

impl Cast {
    /// The cast of `scenario.json`: one person per distinct name, the
    /// executor (`task.executor_role`'s participant) first.
    pub fn read(scenario: &Value, r: &mut Report) -> Option<Cast> {
        let members: Vec<&Value> = match field(scenario, "cast") {
            Some(Value::Object(m)) => m.values().collect(),
            Some(Value::Array(a)) => a.iter().collect(),
            _ => {
                r.shape("cast", "the cast, a map or a list of {name, role}");
                return None;
            }
        };
        let task = &scenario["task"];
        let role = task["executor_role"].as_str().unwrap_or_default();
        let executor = task["participants"][role]["name"]
            .as_str()
            .unwrap_or_default();
        let mut people: Vec<Person> = Vec::new();
        for m in members {
            let Some(name) = m["name"].as_str() else {
                continue;
            };
            let Some(id) = identifier(name) else {
                continue;
            };
            if people.iter().any(|p| p.id == id) {
                continue;
            }
            let person = Person {
                id,
                name: name.to_string(),
                role: m["role"].as_str().unwrap_or("").to_string(),
                skills: Vec::new(),
                groups: Vec::new(),
                manager: None,
                span: Span::DERIVED,
            };
            if name == executor {
                people.insert(0, person);
            } else {
                people.push(person);
            }
        }
        if people.first().is_none_or(|p| p.name != executor) {
            r.push(
                "task.executor_role",
                ImportError::UnknownName {
                    kind: "executor in the cast".into(),
                    name: executor.into(),
                    help: None,
                },
            );
            return None;
        }
        let by_name = by_name(&people);
        let by_key = task["participants"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, p)| Some((k.clone(), *by_name.get(p["name"].as_str()?)?)))
            .collect();
        Some(Cast {
            people,
            by_name,
            by_key,
        })
    }

    /// A person by the name the bundle's texts and labels use.
    pub fn named(&self, name: &str) -> Option<PersonId> {
        self.by_name.get(name.trim()).copied()
    }

    /// A person by the key the bundle's oracle uses: a participant key,
    /// else the person's id or name.
    pub fn keyed(&self, key: &str) -> Option<PersonId> {
        self.by_key
            .get(key)
            .copied()
            .or_else(|| self.people.iter().position(|p| p.id == key))
            .or_else(|| self.named(key))
    }

    pub fn by_name(&self) -> &HashMap<String, PersonId> {
        &self.by_name
    }
}

/// People by the names bundles use for them.
pub fn by_name(people: &[Person]) -> HashMap<String, PersonId> {
    people
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.clone(), i))
        .collect()
}

/// Labels and visibility of one bundle attribute.
pub struct Labels {
    pub appropriate: bool,
    pub holder: Option<String>,
    pub visible: Vec<String>,
}

/// The labels `appropriateness.json` and `visibility.json` give `id`;
/// `None` when the id is in neither.
pub fn labels(files: &BundleFiles, id: &str) -> Option<Labels> {
    let appr = files.appropriateness.value.as_ref()?;
    let vis = files.visibility.value.as_ref()?;
    let v = &vis["attributes"][id];
    if appr["attributes"].get(id).is_none() && v.is_null() {
        return None;
    }
    Some(Labels {
        appropriate: appr["attributes"][id] == "appropriate",
        holder: v["holder"].as_str().map(str::to_string),
        visible: v["visible_to"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect(),
    })
}

/// The people a bundle attribute is visible to, by name; the holder always.
pub fn visible(
    names: &[String],
    by_name: &HashMap<String, PersonId>,
    holder: Option<PersonId>,
) -> Vec<PersonId> {
    let mut visible: Vec<PersonId> = names
        .iter()
        .filter_map(|n| by_name.get(n).copied())
        .chain(holder)
        .collect();
    visible.sort_unstable();
    visible.dedup();
    visible
}

/// The form of bundle attribute `id` with its text, labels and facts, and
/// its holder (the executor when the bundle's holder is not in the cast,
/// as for a ticket board a system wrote).
pub fn labelled_form(
    files: &BundleFiles,
    cast: &Cast,
    id: &str,
    text: &str,
    facts: Vec<crate::sema::Predicate>,
) -> Option<(PersonId, Form)> {
    let l = labels(files, id)?;
    let holder = l.holder.as_deref().and_then(|n| cast.named(n)).unwrap_or(0);
    let visible = visible(&l.visible, cast.by_name(), Some(holder));
    Some((
        holder,
        build::form(text.to_string(), l.appropriate, visible, facts),
    ))
}

/// The first artifact of the timeline whose content carries `text`: its id
/// and the people it is visible to.
pub fn carried_by<'a>(scenario: &'a Value, text: &str) -> Option<(&'a str, Vec<String>)> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    scenario["timeline"]
        .as_array()?
        .iter()
        .find(|a| a["content"].as_str().is_some_and(|c| c.contains(text)))
        .map(|a| {
            (
                a["id"].as_str().unwrap_or_default(),
                a["visible_to"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect(),
            )
        })
}

/// The task: `task.description`, else the content of the `task` artifact.
pub fn task_text(scenario: &Value) -> Option<String> {
    let description = scenario["task"]["description"].as_str().unwrap_or_default();
    if !description.trim().is_empty() {
        return Some(description.trim().to_string());
    }
    scenario["timeline"]
        .as_array()?
        .iter()
        .find(|a| a["type"] == "task")
        .and_then(|a| a["content"].as_str())
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
}

/// What the attributes of a bundle became, by attribute id: the seed's
/// attributes, and where each form came from.
#[derive(Default)]
pub struct Held {
    pub attributes: Vec<Attribute>,
    pub sources: std::collections::BTreeMap<String, AttributeSource>,
}

impl Held {
    /// A sanitized rewrite as a form where an artifact's text carries it
    /// (a text nobody holds is no form): appropriate, visible to whoever
    /// may see that artifact, stating `fact`; recorded as `<id>.sanitized`.
    pub fn carried_rewrite(
        &mut self,
        bundle: (&BundleFiles, &Value, &Cast),
        id: &str,
        text: &str,
        fact: Option<&Predicate>,
    ) -> Option<Form> {
        let (files, scenario, cast) = bundle;
        let (artifact, names) = carried_by(scenario, text)?;
        let holder = labelled_form(files, cast, id, text, Vec::new()).map_or(0, |(h, _)| h);
        let aid = identifier(id)?;
        self.sources.insert(
            format!("{aid}.sanitized"),
            AttributeSource::Artifact(artifact.to_string()),
        );
        Some(build::form(
            text.to_string(),
            true,
            visible(&names, cast.by_name(), Some(holder)),
            fact.cloned().into_iter().collect(),
        ))
    }

    /// Bundle attribute `id` (its `attribute_values` entry `v`) as an
    /// attribute its holder holds: the raw form labelled as the bundle
    /// labels it, stating `facts`, with `sanitized` beside it, and a
    /// personal category read from its wording when it is inappropriate.
    pub fn push(
        &mut self,
        bundle: (&BundleFiles, &Cast),
        id: &str,
        v: &Value,
        facts: Vec<Predicate>,
        sanitized: Option<Form>,
    ) {
        let (files, cast) = bundle;
        let text = v["value"].as_str().unwrap_or_default();
        let (Some(aid), Some((holder, raw))) =
            (identifier(id), labelled_form(files, cast, id, text, facts))
        else {
            return;
        };
        let about = v["about_attribute"].as_str().unwrap_or_default();
        let category = (!raw.appropriate)
            .then(|| category_of_topic(&format!("{about} {text}")))
            .flatten();
        self.sources
            .insert(aid.clone(), AttributeSource::Bundle(id.to_string()));
        self.attributes.push(build::attribute(
            aid,
            holder,
            category,
            raw,
            sanitized,
            Vec::new(),
        ));
    }
}

/// A scenario of an allocation family read from a bundle: its id from
/// `scenario_id`, its title from the task's subject, its task from the task
/// text, else the defaults given.
pub fn bundle_scenario(
    scenario: &Value,
    people: Vec<Person>,
    (family, setting, oracle): (Family, Setting, Decision),
    attributes: Vec<Attribute>,
    (title, task): (&str, &str),
) -> Scenario {
    let mut sc = Scenario::derived(
        family,
        scenario["scenario_id"]
            .as_str()
            .and_then(identifier)
            .unwrap_or_else(|| "bundle".into()),
        scenario["task"]["subject"]["name"]
            .as_str()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(title)
            .to_string(),
        &task_text(scenario).unwrap_or_else(|| task.to_string()),
        people,
        setting,
        oracle,
    );
    sc.attributes = attributes;
    sc
}
