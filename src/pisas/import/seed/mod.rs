//! Reading a PiSAs task-family seed (schema 2.1) into a [`TaskFamily`]:
//! the cast by role, the evidence variables with their surface
//! realizations, the first-match rules, the invalid configurations, the
//! decoys and the generation plan. Everything that does not fit is a
//! diagnostic at its JSON path; what fits is kept.

use serde_json::Value;

use super::json::{
    field, index_path, key_path, opt_arr, opt_str, req_arr, req_obj, req_str, Report,
};
mod rules;

use rules::{decoys, invalid, plan, rules};

use super::names::identifier;
use super::ImportError;
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
    let family_id = req_str(v, "", "task_family_id", r)
        .unwrap_or("task")
        .to_string();
    let task = field(v, "task");
    if task.is_none() {
        r.shape("task", "an object");
    }
    let task = task.unwrap_or(&Value::Null);
    let description = opt_str(task, "task", "description", r)
        .unwrap_or("")
        .to_string();
    let brief = field(task, "executor_brief")
        .and_then(|b| opt_str(b, "task.executor_brief", "template", r))
        .map(str::to_string);
    let context = field(v, "timeline")
        .and_then(|t| field(t, "default_layout"))
        .and_then(|l| field(l, "context_artifact"))
        .and_then(|c| opt_str(c, "timeline.default_layout.context_artifact", "content", r))
        .map(str::to_string);
    let summary = field(v, "decision_policy")
        .and_then(|d| opt_str(d, "decision_policy", "summary", r))
        .map(str::to_string);
    let roles = cast(v, r)?;
    let outcomes = outcomes(v, r)?;
    let variables = variables(v, &roles, r);
    if variables.is_empty() {
        return None;
    }
    let (rules, otherwise, broken_rules) = rules(v, &outcomes, &variables, r);
    let plan_v = field(v, "generation_plan").unwrap_or(&Value::Null);
    let invalid = invalid(plan_v, &variables, r);
    let decoys = decoys(v, &roles, &outcomes, &variables, r);
    let plan = plan(plan_v, &outcomes, &variables, r);
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

fn role_of(v: &Value, path: &str, subject: bool, r: &mut Report) -> Option<Role> {
    let key = req_str(v, path, "role_id", r)?;
    let Some(id) = identifier(key) else {
        r.push(
            key_path(path, "role_id"),
            ImportError::BadName {
                kind: "person".into(),
                name: key.into(),
            },
        );
        return None;
    };
    Some(Role {
        key: key.to_string(),
        id,
        title: opt_str(v, path, "title", r).unwrap_or(key).to_string(),
        team: opt_str(v, path, "team", r).unwrap_or("").to_string(),
        name: opt_str(v, path, "name", r).map(str::to_string),
        subject,
    })
}

fn cast(v: &Value, r: &mut Report) -> Option<Vec<Role>> {
    let p = field(v, "participants");
    let Some(p) = p.filter(|p| p.is_object()) else {
        r.shape("participants", "an object");
        return None;
    };
    let mut roles = vec![role_of(
        field(p, "executor").unwrap_or(&Value::Null),
        "participants.executor",
        false,
        r,
    )?];
    for (i, x) in opt_arr(p, "participants", "roles", r).iter().enumerate() {
        roles.extend(role_of(x, &index_path("participants.roles", i), false, r));
    }
    if let Some(s) = field(p, "subject") {
        roles.extend(role_of(s, "participants.subject", true, r));
    }
    for (i, x) in opt_arr(p, "participants", "other_cast", r)
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

fn outcomes(v: &Value, r: &mut Report) -> Option<Vec<String>> {
    let list = req_arr(v, "", "outcomes", r)?;
    let mut out = Vec::new();
    for (i, o) in list.iter().enumerate() {
        match o.as_str().and_then(|s| identifier(s).filter(|id| id == s)) {
            Some(s) if !out.contains(&s) => out.push(s),
            _ => r.push(
                index_path("outcomes", i),
                ImportError::BadName {
                    kind: "outcome".into(),
                    name: o.to_string(),
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

fn variables(v: &Value, roles: &[Role], r: &mut Report) -> Vec<Variable> {
    let Some(vars) = req_obj(v, "", "evidence_variables", r) else {
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
        let Some(holder_key) = req_str(var, &path, "holder_role", r) else {
            continue;
        };
        let Some(h) = holder_at(roles, holder_key, &path, r) else {
            continue;
        };
        let Some(states) = req_obj(var, &path, "states", r) else {
            continue;
        };
        let mut list = Vec::new();
        for (sk, sv) in states {
            let spath = key_path(&key_path(&path, "states"), sk);
            if identifier(sk).as_deref() != Some(sk.as_str()) {
                r.push(
                    spath,
                    ImportError::BadName {
                        kind: "state".into(),
                        name: sk.clone(),
                    },
                );
                continue;
            }
            let mut realizations = Vec::new();
            for (i, x) in opt_arr(sv, &spath, "surface_realizations", r)
                .iter()
                .enumerate()
            {
                let rpath = index_path(&key_path(&spath, "surface_realizations"), i);
                let Some(text) = req_str(x, &rpath, "text", r) else {
                    continue;
                };
                match opt_str(x, &rpath, "kind", r).unwrap_or("clean") {
                    "privacy_entangled" => {
                        if let Some(clean) = req_str(x, &rpath, "clean_rewrite", r) {
                            realizations.push(Realization::Entangled {
                                text: text.into(),
                                clean: clean.into(),
                            });
                        }
                    }
                    _ => realizations.push(Realization::Clean(text.into())),
                }
            }
            if realizations.is_empty() {
                // The canonical fact says the state when no wording is given.
                match opt_str(sv, &spath, "canonical_fact", r) {
                    Some(t) => realizations.push(Realization::Clean(t.into())),
                    None => {
                        r.shape(
                            &key_path(&spath, "surface_realizations"),
                            "at least one realization",
                        );
                        continue;
                    }
                }
            }
            list.push(State {
                id: sk.clone(),
                realizations,
            });
        }
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
