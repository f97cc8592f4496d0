//! Counting the decisions a set of facts allows, bounded in number and
//! time.
//!
//! The decision groups fall apart into components that no constraint
//! links (once the fact indicators are fixed), and the count
//! is the product of the components' counts. Each component is enumerated
//! in one warm session: every decision found is blocked by a clause over
//! that component's decision literals only, switched by one guard literal
//! per component, so a query assumes a single guard however many decisions
//! came before it (the facts in force are fixed by unit clauses).

use std::time::Instant;

use super::{session::Outcome, session::Session};
use crate::model::{Constraint, Lit, Model};

/// Why a count stopped before it was exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The count reached the bound it was given.
    Bound,
    /// The deadline passed.
    Deadline,
}

/// A number of decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many.
    Exact(u64),
    /// At least this many: the count stopped there.
    AtLeast { count: u64, stop: Stop },
}

impl Count {
    /// The count reached: exact, or a lower bound.
    pub fn value(self) -> u64 {
        match self {
            Count::Exact(n) | Count::AtLeast { count: n, .. } => n,
        }
    }
}

fn root(parent: &mut [usize], mut v: usize) -> usize {
    while parent[v] != v {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    v
}

/// Puts every variable of `vars` in one class.
fn join(vars: &mut dyn Iterator<Item = usize>, parent: &mut [usize]) {
    if let Some(first) = vars.next() {
        let a = root(parent, first);
        for v in vars {
            let b = root(parent, v);
            parent[b] = a;
        }
    }
}

/// The decision groups of each component, in group order.
fn components(model: &Model) -> Vec<Vec<usize>> {
    let n = model.num_vars as usize;
    let mut parent: Vec<usize> = (0..n).collect();
    // Indicators are fixed by assumption: they link nothing.
    let mut indicator = vec![false; n];
    for f in &model.facts {
        indicator[f.indicator.0 as usize] = true;
    }
    for g in model.decision_groups.iter().chain(&model.aux_groups) {
        join(&mut g.options.iter().map(|v| v.0 as usize), &mut parent);
    }
    let constraints = model
        .public
        .iter()
        .chain(model.facts.iter().flat_map(|f| &f.holds));
    for c in constraints {
        let lits: Vec<Lit> = match c {
            Constraint::Clause(lits) => lits.clone(),
            Constraint::AtMost { terms, .. } => terms.iter().map(|(l, _)| *l).collect(),
        };
        let mut vars = lits
            .into_iter()
            .map(|l| l.var().0 as usize)
            .filter(|&v| !indicator[v]);
        join(&mut vars, &mut parent);
    }
    let mut by_root: Vec<(usize, Vec<usize>)> = Vec::new();
    for (g, group) in model.decision_groups.iter().enumerate() {
        let Some(first) = group.options.first() else {
            continue;
        };
        let r = root(&mut parent, first.0 as usize);
        match by_root.iter_mut().find(|(root, _)| *root == r) {
            Some((_, groups)) => groups.push(g),
            None => by_root.push((r, vec![g])),
        }
    }
    by_root.into_iter().map(|(_, groups)| groups).collect()
}

/// How many decisions the model allows with exactly the facts in
/// `in_force` switched on. The count is exact when it takes at most
/// `bound` decisions enumerated (the parts multiply, so an exact count may
/// be far larger than `bound`); otherwise, or when `deadline` passes, it is
/// the lower bound reached.
pub fn count(model: &Model, in_force: &[bool], bound: u64, deadline: Option<Instant>) -> Count {
    // Facts not in force constrain nothing: the session is compiled
    // without them (so they link no parts), their indicators fixed false
    // all the same.
    let mut model = model.clone();
    for (f, &on) in model.facts.iter_mut().zip(in_force) {
        if !on {
            f.holds.clear();
        }
    }
    let model = &model;
    let mut session = Session::new(model, deadline);
    session.fix_facts(in_force);
    let stopped = |count, stop| Count::AtLeast { count, stop };
    match session.solve_fixed(&[]) {
        Outcome::Unsat => return Count::Exact(0),
        Outcome::Timeout => return stopped(0, Stop::Deadline),
        Outcome::Sat(_) => {}
    }
    // Every part has a decision now, so the product of the counts reached
    // so far is a lower bound on the whole.
    let mut total: u64 = 1;
    let mut enumerated: u64 = 0;
    for groups in components(model) {
        let guard = session.guard();
        let mut found: u64 = 0;
        loop {
            let reached = total.saturating_mul(found.max(1));
            if enumerated >= bound {
                return stopped(reached, Stop::Bound);
            }
            match session.solve_fixed(&[guard]) {
                Outcome::Sat(choice) => {
                    found += 1;
                    enumerated += 1;
                    session.block(guard, &groups, &choice);
                }
                Outcome::Unsat => break,
                Outcome::Timeout => return stopped(reached, Stop::Deadline),
            }
        }
        total = total.saturating_mul(found);
    }
    Count::Exact(total)
}
