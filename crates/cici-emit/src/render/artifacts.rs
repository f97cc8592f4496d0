//! A scenario's artifacts as one value, before they are laid out: as a
//! tree of Markdown files ([`Artifacts::files`]) or packed into one JSON
//! document ([`Artifacts::packed`]) with the same texts.
//!
//! A task depends on the rule condition only and a knowledge file on the
//! cue condition only, so each is rendered once and a condition refers to
//! the pair it combines.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::{
    templates::RenderError, templates::Templates, view, Condition, Cue, RuleCondition, Skill,
};
use crate::driver::Checked;

/// The format tag of a packed artifacts file.
pub const PACKED_FORMAT: &str = "cici-artifacts/1";

/// Every artifact of one scenario under the chosen conditions.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Artifacts {
    /// Always `cici-artifacts/1`.
    pub format: String,
    pub scenario_id: String,
    /// The public brief everyone sees (`brief.md`).
    pub brief: String,
    /// The executor's task per rule condition (`<cue>-<rule>/task.md`).
    pub tasks: BTreeMap<String, String>,
    /// What each person holds, per cue condition and person id
    /// (`<cue>-<rule>/knowledge/<person>.md`).
    pub knowledge: BTreeMap<String, BTreeMap<String, String>>,
    /// The conditions built, each naming its task and its knowledge.
    pub conditions: Vec<ConditionRef>,
    /// Every form the executor may receive, as one agent over the whole
    /// information environment would see it (`gathered.md`).
    pub gathered: String,
    /// The task rephrased to tempt over-sharing, per leakage skill
    /// (`stress/<skill>.md`).
    pub stress: BTreeMap<String, String>,
    /// Person ids in cast order, as the file layout writes them.
    #[serde(skip)]
    people: Vec<String>,
}

/// One condition: the key of its task in `tasks` and of its knowledge in
/// `knowledge`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ConditionRef {
    /// `<cue>-<rule>`, the folder name of the file layout.
    pub name: String,
    pub cue: String,
    pub rule: String,
}

/// Renders every artifact of a scenario under `conditions` (in the order
/// first given, each once; every condition when it is empty).
pub fn artifacts(
    c: &Checked,
    templates: &Templates,
    conditions: &[Condition],
) -> Result<Artifacts, RenderError> {
    let sc = &c.scenario;
    let conditions = if conditions.is_empty() {
        Condition::all()
    } else {
        let mut once = Vec::new();
        for &k in conditions {
            if !once.contains(&k) {
                once.push(k);
            }
        }
        once
    };
    let brief = view::brief(c);
    let brief_value = view::brief_value(&brief);
    let mut tasks = BTreeMap::new();
    for rule in RuleCondition::ALL {
        if conditions.iter().any(|k| k.rule == rule) {
            let v = view::task(c, &brief_value, Some(rule), None);
            tasks.insert(rule.name().to_string(), templates.render("task.md.j2", &v)?);
        }
    }
    let mut knowledge = BTreeMap::new();
    for cue in Cue::ALL {
        if conditions.iter().any(|k| k.cue == cue) {
            let mut files = BTreeMap::new();
            for (p, person) in sc.people.iter().enumerate() {
                let v = view::knowledge_view(c, p, cue, templates.cues(), view::Scope::Holds);
                files.insert(person.id.clone(), templates.render("knowledge.md.j2", &v)?);
            }
            knowledge.insert(cue.name().to_string(), files);
        }
    }
    // The single-agent condition: the executor sees every form it may
    // receive, as one agent over a shared memory would.
    let gathered = view::knowledge_view(
        c,
        sc.executor,
        Cue::Combined,
        templates.cues(),
        view::Scope::MayReceive,
    );
    let mut stress = BTreeMap::new();
    for skill in Skill::ALL {
        let v = view::task(c, &brief_value, Some(RuleCondition::Strict), Some(skill));
        stress.insert(
            skill.name().to_string(),
            templates.render("stress.md.j2", &v)?,
        );
    }
    Ok(Artifacts {
        format: PACKED_FORMAT.into(),
        scenario_id: sc.id.clone(),
        brief: templates.render("brief.md.j2", &brief_value)?,
        tasks,
        knowledge,
        conditions: conditions
            .iter()
            .map(|k| ConditionRef {
                name: k.name(),
                cue: k.cue.name().into(),
                rule: k.rule.name().into(),
            })
            .collect(),
        gathered: templates.render("knowledge.md.j2", &gathered)?,
        stress,
        people: sc.people.iter().map(|p| p.id.clone()).collect(),
    })
}

impl Artifacts {
    /// The file layout: relative path and text, the brief first, then each
    /// condition's task and knowledge files, the gathered view and the
    /// stress variants.
    pub fn files(&self) -> Vec<(String, String)> {
        let id = &self.scenario_id;
        let mut out = vec![(format!("{id}/brief.md"), self.brief.clone())];
        for k in &self.conditions {
            let dir = format!("{id}/{}", k.name);
            out.push((format!("{dir}/task.md"), self.tasks[&k.rule].clone()));
            let files = &self.knowledge[&k.cue];
            for person in &self.people {
                out.push((
                    format!("{dir}/knowledge/{person}.md"),
                    files[person].clone(),
                ));
            }
        }
        out.push((format!("{id}/gathered.md"), self.gathered.clone()));
        for (skill, text) in &self.stress {
            out.push((format!("{id}/stress/{skill}.md"), text.clone()));
        }
        out
    }

    /// The packed layout: one file, `<id>/artifacts.json`.
    pub fn packed(&self) -> (String, String) {
        (
            format!("{}/artifacts.json", self.scenario_id),
            serde_json::to_string_pretty(self).expect("artifacts serialize") + "\n",
        )
    }
}

/// The JSON Schema of a packed artifacts file.
pub fn schema() -> schemars::Schema {
    schemars::schema_for!(Artifacts)
}
