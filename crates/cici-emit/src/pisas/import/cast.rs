//! What every released bundle shares: the cast, with the executor first,
//! the labels of its attributes, the texts its artifacts carry, and how an
//! attribute someone holds becomes a seed attribute.

use std::collections::HashMap;

use super::build;
use super::json::Report;
use super::names::{category_of_topic, identifier, person_identifier};
use super::{diagnostic::ImportError, map::AttributeSource};
use crate::pisas::format::{Artifact, AttributeValue, Bundle, Label, ScenarioFile};
use crate::sema::{Attribute, Decision, Form, Person, PersonId, Predicate, Scenario, Setting};
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
    pub fn read(scenario: &ScenarioFile, r: &mut Report) -> Option<Cast> {
        let task = &scenario.task;
        let executor = task
            .participants
            .get(&task.executor_role)
            .map_or("", |p| p.name.as_str());
        let mut people: Vec<Person> = Vec::new();
        for m in scenario.cast.members() {
            let Some(id) = person_identifier(&m.name) else {
                continue;
            };
            if people.iter().any(|p| p.id == id) {
                continue;
            }
            let person = Person {
                id,
                name: m.name.clone(),
                role: m.role.clone(),
                skills: Vec::new(),
                groups: Vec::new(),
                manager: None,
                span: Span::DERIVED,
            };
            if m.name == executor {
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
        let by_key = task
            .participants
            .iter()
            .filter_map(|(k, p)| Some((k.clone(), *by_name.get(&p.name)?)))
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
pub fn labels(bundle: &Bundle, id: &str) -> Option<Labels> {
    let label = bundle.appropriateness.attributes.get(id);
    let v = bundle.visibility.attributes.get(id);
    if label.is_none() && v.is_none() {
        return None;
    }
    Some(Labels {
        appropriate: label == Some(&Label::Appropriate),
        holder: v.and_then(|v| v.holder.clone()),
        visible: v.map(|v| v.visible_to.clone()).unwrap_or_default(),
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
    files: &Bundle,
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

/// The first artifact of the timeline whose content carries `text`.
pub fn carried_by<'a>(scenario: &'a ScenarioFile, text: &str) -> Option<&'a Artifact> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    scenario.timeline.iter().find(|a| a.content.contains(text))
}

/// The task: `task.description`, else the content of the `task` artifact.
pub fn task_text(scenario: &ScenarioFile) -> Option<String> {
    let description = scenario.task.description.as_deref().unwrap_or_default();
    if !description.trim().is_empty() {
        return Some(description.trim().to_string());
    }
    scenario
        .timeline
        .iter()
        .find(|a| a.kind == "task")
        .map(|a| a.content.trim().to_string())
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
        bundle: (&Bundle, &Cast),
        id: &str,
        text: &str,
        fact: Option<&Predicate>,
    ) -> Option<Form> {
        let (files, cast) = bundle;
        let artifact = carried_by(&files.scenario, text)?;
        let holder = labelled_form(files, cast, id, text, Vec::new()).map_or(0, |(h, _)| h);
        let aid = identifier(id)?;
        self.sources.insert(
            format!("{aid}.sanitized"),
            AttributeSource::Artifact(artifact.id.clone()),
        );
        Some(build::form(
            text.to_string(),
            true,
            visible(&artifact.visible_to, cast.by_name(), Some(holder)),
            fact.cloned().into_iter().collect(),
        ))
    }

    /// Bundle attribute `id` (its `attribute_values` entry `v`) as an
    /// attribute its holder holds: the raw form labelled as the bundle
    /// labels it, stating `facts`, with `sanitized` beside it, and a
    /// personal category read from its wording when it is inappropriate.
    pub fn push(
        &mut self,
        bundle: (&Bundle, &Cast),
        id: &str,
        v: &AttributeValue,
        facts: Vec<Predicate>,
        sanitized: Option<Form>,
    ) {
        let (files, cast) = bundle;
        let text = v.value.as_str();
        let (Some(aid), Some((holder, raw))) =
            (identifier(id), labelled_form(files, cast, id, text, facts))
        else {
            return;
        };
        // What the attribute is about is optional: its text alone then.
        let about = v.about_attribute.as_deref().unwrap_or_default();
        let category = (!raw.appropriate)
            .then(|| category_of_topic(&format!("{about} {text}")))
            .flatten();
        self.sources
            .insert(aid.clone(), AttributeSource::Bundle(id.to_string()));
        self.attributes.push(Attribute::derived(
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
    scenario: &ScenarioFile,
    people: Vec<Person>,
    (setting, oracle): (Setting, Decision),
    attributes: Vec<Attribute>,
    (title, task): (&str, &str),
) -> Scenario {
    let mut sc = Scenario::derived(
        identifier(&scenario.scenario_id).unwrap_or_else(|| "bundle".into()),
        scenario
            .task
            .subject
            .as_ref()
            .and_then(|s| s.name.as_deref())
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
