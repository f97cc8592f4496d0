//! A session for one set of facts in force: what a single question about
//! one decision needs (is it allowed, is it the only one), compiled
//! without the facts out of force.
//!
//! Equivalent to a [`super::Purpose::Decide`] session queried with those facts:
//! an indicator assumed false there switches its fact's constraints off,
//! so leaving them out allows the same decisions, and the implied
//! constraints compiled are those such a query switches on (each holds of
//! every decision the facts in force allow). Building it costs a fraction
//! of the whole: on planted seeds most facts are distractors, traps or
//! claims, out of force when the oracle is asked for.

use super::{Backend, Lit, Session};
use crate::model::Model;
use std::time::Instant;

impl<'m, B: Backend> Session<'m, B> {
    /// The model compiled with exactly the facts of `in_force` in force,
    /// for good: ask it with [`Session::solve_fixed`].
    pub fn fixed(
        model: &'m Model,
        backend: B,
        deadline: Option<Instant>,
        in_force: &[bool],
    ) -> Self {
        let mut s = Session::empty(model, backend, deadline);
        s.compile_public();
        for (f, fact) in model.facts.iter().enumerate() {
            let on = in_force.get(f).copied().unwrap_or(false);
            let indicator = Lit::pos(fact.indicator);
            s.clause(None, [if on { indicator } else { !indicator }]);
            if on {
                for c in &fact.holds {
                    s.add(c, None);
                }
            }
            s.violation.push(None);
        }
        for imp in &model.implied {
            if compiled_when(imp, in_force) {
                s.add(&imp.constraint, None);
            }
        }
        s.stats.vars = s.next_var;
        s
    }
}

/// Everything [`Session::fixed`] compiles for `in_force`, as numbers: two
/// models with the same key allow the same choices, so what is solved of
/// one holds of the other. (The decision's groups are in it by their
/// options; how a choice reads as a decision is not.)
pub fn fixed_key(model: &Model, in_force: &[bool]) -> Vec<u32> {
    let lit = |l: &Lit| (l.var().0 << 1) | u32::from(l.is_neg());
    let mut key = vec![model.num_vars];
    let constraint = |key: &mut Vec<u32>, c: &crate::model::Constraint| match c {
        crate::model::Constraint::Clause(lits) => {
            key.extend([0, lits.len() as u32]);
            key.extend(lits.iter().map(lit));
        }
        crate::model::Constraint::AtMost { terms, bound } => {
            key.extend([1, terms.len() as u32, *bound]);
            key.extend(terms.iter().flat_map(|(l, w)| [lit(l), *w]));
        }
    };
    for groups in [&model.decision_groups, &model.aux_groups] {
        key.push(groups.len() as u32);
        for g in groups {
            key.push(g.options.len() as u32);
            key.extend(g.options.iter().map(|v| v.0));
        }
    }
    key.push(model.public.len() as u32);
    for c in &model.public {
        constraint(&mut key, c);
    }
    key.push(model.facts.len() as u32);
    for (f, fact) in model.facts.iter().enumerate() {
        let on = in_force.get(f).copied().unwrap_or(false);
        key.extend([fact.indicator.0, u32::from(on)]);
        if on {
            key.push(fact.holds.len() as u32);
            for c in &fact.holds {
                constraint(&mut key, c);
            }
        }
    }
    for (i, imp) in model.implied.iter().enumerate() {
        if compiled_when(imp, in_force) {
            key.push(i as u32);
            constraint(&mut key, &imp.constraint);
        }
    }
    key
}

/// Whether a fixed session compiles the implied constraint `imp`.
fn compiled_when(imp: &crate::model::Implied, in_force: &[bool]) -> bool {
    let on = |w: &usize| in_force.get(*w).copied().unwrap_or(false);
    imp.when.iter().all(on) && (imp.useful_without.is_empty() || !imp.useful_without.iter().all(on))
}
