//! Lowering of the rule-based families (`severity_classification`,
//! `policy_decision`): the decision is one level or outcome; the evidence
//! variables are unknowns that the facts may fix; the exclusions rule
//! configurations out; the rules (first that holds) define the decision of
//! every valid configuration.

use super::{family_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var};
use crate::sema::{Condition, Predicate, RulePredicate, RuleSetting, Scenario};

pub(super) fn lower(sc: &Scenario, ss: &RuleSetting) -> Model {
    let mut model = Model::new(Codec::Rule);
    let levels: Vec<Var> = ss.levels.iter().map(|_| model.new_var()).collect();
    model.decision_groups.push(Group {
        name: sc.family().decision_word().into(),
        options: levels.clone(),
    });
    let values = evidence_groups(&mut model, ss, true);
    exclusions(&mut model, &values, ss);
    // Rule i fires when its condition holds and no earlier one does.
    let conditions = rule_conditions(&mut model, &values, ss);
    let mut earlier: Vec<Lit> = Vec::new();
    for (rule, &c) in ss.rubric.rules.iter().zip(&conditions) {
        let mut clause = earlier.clone();
        clause.push(!c);
        clause.push(Lit::pos(levels[rule.level]));
        model.public.push(Constraint::Clause(clause));
        earlier.push(c);
    }
    // Without `otherwise`, a configuration that no rule covers has no
    // decision (and is reported as a seed error by the analyses).
    if let Some(o) = ss.rubric.otherwise {
        earlier.push(Lit::pos(levels[o]));
    }
    model.public.push(Constraint::Clause(earlier));

    for (origin, status, pred) in family_facts(sc, Predicate::rule) {
        let lit = match pred {
            RulePredicate::Evidence { variable, value } => Lit::pos(values[*variable][*value]),
            RulePredicate::Toward { level } => Lit::pos(levels[*level]),
        };
        let indicator = model.new_var();
        model.facts.push(ModelFact {
            origin,
            status,
            indicator,
            holds: vec![Constraint::Clause(vec![lit])],
            violated: None,
        });
    }
    model
}

/// One exactly-one group per evidence variable, as decision groups (the
/// configuration is the decision) or auxiliary ones.
fn evidence_groups(model: &mut Model, ss: &RuleSetting, aux: bool) -> Vec<Vec<Var>> {
    ss.evidence
        .iter()
        .map(|e| {
            let vars: Vec<Var> = e.values.iter().map(|_| model.new_var()).collect();
            let group = Group {
                name: e.id.clone(),
                options: vars.clone(),
            };
            if aux {
                model.aux_groups.push(group);
            } else {
                model.decision_groups.push(group);
            }
            vars
        })
        .collect()
}

fn exclusions(model: &mut Model, values: &[Vec<Var>], ss: &RuleSetting) {
    for e in &ss.excludes {
        let c = condition(model, values, &e.when);
        model.public.push(Constraint::Clause(vec![!c]));
    }
}

fn rule_conditions(model: &mut Model, values: &[Vec<Var>], ss: &RuleSetting) -> Vec<Lit> {
    ss.rubric
        .rules
        .iter()
        .map(|r| condition(model, values, &r.when))
        .collect()
}

/// The valid configurations of a rule setting as a model of their own:
/// one decision group per evidence variable (a decision is a
/// configuration), the exclusions as public constraints, and a literal per
/// rule that is true exactly when the rule's condition holds. For the
/// lints that ask which configurations a rule reaches.
pub fn configurations(ss: &RuleSetting) -> (Model, Vec<Lit>) {
    let mut model = Model::new(Codec::Rule);
    let values = evidence_groups(&mut model, ss, false);
    exclusions(&mut model, &values, ss);
    let conditions = rule_conditions(&mut model, &values, ss);
    (model, conditions)
}

/// The evidence groups with only the exclusions marked in `keep`, as a
/// model of their own: whether some configuration survives them is the
/// analyses' question (`analysis::rules`), so lowering calls no solver.
pub fn kept_exclusions(ss: &RuleSetting, keep: &[bool]) -> Model {
    let mut model = Model::new(Codec::Rule);
    let values = evidence_groups(&mut model, ss, false);
    for (e, _) in ss.excludes.iter().zip(keep).filter(|(_, k)| **k) {
        let c = condition(&mut model, &values, &e.when);
        model.public.push(Constraint::Clause(vec![!c]));
    }
    model
}

/// A literal equivalent to the condition (Tseitin).
fn condition(model: &mut Model, values: &[Vec<Var>], c: &Condition) -> Lit {
    match c {
        Condition::Eq(v, x) => Lit::pos(values[*v][*x]),
        Condition::Ne(v, x) => Lit::neg(values[*v][*x]),
        Condition::In(v, xs) if xs.len() == 1 => Lit::pos(values[*v][xs[0]]),
        Condition::In(v, xs) => {
            let lits: Vec<Lit> = xs.iter().map(|&x| Lit::pos(values[*v][x])).collect();
            Lit::pos(model.or_var(&lits))
        }
        Condition::Not(inner) => !condition(model, values, inner),
        Condition::And(parts) => {
            let lits: Vec<Lit> = parts.iter().map(|p| condition(model, values, p)).collect();
            Lit::pos(model.and_var(&lits))
        }
        Condition::Or(parts) => {
            let lits: Vec<Lit> = parts.iter().map(|p| condition(model, values, p)).collect();
            Lit::pos(model.or_var(&lits))
        }
    }
}
