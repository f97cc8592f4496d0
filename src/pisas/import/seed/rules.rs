//! The decision parts of a task-family seed: rule conditions, invalid
//! configurations, decoys and the generation plan.

use serde_json::Value;

use super::{holder_at, unknown, Decoy, Plan, Range, Role, Rule, Variable};
use crate::pisas::import::json::{
    field, index_path, key_path, opt_arr, opt_uint, req_arr, req_str, Report,
};
use crate::pisas::import::ImportError;
use crate::sema::Condition;

/// Reads a `when`; `Ok(None)` for `{"otherwise": true}`.
fn condition(
    w: &Value,
    path: &str,
    vars: &[Variable],
    r: &mut Report,
) -> Result<Option<Condition>, ()> {
    let fail = |r: &mut Report, reason: &str| {
        r.push(
            path,
            ImportError::Condition {
                reason: reason.into(),
            },
        );
        Err(())
    };
    let Some(obj) = w.as_object() else {
        return fail(r, "a condition is an object");
    };
    if obj.get("otherwise").and_then(Value::as_bool) == Some(true) {
        return Ok(None);
    }
    for (key, build) in [("all", true), ("any", false)] {
        if let Some(parts) = obj.get(key) {
            let Some(parts) = parts.as_array().filter(|p| !p.is_empty()) else {
                return fail(r, &format!("`{key}` takes a non-empty list"));
            };
            let mut out = Vec::new();
            for (i, p) in parts.iter().enumerate() {
                match condition(p, &index_path(&key_path(path, key), i), vars, r)? {
                    Some(c) => out.push(c),
                    None => return fail(r, "`otherwise` only stands alone"),
                }
            }
            return Ok(Some(if build {
                Condition::And(out)
            } else {
                Condition::Or(out)
            }));
        }
    }
    if let Some(inner) = obj.get("not") {
        return match condition(inner, &key_path(path, "not"), vars, r)? {
            Some(c) => Ok(Some(Condition::Not(Box::new(c)))),
            None => fail(r, "`otherwise` only stands alone"),
        };
    }
    let Some(name) = obj.get("evidence").and_then(Value::as_str) else {
        return fail(r, "no `evidence`, `all`, `any`, `not` or `otherwise`");
    };
    let Some(var) = vars.iter().position(|v| v.key == name) else {
        r.push(
            key_path(path, "evidence"),
            unknown(
                "evidence variable",
                name,
                vars.iter().map(|v| v.key.clone()),
            ),
        );
        return Err(());
    };
    let state = |s: &Value, at: String, r: &mut Report| -> Result<usize, ()> {
        let s = s.as_str().unwrap_or_default();
        vars[var]
            .states
            .iter()
            .position(|x| x.id == s)
            .ok_or_else(|| {
                r.push(
                    at,
                    unknown(
                        &format!("state of `{name}`"),
                        s,
                        vars[var].states.iter().map(|x| x.id.clone()),
                    ),
                );
            })
    };
    if let Some(s) = obj.get("is") {
        return Ok(Some(Condition::Eq(var, state(s, key_path(path, "is"), r)?)));
    }
    if let Some(s) = obj.get("is_not") {
        return Ok(Some(Condition::Ne(
            var,
            state(s, key_path(path, "is_not"), r)?,
        )));
    }
    if let Some(list) = obj.get("in").and_then(Value::as_array) {
        let mut xs = Vec::new();
        for (i, s) in list.iter().enumerate() {
            xs.push(state(s, index_path(&key_path(path, "in"), i), r)?);
        }
        xs.sort_unstable();
        xs.dedup();
        return Ok(Some(Condition::In(var, xs)));
    }
    fail(r, "`evidence` needs `is`, `is_not` or `in`")
}

pub(super) fn rules(
    v: &Value,
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> (Vec<Rule>, Option<usize>, Vec<usize>) {
    let mut out = Vec::new();
    let mut otherwise = None;
    let mut broken = Vec::new();
    let Some(policy) = field(v, "decision_policy") else {
        r.shape("decision_policy", "an object");
        return (out, otherwise, broken);
    };
    let Some(list) = req_arr(policy, "decision_policy", "rules", r) else {
        return (out, otherwise, broken);
    };
    for (i, rule) in list.iter().enumerate() {
        let before = out.len() + usize::from(otherwise.is_some());
        rule_at(rule, i, outcomes, vars, &mut out, &mut otherwise, r);
        if out.len() + usize::from(otherwise.is_some()) == before {
            broken.push(i);
        }
    }
    (out, otherwise, broken)
}

/// Reads the rule at place `i` into `out` (or `otherwise`); nothing when
/// it cannot be read.
fn rule_at(
    rule: &Value,
    i: usize,
    outcomes: &[String],
    vars: &[Variable],
    out: &mut Vec<Rule>,
    otherwise: &mut Option<usize>,
    r: &mut Report,
) {
    {
        let path = index_path("decision_policy.rules", i);
        if otherwise.is_some() {
            r.push(path, ImportError::AfterOtherwise);
            return;
        }
        let Some(o) = req_str(rule, &path, "outcome", r) else {
            return;
        };
        let Some(outcome) = outcomes.iter().position(|x| x == o) else {
            r.push(
                key_path(&path, "outcome"),
                unknown("outcome", o, outcomes.iter().cloned()),
            );
            return;
        };
        let Some(w) = field(rule, "when") else {
            r.shape(&key_path(&path, "when"), "a condition");
            return;
        };
        match condition(w, &key_path(&path, "when"), vars, r) {
            Ok(Some(when)) => out.push(Rule {
                outcome,
                when,
                path,
                index: i,
            }),
            Ok(None) => *otherwise = Some(outcome),
            Err(()) => {}
        }
    }
}

/// `{var: state}` or `{var: [states]}` as (variable, states) parts.
fn states_map(
    m: &Value,
    path: &str,
    vars: &[Variable],
    r: &mut Report,
) -> Option<Vec<(usize, Vec<usize>)>> {
    let Some(obj) = m.as_object() else {
        r.shape(path, "an object of variable states");
        return None;
    };
    let mut parts = Vec::new();
    for (k, s) in obj {
        let at = key_path(path, k);
        let Some(var) = vars.iter().position(|v| v.key == *k) else {
            r.push(
                at,
                unknown("evidence variable", k, vars.iter().map(|v| v.key.clone())),
            );
            return None;
        };
        let names: Vec<&Value> = match s {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        let mut states = Vec::new();
        for n in names {
            let n = n.as_str().unwrap_or_default();
            match vars[var].states.iter().position(|x| x.id == n) {
                Some(i) => states.push(i),
                None => {
                    r.push(
                        at.clone(),
                        unknown(
                            &format!("state of `{k}`"),
                            n,
                            vars[var].states.iter().map(|x| x.id.clone()),
                        ),
                    );
                    return None;
                }
            }
        }
        parts.push((var, states));
    }
    Some(parts)
}

pub(super) fn invalid(
    plan: &Value,
    vars: &[Variable],
    r: &mut Report,
) -> Vec<Vec<(usize, Vec<usize>)>> {
    let path = "generation_plan.invalid_configurations";
    opt_arr(plan, "generation_plan", "invalid_configurations", r)
        .iter()
        .enumerate()
        .filter_map(|(i, x)| {
            let p = index_path(path, i);
            let m = field(x, "evidence_states").unwrap_or(&Value::Null);
            states_map(m, &key_path(&p, "evidence_states"), vars, r)
        })
        .filter(|parts| !parts.is_empty())
        .collect()
}

pub(super) fn decoys(
    v: &Value,
    roles: &[Role],
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> Vec<Decoy> {
    let mut out = Vec::new();
    for (i, d) in opt_arr(v, "", "decision_decoys", r).iter().enumerate() {
        let path = index_path("decision_decoys", i);
        let (Some(key), Some(holder_key), Some(text), Some(pushes)) = (
            req_str(d, &path, "id", r),
            req_str(d, &path, "holder_role", r),
            req_str(d, &path, "text", r),
            req_str(d, &path, "pushes_outcome", r),
        ) else {
            continue;
        };
        let Some(h) = holder_at(roles, holder_key, &path, r) else {
            continue;
        };
        let Some(o) = outcomes.iter().position(|x| x == pushes) else {
            r.push(
                key_path(&path, "pushes_outcome"),
                unknown("outcome", pushes, outcomes.iter().cloned()),
            );
            continue;
        };
        let preconditions = match field(d, "preconditions") {
            Some(p) => match states_map(p, &key_path(&path, "preconditions"), vars, r) {
                Some(p) => p,
                None => continue,
            },
            None => Vec::new(),
        };
        out.push(Decoy {
            key: key.to_string(),
            holder: h,
            text: text.to_string(),
            pushes: o,
            preconditions,
            path,
        });
    }
    out
}

fn range(v: &Value, path: &str, default: Range, r: &mut Report) -> Range {
    match v {
        Value::Null => default,
        Value::Object(_) => {
            let min = opt_uint(v, path, "min", r).unwrap_or(default.min as u64) as usize;
            let max = opt_uint(v, path, "max", r).unwrap_or(min as u64) as usize;
            Range {
                min: min.min(max),
                max,
            }
        }
        other => match other.as_u64() {
            Some(n) => Range {
                min: n as usize,
                max: n as usize,
            },
            None => {
                r.shape(path, "a number or {min, max}");
                default
            }
        },
    }
}

pub(super) fn plan(p: &Value, outcomes: &[String], vars: &[Variable], r: &mut Report) -> Plan {
    let base = "generation_plan";
    let get = |k: &str| field(p, k).unwrap_or(&Value::Null);
    let decoys = range(
        get("decision_decoys_per_scenario"),
        &key_path(base, "decision_decoys_per_scenario"),
        Range { min: 4, max: 5 },
        r,
    );
    let personal = range(
        get("personal_context_items_per_person"),
        &key_path(base, "personal_context_items_per_person"),
        Range { min: 1, max: 2 },
        r,
    );
    let max_decoys_per_holder =
        opt_uint(p, base, "max_decoys_per_holder", r).map_or(usize::MAX, |n| n.max(1) as usize);
    let mut quotas = Vec::new();
    if let Some(q) = field(p, "outcome_quotas").and_then(Value::as_object) {
        for (k, n) in q {
            let at = key_path(&key_path(base, "outcome_quotas"), k);
            match (outcomes.iter().position(|o| o == k), n.as_u64()) {
                (Some(o), Some(n)) => quotas.push((o, n as usize)),
                (None, _) => r.push(at, unknown("outcome", k, outcomes.iter().cloned())),
                (_, None) => r.shape(&at, "a non-negative integer"),
            }
        }
    }
    let mut coverage = Vec::new();
    for (i, c) in opt_arr(p, base, "coverage_cases", r).iter().enumerate() {
        let path = key_path(
            &index_path(&key_path(base, "coverage_cases"), i),
            "evidence_states",
        );
        let Some(parts) = states_map(
            field(c, "evidence_states").unwrap_or(&Value::Null),
            &path,
            vars,
            r,
        ) else {
            continue;
        };
        // A coverage case names one state per variable; a partial one
        // cannot be placed and is passed over.
        if parts.len() == vars.len() && parts.iter().all(|(_, s)| s.len() == 1) {
            let mut config = vec![0; vars.len()];
            for (v, s) in parts {
                config[v] = s[0];
            }
            coverage.push(config);
        }
    }
    let entangled = field(p, "evidence_realization_mix")
        .and_then(|m| field(m, "required_evidence"))
        .and_then(|m| field(m, "privacy_entangled_fraction"))
        .and_then(Value::as_f64)
        .filter(|f| (0.0..=1.0).contains(f))
        .unwrap_or(0.5);
    Plan {
        decoys,
        max_decoys_per_holder,
        personal,
        quotas,
        coverage,
        entangled,
    }
}
