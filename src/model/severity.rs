//! Lowering of `severity_classification`: the decision is one level; the
//! evidence variables are unknowns that the facts may fix, and the rubric
//! (first rule that holds) defines the level of every completion.

use super::{scenario_facts, Codec, Constraint, Group, Lit, Model, ModelFact, Var};
use crate::sema::{Condition, Predicate, Scenario};

pub(super) fn lower(sc: &Scenario) -> Model {
    let ss = sc
        .severity_setting()
        .expect("severity family has a severity setting");
    let mut model = Model::new(sc.family, Codec::Severity);
    let levels: Vec<Var> = ss.levels.iter().map(|_| model.new_var()).collect();
    model.decision_groups.push(Group {
        name: "level".into(),
        options: levels.clone(),
    });
    let values: Vec<Vec<Var>> = ss
        .evidence
        .iter()
        .map(|e| {
            let vars: Vec<Var> = e.values.iter().map(|_| model.new_var()).collect();
            model.aux_groups.push(Group {
                name: e.id.clone(),
                options: vars.clone(),
            });
            vars
        })
        .collect();
    // Rule i fires when its condition holds and no earlier one does.
    let mut earlier: Vec<Lit> = Vec::new();
    for rule in &ss.rubric.rules {
        let c = condition(&mut model, &values, &rule.when);
        let mut clause = earlier.clone();
        clause.push(!c);
        clause.push(Lit::pos(levels[rule.level]));
        model.public.push(Constraint::Clause(clause));
        earlier.push(c);
    }
    earlier.push(Lit::pos(levels[ss.rubric.otherwise]));
    model.public.push(Constraint::Clause(earlier));

    for (origin, status, pred) in scenario_facts(sc) {
        let lit = match pred {
            Predicate::Evidence { variable, value } => Lit::pos(values[*variable][*value]),
            Predicate::Toward { level } => Lit::pos(levels[*level]),
            _ => unreachable!("severity facts only"),
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

/// A literal equivalent to the condition (Tseitin).
fn condition(model: &mut Model, values: &[Vec<Var>], c: &Condition) -> Lit {
    match c {
        Condition::Eq(v, x) => Lit::pos(values[*v][*x]),
        Condition::Ne(v, x) => Lit::neg(values[*v][*x]),
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
