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
/// Once the deadline is seen to have passed, every later question is
/// answered "stop" until the next solve sets a deadline again. BatSat asks
/// once more after the search gives up, to decide between restarting and
/// returning; an answer read from the counter alone would say "go on"
/// there, and the solve would restart for ever.
#[derive(Default)]
pub struct DeadlineCallbacks {
    deadline: Rc<Cell<Option<Instant>>>,
    asked: Cell<u32>,
    passed: Cell<bool>,
}

impl DeadlineCallbacks {
    /// The deadline of the next solve, which has not passed yet as far as
    /// this knows.
    fn set(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
        self.passed.set(false);
    }
}

impl ::batsat::Callbacks for DeadlineCallbacks {
    fn stop(&self) -> bool {
        let Some(deadline) = self.deadline.get() else {
            return false;
        };
        if self.passed.get() {
            return true;
        }
        let asked = self.asked.get().wrapping_add(1);
        self.asked.set(asked);
        let passed = asked.is_multiple_of(64) && Instant::now() >= deadline;
        self.passed.set(passed);
        passed
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
        self.solver.cb_mut().set(deadline);
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
    use std::time::Duration;

    /// Eleven pigeons in ten holes: unsatisfiable, and far beyond what
    /// CDCL proves in a second.
    fn pigeonhole(b: &mut BatsatBackend) {
        let (pigeons, holes) = (11u32, 10u32);
        let x = |p: u32, h: u32| Var(p * holes + h);
        b.reserve(pigeons * holes);
        for p in 0..pigeons {
            let some: Vec<Lit> = (0..holes).map(|h| Lit::pos(x(p, h))).collect();
            b.add_clause(&some);
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    b.add_clause(&[Lit::neg(x(p, h)), Lit::neg(x(q, h))]);
                }
            }
        }
    }

    /// A solve past its deadline gives up, however hard the problem and
    /// however often it is asked again. (BatSat asks once more before it
    /// restarts; the stop must still be the answer then.)
    #[test]
    fn a_deadline_ends_a_hard_solve() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut b = BatsatBackend::default();
            pigeonhole(&mut b);
            let answers: Vec<(Option<bool>, Duration)> = [1u64, 5, 20]
                .into_iter()
                .map(|ms| {
                    let start = Instant::now();
                    let got = b.solve(&[], Some(start + Duration::from_millis(ms)));
                    (got, start.elapsed())
                })
                .collect();
            let _ = tx.send(answers);
        });
        // A hang guard only; the stop comes within a few decisions.
        let answers = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the solves ended");
        for (got, _) in answers {
            assert_eq!(got, None, "a deadline, not an answer");
        }
    }
}
