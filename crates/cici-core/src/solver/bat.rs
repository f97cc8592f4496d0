//! The default backend: BatSat, a pure-Rust CDCL solver (a MiniSat
//! descendant), driven directly. (RustSAT's wrapper timed every solve with
//! a CPU clock, a system call each on machines whose clock has no vDSO
//! path, and copied every clause; the encodings still come from RustSAT.)

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use batsat::{lbool, SolverInterface};

use super::Backend;
use crate::model::Lit;

/// Stops the search once a deadline has passed. BatSat asks at every
/// decision; the clock is read on every 64th question only (reading it
/// took 9% of the time of checking a large JIRA scenario), which delays a
/// stop by at most 63 decisions.
///
/// Once it has said stop, it says so to every question until the next
/// solve: BatSat asks again after the search returns, to tell a stop from
/// a restart, and an answer that fell back to "go on" there restarted the
/// search forever (`--max-solve-ms 1` never ended).
#[derive(Default)]
pub struct DeadlineCallbacks {
    deadline: Rc<Cell<Option<Instant>>>,
    asked: Cell<u32>,
    stopped: Cell<bool>,
}

impl DeadlineCallbacks {
    /// The deadline of the next solve, with no stop said yet.
    fn start(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
        self.stopped.set(false);
    }
}

impl ::batsat::Callbacks for DeadlineCallbacks {
    fn stop(&self) -> bool {
        if self.stopped.get() {
            return true;
        }
        let Some(deadline) = self.deadline.get() else {
            return false;
        };
        let asked = self.asked.get().wrapping_add(1);
        self.asked.set(asked);
        let stop = asked.is_multiple_of(64) && Instant::now() >= deadline;
        self.stopped.set(stop);
        stop
    }
}

/// What the last solve found: the model and the failed assumptions may be
/// read only after the answer that makes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Answer {
    #[default]
    None,
    Sat,
    /// Unsatisfiable; `true` when under assumptions, which then have a core.
    Unsat(bool),
}

/// BatSat behind the [`Backend`] interface.
#[derive(Default)]
pub struct BatsatBackend {
    solver: batsat::Solver<DeadlineCallbacks>,
    vars: u32,
    answer: Answer,
    /// Reused for each clause and each set of assumptions.
    buffer: Vec<batsat::Lit>,
    /// The at-most constraints, propagated natively.
    pb: super::pb::PbTheory,
}

impl BatsatBackend {
    /// BatSat's literal for `l`, its variable made if it is new.
    fn solver_lit(&mut self, l: Lit) -> batsat::Lit {
        batsat::Lit::new(self.solver.var_of_int(l.var().0), !l.is_neg())
    }
}

/// The negation of a literal of BatSat's: its conflict holds the negations
/// of the failed assumptions.
fn negated_from_bs(l: batsat::Lit) -> Lit {
    let v = crate::model::Var(l.var().idx());
    if l.sign() {
        Lit::neg(v)
    } else {
        Lit::pos(v)
    }
}

impl Backend for BatsatBackend {
    fn reserve(&mut self, n: u32) {
        if n > self.vars {
            self.vars = n;
            self.solver.var_of_int(n - 1);
        }
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        if let Some(max) = lits.iter().map(|l| l.var().0 + 1).max() {
            self.reserve(max);
        }
        let mut clause = std::mem::take(&mut self.buffer);
        clause.clear();
        clause.extend(lits.iter().map(|&l| self.solver_lit(l)));
        self.solver.add_clause_reuse(&mut clause);
        self.buffer = clause;
        self.answer = Answer::None;
    }

    fn solve(&mut self, assumptions: &[Lit], deadline: Option<Instant>) -> Option<bool> {
        self.solver.cb_mut().start(deadline);
        let mut assumps = std::mem::take(&mut self.buffer);
        assumps.clear();
        assumps.extend(assumptions.iter().map(|&l| self.solver_lit(l)));
        let result = if self.pb.is_empty() {
            self.solver.solve_limited(&assumps)
        } else {
            self.solver.solve_limited_th(&mut self.pb, &assumps)
        };
        self.buffer = assumps;
        self.answer = if result == lbool::TRUE {
            Answer::Sat
        } else if result == lbool::FALSE {
            Answer::Unsat(!assumptions.is_empty())
        } else {
            Answer::None
        };
        match self.answer {
            Answer::Sat => Some(true),
            Answer::Unsat(_) => Some(false),
            Answer::None => None,
        }
    }

    fn value(&self, lit: Lit) -> bool {
        let l = batsat::Lit::new(batsat::Var::unsafe_from_idx(lit.var().0), !lit.is_neg());
        self.answer == Answer::Sat && self.solver.value_lit(l) == lbool::TRUE
    }

    fn at_most(&mut self, terms: &[(Lit, u32)], bound: u64, guard: Option<Lit>) -> Option<u32> {
        let ts: Vec<(batsat::Lit, u32)> = terms
            .iter()
            .map(|&(l, w)| (self.solver_lit(l), w))
            .collect();
        let guard = guard.map(|g| self.solver_lit(g));
        self.answer = Answer::None;
        Some(self.pb.add(&ts, bound, guard))
    }

    fn remove_at_most(&mut self, id: u32) {
        self.answer = Answer::None;
        self.pb.remove(id);
    }

    fn failed_assumptions(&mut self) -> Vec<Lit> {
        match self.answer {
            Answer::Unsat(true) => self
                .solver
                .unsat_core()
                .iter()
                .map(|&l| negated_from_bs(l))
                .collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Var;

    /// Pigeonhole: `n + 1` pigeons in `n` holes, which CDCL refutes only
    /// by a search far longer than a millisecond for n = 10.
    fn pigeonhole(b: &mut BatsatBackend, n: u32) {
        let var = |p: u32, h: u32| Var(p * n + h);
        for p in 0..=n {
            let clause: Vec<Lit> = (0..n).map(|h| Lit::pos(var(p, h))).collect();
            b.add_clause(&clause);
        }
        for h in 0..n {
            for p in 0..=n {
                for q in p + 1..=n {
                    b.add_clause(&[Lit::neg(var(p, h)), Lit::neg(var(q, h))]);
                }
            }
        }
    }

    /// A passed deadline stops the search and the stop holds: BatSat asks
    /// again after the search returns, and a "go on" there restarted it
    /// forever. Each solve starts afresh, so a later solve without a
    /// deadline still finds its answer.
    #[test]
    fn a_passed_deadline_stops_the_solve_and_the_next_solve_starts_afresh() {
        let mut b = BatsatBackend::default();
        pigeonhole(&mut b, 10);
        for _ in 0..3 {
            let start = Instant::now();
            assert_eq!(b.solve(&[], Some(start)), None);
            assert!(start.elapsed() < std::time::Duration::from_secs(5));
        }
        // Pigeon 0 in no hole: refuted by propagation alone, once the stop
        // said before is forgotten.
        let nowhere: Vec<Lit> = (0..10).map(|h| Lit::neg(Var(h))).collect();
        assert_eq!(b.solve(&nowhere, None), Some(false));
    }
}
