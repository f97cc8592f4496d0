//! The decision parts of a task-family seed: rule conditions, invalid
//! configurations, decoys and the generation plan.

use super::{holder_at, unknown, Decoy, Plan, Range, Role, Rule, Variable};
use crate::pisas::format::seed::{
    ConditionEntry, DecisionPolicy, DecoyEntry, GenerationPlan, List, RangeEntry, RuleEntry,
    StatesEntry,
};
use crate::pisas::format::Field;
use crate::pisas::import::diagnostic::ImportError;
use crate::pisas::import::json::{index_path, key_path, opt, opt_list, req, Report};
use crate::sema::Condition;

/// Reads a `when`; `Ok(None)` for `{"otherwise": true}`.
fn condition(
    w: &Field<ConditionEntry>,
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
    let Some(c) = w.get() else {
        return fail(r, "a condition is an object");
    };
    if c.otherwise.get() == Some(&true) {
        return Ok(None);
    }
    for (key, parts, build) in [("all", &c.all, true), ("any", &c.any, false)] {
        if parts.is_present() {
            let Some(parts) = parts.get().filter(|p| !p.is_empty()) else {
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
    if c.not.is_present() {
        let inner = match &c.not {
            Field::Ok(b) => Field::Ok((**b).clone()),
            _ => Field::Null,
        };
        return match condition(&inner, &key_path(path, "not"), vars, r)? {
            Some(c) => Ok(Some(Condition::Not(Box::new(c)))),
            None => fail(r, "`otherwise` only stands alone"),
        };
    }
    let Some(name) = c.evidence.get() else {
        return fail(r, "no `evidence`, `all`, `any`, `not` or `otherwise`");
    };
    let Some(var) = vars.iter().position(|v| v.key == *name) else {
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
    let state = |s: &Field<String>, at: String, r: &mut Report| state_of(vars, var, s, at, r);
    if c.is.is_present() {
        return Ok(Some(Condition::Eq(
            var,
            state(&c.is, key_path(path, "is"), r)?,
        )));
    }
    if c.is_not.is_present() {
        let s = state(&c.is_not, key_path(path, "is_not"), r)?;
        return Ok(Some(Condition::Ne(var, s)));
    }
    if let Some(list) = c.within.get() {
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

/// The state of variable `var` that `s` names; a name that is not one of
/// them (or not a string) is reported at `at`.
fn state_of(
    vars: &[Variable],
    var: usize,
    s: &Field<String>,
    at: String,
    r: &mut Report,
) -> Result<usize, ()> {
    let s = s.text_or_empty();
    vars[var]
        .states
        .iter()
        .position(|x| x.id == s)
        .ok_or_else(|| {
            r.push(
                at,
                unknown(
                    &format!("state of `{}`", vars[var].key),
                    s,
                    vars[var].states.iter().map(|x| x.id.clone()),
                ),
            );
        })
}

pub(super) fn rules(
    policy: &Field<DecisionPolicy>,
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> (Vec<Rule>, Option<usize>, Vec<usize>) {
    let mut out = Vec::new();
    let mut otherwise = None;
    let mut broken = Vec::new();
    if policy.is_absent() {
        r.shape("decision_policy", "an object");
        return (out, otherwise, broken);
    }
    let policy = policy.or_empty();
    let Some(list) = req(&policy.rules, "decision_policy.rules", "an array", r) else {
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
    rule: &Field<RuleEntry>,
    i: usize,
    outcomes: &[String],
    vars: &[Variable],
    out: &mut Vec<Rule>,
    otherwise: &mut Option<usize>,
    r: &mut Report,
) {
    let path = index_path("decision_policy.rules", i);
    if otherwise.is_some() {
        r.push(path, ImportError::AfterOtherwise);
        return;
    }
    let rule = rule.or_empty();
    let Some(o) = req(&rule.outcome, &key_path(&path, "outcome"), "a string", r) else {
        return;
    };
    let Some(outcome) = outcomes.iter().position(|x| x == o) else {
        r.push(
            key_path(&path, "outcome"),
            unknown("outcome", o, outcomes.iter().cloned()),
        );
        return;
    };
    if rule.when.is_absent() {
        r.shape(&key_path(&path, "when"), "a condition");
        return;
    }
    match condition(&rule.when, &key_path(&path, "when"), vars, r) {
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

/// `{var: state}` or `{var: [states]}` as (variable, states) parts.
fn states_map(
    m: &StatesEntry,
    path: &str,
    vars: &[Variable],
    r: &mut Report,
) -> Option<Vec<(usize, Vec<usize>)>> {
    let Some(obj) = m.get() else {
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
        // One state name alone, or a list of them.
        let one;
        let names: Vec<&Field<String>> = match s {
            Field::Ok(list) => list.iter().collect(),
            Field::Bad(v) => {
                one = v.as_str().map_or(Field::Null, |t| Field::Ok(t.to_string()));
                vec![&one]
            }
            Field::Missing | Field::Null => vec![&Field::Null],
        };
        let mut states = Vec::new();
        for n in names {
            states.push(state_of(vars, var, n, at.clone(), r).ok()?);
        }
        parts.push((var, states));
    }
    Some(parts)
}

pub(super) fn invalid(
    plan: &GenerationPlan,
    vars: &[Variable],
    r: &mut Report,
) -> Vec<Vec<(usize, Vec<usize>)>> {
    let path = "generation_plan.invalid_configurations";
    opt_list(&plan.invalid_configurations, path, r)
        .iter()
        .enumerate()
        .filter_map(|(i, x)| {
            let at = key_path(&index_path(path, i), "evidence_states");
            states_map(&x.or_empty().evidence_states, &at, vars, r)
        })
        .filter(|parts| !parts.is_empty())
        .collect()
}

pub(super) fn decoys(
    list: &List<DecoyEntry>,
    roles: &[Role],
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> Vec<Decoy> {
    let mut out = Vec::new();
    for (i, d) in opt_list(list, "decision_decoys", r).iter().enumerate() {
        let path = index_path("decision_decoys", i);
        out.extend(decoy(&d.or_empty(), path, roles, outcomes, vars, r));
    }
    out
}

fn decoy(
    d: &DecoyEntry,
    path: String,
    roles: &[Role],
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> Option<Decoy> {
    let mut text =
        |f: &Field<String>, key: &str| req(f, &key_path(&path, key), "a string", r).cloned();
    let (Some(key), Some(holder_key), Some(said), Some(pushes)) = (
        text(&d.id, "id"),
        text(&d.holder_role, "holder_role"),
        text(&d.text, "text"),
        text(&d.pushes_outcome, "pushes_outcome"),
    ) else {
        return None;
    };
    let h = holder_at(roles, &holder_key, &path, r)?;
    let Some(o) = outcomes.iter().position(|x| *x == pushes) else {
        r.push(
            key_path(&path, "pushes_outcome"),
            unknown("outcome", &pushes, outcomes.iter().cloned()),
        );
        return None;
    };
    let preconditions = if d.preconditions.is_absent() {
        Vec::new()
    } else {
        states_map(&d.preconditions, &key_path(&path, "preconditions"), vars, r)?
    };
    Some(Decoy {
        key,
        holder: h,
        text: said,
        pushes: o,
        preconditions,
        path,
    })
}

fn range(v: &Field<RangeEntry>, path: &str, default: Range, r: &mut Report) -> Range {
    match v {
        Field::Missing | Field::Null => default,
        Field::Ok(RangeEntry::Span { min, max }) => {
            let uint = |f, key, r: &mut Report| {
                opt(f, &key_path(path, key), "a non-negative integer", r).copied()
            };
            let min = uint(min, "min", r).unwrap_or(default.min as u64) as usize;
            let max = uint(max, "max", r).unwrap_or(min as u64) as usize;
            Range {
                min: min.min(max),
                max,
            }
        }
        Field::Ok(RangeEntry::Exact(n)) => Range {
            min: *n as usize,
            max: *n as usize,
        },
        Field::Bad(_) => {
            r.shape(path, "a number or {min, max}");
            default
        }
    }
}

pub(super) fn plan(
    p: &GenerationPlan,
    outcomes: &[String],
    vars: &[Variable],
    r: &mut Report,
) -> Plan {
    let base = "generation_plan";
    let decoys = range(
        &p.decision_decoys_per_scenario,
        &key_path(base, "decision_decoys_per_scenario"),
        Range { min: 4, max: 5 },
        r,
    );
    let personal = range(
        &p.personal_context_items_per_person,
        &key_path(base, "personal_context_items_per_person"),
        Range { min: 1, max: 2 },
        r,
    );
    let most = &p.max_decoys_per_holder;
    let max_decoys_per_holder = opt(
        most,
        &key_path(base, "max_decoys_per_holder"),
        "a non-negative integer",
        r,
    )
    .map_or(usize::MAX, |n| (*n).max(1) as usize);
    let mut quotas = Vec::new();
    for (k, n) in p.outcome_quotas.get().into_iter().flatten() {
        let at = key_path(&key_path(base, "outcome_quotas"), k);
        match (outcomes.iter().position(|o| o == k), n.get()) {
            (Some(o), Some(n)) => quotas.push((o, *n as usize)),
            (None, _) => r.push(at, unknown("outcome", k, outcomes.iter().cloned())),
            (_, None) => r.shape(&at, "a non-negative integer"),
        }
    }
    let cases_path = key_path(base, "coverage_cases");
    let mut coverage = Vec::new();
    for (i, c) in opt_list(&p.coverage_cases, &cases_path, r)
        .iter()
        .enumerate()
    {
        let path = key_path(&index_path(&cases_path, i), "evidence_states");
        let Some(parts) = states_map(&c.or_empty().evidence_states, &path, vars, r) else {
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
    let entangled = p
        .evidence_realization_mix
        .get()
        .and_then(|m| m.required_evidence.get())
        .and_then(|m| m.privacy_entangled_fraction.get().copied())
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
