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
            let holds = imp.when.iter().all(|&w| in_force[w]);
            let of_use =
                imp.useful_without.is_empty() || imp.useful_without.iter().any(|&w| !in_force[w]);
            if holds && of_use {
                s.add(&imp.constraint, None);
            }
        }
        s.stats.vars = s.next_var;
        s
    }
}
