//! The default backend: BatSat, a pure-Rust CDCL solver (a MiniSat
//! descendant), through RustSAT.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit as RLit, TernaryVal};

use super::Backend;
use crate::model::Lit;

/// Stops the search once a deadline has passed.
#[derive(Default)]
pub struct DeadlineCallbacks {
    deadline: Rc<Cell<Option<Instant>>>,
}

impl ::batsat::Callbacks for DeadlineCallbacks {
    fn stop(&self) -> bool {
        self.deadline.get().is_some_and(|d| Instant::now() >= d)
    }
}

/// BatSat behind the [`Backend`] interface.
#[derive(Default)]
pub struct BatsatBackend {
    solver: rustsat_batsat::Solver<DeadlineCallbacks>,
    vars: u32,
}

fn to_rs(l: Lit) -> RLit {
    RLit::new(l.var().0, l.is_neg())
}

fn from_rs(l: RLit) -> Lit {
    let v = crate::model::Var(l.vidx32());
    if l.is_neg() {
        Lit::neg(v)
    } else {
        Lit::pos(v)
    }
}

impl Backend for BatsatBackend {
    fn reserve(&mut self, n: u32) {
        if n > self.vars {
            self.vars = n;
            let _ = self.solver.reserve(rustsat::types::Var::new(n - 1));
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().0 + 1).max() {
            self.reserve(max);
        }
        let clause: rustsat::types::Clause = lits.iter().map(|&l| to_rs(l)).collect();
        // BatSat's add_clause only fails when it runs out of memory.
        self.solver
            .add_clause(clause)
            .expect("BatSat accepts every clause");
    }

    fn solve(&mut self, assumptions: &[Lit], deadline: Option<Instant>) -> Option<bool> {
        self.solver.batsat_mut().cb_mut().deadline.set(deadline);
        let assumps: Vec<RLit> = assumptions.iter().map(|&l| to_rs(l)).collect();
        match self.solver.solve_assumps(&assumps) {
            Ok(SolverResult::Sat) => Some(true),
            Ok(SolverResult::Unsat) => Some(false),
            _ => None,
        }
    }

    fn value(&self, lit: Lit) -> bool {
        matches!(self.solver.lit_val(to_rs(lit)), Ok(TernaryVal::True))
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        // RustSAT reports the core as the negations of failed assumptions.
        self.solver
            .core()
            .map(|c| c.into_iter().map(|l| from_rs(!l)).collect())
            .unwrap_or_default()
    }
}
