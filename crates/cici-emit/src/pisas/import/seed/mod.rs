//! Reading a PiSAs task-family seed (schema 2.1) into a [`TaskFamily`]:
//! the cast by role, the evidence variables with their surface
//! realizations, the first-match rules, the invalid configurations, the
//! decoys and the generation plan. Everything that does not fit is a
//! diagnostic at its JSON path; what fits is kept.

use serde::Deserialize;
use serde_json::Value;

use super::json::{index_path, key_path, opt, opt_list, req, Report};
use crate::pisas::format::seed::{
    List, Map, Participants, RealizationEntry, RoleEntry, SeedFile, StateEntry, VariableEntry,
};
use crate::pisas::format::Field;
mod rules;

use rules::{decoys, invalid, plan, rules};

use super::diagnostic::ImportError;
use super::names::{identifier, person_identifier};
use crate::sema::Condition;

/// A member of the cast, by role.
#[derive(Clone, Debug)]
pub struct Role {
    /// The seed's role id (`flight_release_coordinator`).
    pub key: String,
    /// The cici person id made from it.
    pub id: String,
    pub title: String,
    pub team: String,
    /// A name the seed gives, if any.
    pub name: Option<String>,
    pub subject: bool,
}

/// One way a state is said.
#[derive(Clone, Debug)]
pub enum Realization {
    Clean(String),
    /// A sentence that fuses the fact with a private detail, and the
    /// fact on its own.
    Entangled {
        text: String,
        clean: String,
    },
}

#[derive(Clone, Debug)]
pub struct State {
    pub id: String,
    pub realizations: Vec<Realization>,
}

#[derive(Clone, Debug)]
pub struct Variable {
    pub key: String,
    pub id: String,
    pub holder: usize,
    pub states: Vec<State>,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub outcome: usize,
    pub when: Condition,
    pub path: String,
    /// Its place in the seed's list of rules.
    pub index: usize,
}

#[derive(Clone, Debug)]
pub struct Decoy {
    pub key: String,
    pub holder: usize,
    pub text: String,
    pub pushes: usize,
    pub preconditions: Vec<(usize, Vec<usize>)>,
    pub path: String,
}

/// How many of a thing per scenario, from the generation plan.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub min: usize,
    pub max: usize,
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub decoys: Range,
    pub max_decoys_per_holder: usize,
    pub personal: Range,
    /// Outcome index to its quota.
    pub quotas: Vec<(usize, usize)>,
    /// Full configurations the seed asks to cover.
    pub coverage: Vec<Vec<usize>>,
    /// The share of evidence given as entangled sentences.
    pub entangled: f64,
}

/// A task-family seed, read.
#[derive(Clone, Debug)]
pub struct TaskFamily {
    pub family_id: String,
    pub description: String,
    pub brief: Option<String>,
    pub context: Option<String>,
    pub summary: Option<String>,
    /// Executor first.
    pub roles: Vec<Role>,
    pub outcomes: Vec<String>,
    pub variables: Vec<Variable>,
    pub rules: Vec<Rule>,
    pub otherwise: Option<usize>,
    /// The places of the rules that could not be read, and were left out.
    pub broken_rules: Vec<usize>,
    /// Each: variable, allowed states; a configuration is invalid when it
    /// matches every part of one entry.
    pub invalid: Vec<Vec<(usize, Vec<usize>)>>,
    pub decoys: Vec<Decoy>,
    pub plan: Plan,
}

impl TaskFamily {
    /// Whether a full configuration survives the invalid configurations.
    pub fn valid(&self, config: &[usize]) -> bool {
        !self
            .invalid
            .iter()
            .any(|parts| parts.iter().all(|(v, ss)| ss.contains(&config[*v])))
    }

    /// Whether a configuration's outcome is the seed's whatever the rules
    /// that could not be read say: a rule read holds first, before any
    /// rule left out.
    pub fn outcome_is_sure(&self, config: &[usize]) -> bool {
        match self.broken_rules.iter().min() {
            None => true,
            Some(&b) => self
                .rules
                .iter()
                .find(|r| r.when.eval(config))
                .is_some_and(|r| r.index < b),
        }
    }

    /// The outcome of the first rule that holds, else `otherwise`.
    pub fn outcome(&self, config: &[usize]) -> Option<usize> {
        self.rules
            .iter()
            .find(|r| r.when.eval(config))
            .map(|r| r.outcome)
            .or(self.otherwise)
    }

    pub fn role(&self, key: &str) -> Option<usize> {
        self.roles.iter().position(|r| r.key == key)
    }

    /// `var = state, ...` for messages.
    pub fn describe(&self, config: &[usize]) -> String {
        self.variables
            .iter()
            .zip(config)
            .map(|(v, &s)| format!("{} = {}", v.key, v.states[s].id))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Reads a seed; `None` when too much is missing to import anything.
pub fn read(v: &Value, r: &mut Report) -> Option<TaskFamily> {
    let file = Field::<SeedFile>::deserialize(v).unwrap_or_default();
    let seed = file.or_empty();
    let family_id = req(&seed.task_family_id, "task_family_id", "a string", r)
        .map_or("task", String::as_str)
        .to_string();
    if seed.task.is_absent() {
        r.shape("task", "an object");
    }
    let task = seed.task.or_empty();
    let description = opt(&task.description, "task.description", "a string", r)
        .cloned()
        .unwrap_or_default();
    let brief = task
        .executor_brief
        .get()
        .and_then(|b| opt(&b.template, "task.executor_brief.template", "a string", r).cloned());
    let context = seed
        .timeline
        .get()
        .and_then(|t| t.default_layout.get())
        .and_then(|l| l.context_artifact.get())
        .and_then(|c| {
            let path = "timeline.default_layout.context_artifact.content";
            opt(&c.content, path, "a string", r).cloned()
        });
    let summary = seed
        .decision_policy
        .get()
        .and_then(|d| opt(&d.summary, "decision_policy.summary", "a string", r).cloned());
    let roles = cast(&seed.participants, r)?;
    let outcomes = outcomes(&seed.outcomes, r)?;
    let variables = variables(&seed.evidence_variables, &roles, r);
    if variables.is_empty() {
        return None;
    }
    let (rules, otherwise, broken_rules) = rules(&seed.decision_policy, &outcomes, &variables, r);
    let plan_v = seed.generation_plan.or_empty();
    let invalid = invalid(&plan_v, &variables, r);
    let decoys = decoys(&seed.decision_decoys, &roles, &outcomes, &variables, r);
    let plan = plan(&plan_v, &outcomes, &variables, r);
    Some(TaskFamily {
        family_id,
        description,
        brief,
        context,
        summary,
        roles,
        outcomes,
        variables,
        rules,
        otherwise,
        broken_rules,
        invalid,
        decoys,
        plan,
    })
}

fn role_of(v: &Field<RoleEntry>, path: &str, subject: bool, r: &mut Report) -> Option<Role> {
    let v = v.or_empty();
    let key = req(&v.role_id, &key_path(path, "role_id"), "a string", r)?;
    let Some(id) = person_identifier(key) else {
        r.push(
            key_path(path, "role_id"),
            ImportError::BadName {
                kind: "person".into(),
                name: key.clone(),
            },
        );
        return None;
    };
    let text = |f: &Field<String>, key: &str, r: &mut Report| {
        opt(f, &key_path(path, key), "a string", r).cloned()
    };
    Some(Role {
        key: key.clone(),
        id,
        title: text(&v.title, "title", r).unwrap_or_else(|| key.clone()),
        team: text(&v.team, "team", r).unwrap_or_default(),
        name: text(&v.name, "name", r),
        subject,
    })
}

fn cast(p: &Field<Participants>, r: &mut Report) -> Option<Vec<Role>> {
    let Some(p) = p.get() else {
        r.shape("participants", "an object");
        return None;
    };
    let mut roles = vec![role_of(&p.executor, "participants.executor", false, r)?];
    for (i, x) in opt_list(&p.roles, "participants.roles", r)
        .iter()
        .enumerate()
    {
        roles.extend(role_of(x, &index_path("participants.roles", i), false, r));
    }
    if !p.subject.is_absent() {
        roles.extend(role_of(&p.subject, "participants.subject", true, r));
    }
    for (i, x) in opt_list(&p.other_cast, "participants.other_cast", r)
        .iter()
        .enumerate()
    {
        roles.extend(role_of(
            x,
            &index_path("participants.other_cast", i),
            false,
            r,
        ));
    }
    // The executor is also `executor` in holder roles.
    let mut seen = std::collections::HashSet::new();
    roles.retain(|role| seen.insert(role.id.clone()));
    Some(roles)
}

fn outcomes(list: &List<String>, r: &mut Report) -> Option<Vec<String>> {
    let list = req(list, "outcomes", "an array", r)?;
    let mut out = Vec::new();
    for (i, o) in list.iter().enumerate() {
        match o.get().and_then(|s| identifier(s).filter(|id| id == s)) {
            Some(s) if !out.contains(&s) => out.push(s),
            _ => r.push(
                index_path("outcomes", i),
                ImportError::BadName {
                    kind: "outcome".into(),
                    name: o.as_json(),
                },
            ),
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The cast member a holder role names (`executor` is the executor).
fn holder(roles: &[Role], key: &str) -> Option<usize> {
    if key == "executor" {
        return Some(0);
    }
    roles.iter().position(|r| r.key == key)
}

/// The cast member a holder role names, or a diagnostic at
/// `<path>.holder_role`.
pub(super) fn holder_at(roles: &[Role], key: &str, path: &str, r: &mut Report) -> Option<usize> {
    let found = holder(roles, key);
    if found.is_none() {
        r.push(
            key_path(path, "holder_role"),
            unknown("role", key, roles.iter().map(|x| x.key.clone())),
        );
    }
    found
}

pub(super) fn unknown(kind: &str, name: &str, known: impl Iterator<Item = String>) -> ImportError {
    let known: Vec<String> = known.collect();
    ImportError::UnknownName {
        kind: kind.into(),
        name: name.into(),
        help: crate::suggest::closest(name, known.iter().map(String::as_str))
            .map(|s| format!("did you mean `{s}`?")),
    }
}

fn variables(vars: &Map<VariableEntry>, roles: &[Role], r: &mut Report) -> Vec<Variable> {
    let Some(vars) = req(vars, "evidence_variables", "an object", r) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, var) in vars {
        let path = key_path("evidence_variables", key);
        let Some(id) = identifier(key).filter(|id| id == key) else {
            r.push(
                path,
                ImportError::BadName {
                    kind: "evidence variable".into(),
                    name: key.clone(),
                },
            );
            continue;
        };
        let var = var.or_empty();
        let holder_path = key_path(&path, "holder_role");
        let Some(holder_key) = req(&var.holder_role, &holder_path, "a string", r) else {
            continue;
        };
        let Some(h) = holder_at(roles, holder_key, &path, r) else {
            continue;
        };
        let Some(states) = req(&var.states, &key_path(&path, "states"), "an object", r) else {
            continue;
        };
        let list: Vec<State> = states
            .iter()
            .filter_map(|(sk, sv)| state(sk, sv, &key_path(&key_path(&path, "states"), sk), r))
            .collect();
        if list.is_empty() {
            r.shape(&key_path(&path, "states"), "at least one state");
            continue;
        }
        out.push(Variable {
            key: key.clone(),
            id,
            holder: h,
            states: list,
        });
    }
    out
}

/// One state of a variable with the ways it is said; `None`, reported,
/// when it has no usable name or no wording.
fn state(key: &str, entry: &Field<StateEntry>, spath: &str, r: &mut Report) -> Option<State> {
    if identifier(key).as_deref() != Some(key) {
        r.push(
            spath,
            ImportError::BadName {
                kind: "state".into(),
                name: key.into(),
            },
        );
        return None;
    }
    let entry = entry.or_empty();
    let list_path = key_path(spath, "surface_realizations");
    let mut realizations = Vec::new();
    for (i, x) in opt_list(&entry.surface_realizations, &list_path, r)
        .iter()
        .enumerate()
    {
        realizations.extend(realization(x, &index_path(&list_path, i), r));
    }
    if realizations.is_empty() {
        // The canonical fact says the state when no wording is given.
        match opt(
            &entry.canonical_fact,
            &key_path(spath, "canonical_fact"),
            "a string",
            r,
        ) {
            Some(t) => realizations.push(Realization::Clean(t.clone())),
            None => {
                r.shape(&list_path, "at least one realization");
                return None;
            }
        }
    }
    Some(State {
        id: key.into(),
        realizations,
    })
}

fn realization(x: &Field<RealizationEntry>, rpath: &str, r: &mut Report) -> Option<Realization> {
    let x = x.or_empty();
    let text = req(&x.text, &key_path(rpath, "text"), "a string", r)?;
    let kind = opt(&x.kind, &key_path(rpath, "kind"), "a string", r);
    match kind.map_or("clean", String::as_str) {
        "privacy_entangled" => {
            let clean = req(
                &x.clean_rewrite,
                &key_path(rpath, "clean_rewrite"),
                "a string",
                r,
            )?;
            Some(Realization::Entangled {
                text: text.clone(),
                clean: clean.clone(),
            })
        }
        _ => Some(Realization::Clean(text.clone())),
    }
}
