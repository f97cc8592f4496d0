//! One incremental solving session per model.

use std::time::Instant;

use rustsat::encodings::pb::{BoundUpper, GeneralizedTotalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};

use super::{bat::BatsatBackend, Backend};

mod fixed;
pub use fixed::fixed_key;
mod implied;
use crate::model::{Constraint, FactId, Lit, Model, Var, Violation};

/// The answer to one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An allowed decision exists; here it is, as one option per group.
    Sat(Vec<usize>),
    /// No allowed decision.
    Unsat,
    /// The deadline passed before an answer.
    Timeout,
}

/// Counters of one session.
#[derive(Clone, Copy, Debug, Default)]
pub struct SessionStats {
    pub solves: u32,
    pub vars: u32,
}

/// A model compiled into a backend, answering queries under assumptions.
pub struct Session<'m, B: Backend = BatsatBackend> {
    model: &'m Model,
    backend: B,
    next_var: u32,
    violation: Vec<Option<Lit>>,
    implied: implied::Switched,
    deadline: Option<Instant>,
    /// The clause being added, kept so that adding one allocates nothing.
    scratch: Vec<Lit>,
    pub stats: SessionStats,
}

fn to_rs(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().0, l.is_neg())
}

fn from_rs(l: rustsat::types::Lit) -> Lit {
    let v = Var(l.vidx32());
    if l.is_neg() {
        Lit::neg(v)
    } else {
        Lit::pos(v)
    }
}

/// Exactly-one groups up to this size use the pairwise at-most-one
/// encoding (no auxiliary variables, which the solver would otherwise have
/// to decide on every query); larger ones a sequential counter.
const PAIRWISE_UP_TO: usize = 16;

/// What a session is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The public constraints and every fact, switched by its indicator:
    /// uniqueness, necessity and traps.
    Decide,
    /// The public constraints and, per fact, a literal that forces a
    /// violation of it: relevance. The facts themselves are not encoded, so
    /// the decide session carries no violation encodings it never uses.
    Violate,
}

impl<'m> Session<'m, BatsatBackend> {
    /// Compiles the model into the default backend for deciding.
    pub fn new(model: &'m Model, deadline: Option<Instant>) -> Self {
        Session::with_backend(model, BatsatBackend::default(), deadline, Purpose::Decide)
    }

    /// Compiles the model into the default backend for relevance queries.
    pub fn for_violations(model: &'m Model, deadline: Option<Instant>) -> Self {
        Session::with_backend(model, BatsatBackend::default(), deadline, Purpose::Violate)
    }
}

impl<'m, B: Backend> Session<'m, B> {
    pub fn with_backend(
        model: &'m Model,
        backend: B,
        deadline: Option<Instant>,
        purpose: Purpose,
    ) -> Self {
        let mut s = Session::empty(model, backend, deadline);
        s.compile_public();
        for f in &model.facts {
            match purpose {
                Purpose::Decide => {
                    let guard = Lit::pos(f.indicator);
                    for c in &f.holds {
                        s.add(c, Some(guard));
                    }
                    s.violation.push(None);
                }
                Purpose::Violate => {
                    // No fact is in force here; indicators stay false.
                    s.clause(None, [Lit::neg(f.indicator)]);
                    let v = match &f.violated {
                        Some(terms) if !terms.is_empty() => Some(s.violation_lit(terms)),
                        _ => None,
                    };
                    s.violation.push(v);
                }
            }
        }
        if purpose == Purpose::Decide {
            s.compile_implied();
        }
        s.stats.vars = s.next_var;
        s
    }

    /// A session with nothing compiled yet.
    fn empty(model: &'m Model, backend: B, deadline: Option<Instant>) -> Self {
        Session {
            model,
            backend,
            next_var: model.num_vars,
            violation: Vec::with_capacity(model.facts.len()),
            implied: implied::Switched::default(),
            deadline,
            scratch: Vec::new(),
            stats: SessionStats::default(),
        }
    }

    /// The decision's groups and the public constraints.
    fn compile_public(&mut self) {
        let model = self.model;
        self.backend.reserve(model.num_vars);
        for g in model.decision_groups.iter().chain(&model.aux_groups) {
            self.exactly_one(&g.options);
        }
        for c in &model.public {
            self.add(c, None);
        }
    }

    pub fn model(&self) -> &'m Model {
        self.model
    }

    fn fresh(&mut self) -> Lit {
        self.next_var += 1;
        self.backend.reserve(self.next_var);
        Lit::pos(Var(self.next_var - 1))
    }

    fn clause(&mut self, guard: Option<Lit>, lits: impl IntoIterator<Item = Lit>) {
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        c.extend(guard.map(|g| !g));
        c.extend(lits);
        self.backend.add_clause(&c);
        self.scratch = c;
    }

    fn exactly_one(&mut self, vars: &[Var]) {
        self.clause(None, vars.iter().map(|&v| Lit::pos(v)));
        if vars.len() <= PAIRWISE_UP_TO {
            for i in 0..vars.len() {
                for j in i + 1..vars.len() {
                    self.clause(None, [Lit::neg(vars[i]), Lit::neg(vars[j])]);
                }
            }
        } else {
            // Sequential at-most-one: s_i means "some of x_0..x_i is true".
            let mut prev: Option<Lit> = None;
            for (i, &v) in vars.iter().enumerate() {
                let x = Lit::pos(v);
                if let Some(p) = prev {
                    self.clause(None, [!x, !p]);
                }
                if i + 1 < vars.len() {
                    let s = self.fresh();
                    self.clause(None, [!x, s]);
                    if let Some(p) = prev {
                        self.clause(None, [!p, s]);
                    }
                    prev = Some(s);
                }
            }
        }
    }

    /// Adds `guard => c`; the backend's id where it took `c` natively.
    fn add(&mut self, c: &Constraint, guard: Option<Lit>) -> Option<u32> {
        match c {
            Constraint::Clause(lits) => {
                self.clause(guard, lits.iter().copied());
                None
            }
            Constraint::AtMost { terms, bound } => self.pb(terms, *bound, guard, true),
        }
    }

    /// `sum <= bound` (upper) or `sum >= bound` (lower), enforced while `guard`.
    ///
    /// To the backend's own propagator where it has one: a running sum
    /// costs the same whatever the bound, where a totalizer grows with it
    /// (as totalizers, the load bounds a JIRA lowering implies, tens of
    /// hours each, doubled the median check of a large scenario).
    /// Otherwise as a generalized totalizer. A lower bound is an upper
    /// bound on the negated terms: `sum >= b` exactly when the weight of
    /// the false terms is at most `total - b`.
    fn pb(
        &mut self,
        terms: &[(Lit, u32)],
        bound: u32,
        guard: Option<Lit>,
        upper: bool,
    ) -> Option<u32> {
        let mut terms: Vec<(Lit, u32)> = terms.iter().copied().filter(|(_, w)| *w > 0).collect();
        let total: u64 = terms.iter().map(|(_, w)| u64::from(*w)).sum();
        let mut bound = u64::from(bound);
        if !upper {
            let Some(room) = total.checked_sub(bound) else {
                self.clause(guard, []);
                return None;
            };
            for t in &mut terms {
                t.0 = !t.0;
            }
            bound = room;
        }
        if bound >= total {
            return None;
        }
        if let Some(id) = self.backend.at_most(&terms, bound, guard) {
            return Some(id);
        }
        let mut cnf = Cnf::new();
        let mut vm = BasicVarManager::from_next_free(rustsat::types::Var::new(self.next_var));
        let mut enc: GeneralizedTotalizer = terms
            .into_iter()
            .map(|(l, w)| (to_rs(l), w as usize))
            .collect();
        // Below the weight sum, which fits in memory.
        let bound = usize::try_from(bound).unwrap_or(usize::MAX);
        enc.encode_ub(bound..=bound, &mut cnf, &mut vm)
            .expect("in-memory clauses");
        let units = enc
            .enforce_ub(bound)
            .expect("bound below the weight sum was encoded");
        if let Some(max) = vm.max_var() {
            self.next_var = self.next_var.max(max.idx32() + 1);
            self.backend.reserve(self.next_var);
        }
        for cl in cnf {
            let lits: Vec<Lit> = cl.iter().map(|&l| from_rs(l)).collect();
            self.backend.add_clause(&lits);
        }
        for u in units {
            self.clause(guard, [from_rs(u)]);
        }
        None
    }

    /// A literal that, assumed, forces the decision to violate the fact.
    fn violation_lit(&mut self, terms: &[Violation]) -> Lit {
        let v = self.fresh();
        let mut options = Vec::new();
        for t in terms {
            match t {
                Violation::All(lits) if lits.len() == 1 => options.push(lits[0]),
                Violation::All(lits) => {
                    let t = self.fresh();
                    for &l in lits {
                        self.clause(Some(t), [l]);
                    }
                    options.push(t);
                }
                Violation::AtLeast { terms, bound } => {
                    let t = self.fresh();
                    self.pb(terms, *bound, Some(t), false);
                    options.push(t);
                }
            }
        }
        self.clause(Some(v), options);
        v
    }

    /// The literal that forces a violation of the fact, if it can be violated
    /// (always `None` in a [`Purpose::Decide`] session).
    pub fn violation(&self, fact: FactId) -> Option<Lit> {
        self.violation[fact]
    }

    /// A fresh literal that, assumed, makes the decision differ from `choice`.
    pub fn differ_from(&mut self, choice: &[usize]) -> Lit {
        let g = self.guard();
        let all: Vec<usize> = (0..self.model.decision_groups.len()).collect();
        self.block(g, &all, choice);
        g
    }

    /// A fresh literal to switch clauses added later with [`Session::block`].
    pub fn guard(&mut self) -> Lit {
        self.fresh()
    }

    /// While `guard` is assumed, the options `choice` picks in `groups`
    /// are not all chosen again.
    pub fn block(&mut self, guard: Lit, groups: &[usize], choice: &[usize]) {
        let lits: Vec<Lit> = groups
            .iter()
            .map(|&g| Lit::neg(self.model.decision_groups[g].options[choice[g]]))
            .collect();
        self.clause(Some(guard), lits);
    }

    /// Whether a decision is allowed with exactly the facts in `in_force`
    /// switched on, plus the `extra` assumptions.
    pub fn solve(&mut self, in_force: &[bool], extra: &[Lit]) -> Outcome {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Timeout;
        }
        let mut assumptions: Vec<Lit> = self
            .model
            .facts
            .iter()
            .zip(in_force)
            .map(|(f, &on)| {
                if on {
                    Lit::pos(f.indicator)
                } else {
                    Lit::neg(f.indicator)
                }
            })
            .collect();
        assumptions.extend_from_slice(extra);
        self.switch_implied(in_force);
        self.solve_under(&assumptions)
    }

    /// A fresh literal that, assumed, lets at most `k` of `facts` be off.
    /// With those facts left free in [`Session::solve_free`], it asks for
    /// a decision that gives up at most `k` of them.
    pub fn at_most_off(&mut self, facts: &[FactId], k: u32) -> Lit {
        let g = self.guard();
        let terms: Vec<(Lit, u32)> = facts
            .iter()
            .map(|&f| (Lit::neg(self.model.facts[f].indicator), 1))
            .collect();
        if k == 0 {
            for (l, _) in &terms {
                self.clause(Some(g), [!*l]);
            }
        } else {
            self.pb(&terms, k, Some(g), true);
        }
        g
    }

    /// Like [`Session::solve`], but the facts marked in `free` are neither
    /// assumed on nor off: the solver may keep or give up each of them
    /// (constraints such as [`Session::at_most_off`] bound how many).
    pub fn solve_free(&mut self, in_force: &[bool], free: &[bool], extra: &[Lit]) -> Outcome {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Timeout;
        }
        let mut assumptions: Vec<Lit> = Vec::with_capacity(in_force.len() + extra.len());
        let mut switched = in_force.to_vec();
        for (i, f) in self.model.facts.iter().enumerate() {
            if free[i] {
                // An aid that follows from a free fact is guarded by that
                // fact's indicator in the solution, so it stays sound.
                switched[i] = true;
            } else if in_force[i] {
                assumptions.push(Lit::pos(f.indicator));
            } else {
                assumptions.push(Lit::neg(f.indicator));
            }
        }
        assumptions.extend_from_slice(extra);
        self.switch_implied(&switched);
        self.solve_under(&assumptions)
    }

    /// Fixes the facts in force for good: every later query has exactly
    /// these facts on, and [`Session::solve_fixed`] need not assume them.
    pub fn fix_facts(&mut self, in_force: &[bool]) {
        for (f, &on) in self.model.facts.iter().zip(in_force) {
            let l = Lit::pos(f.indicator);
            self.clause(None, [if on { l } else { !l }]);
        }
    }

    /// Whether a decision is allowed under the facts fixed by
    /// [`Session::fix_facts`] and the `extra` assumptions.
    pub fn solve_fixed(&mut self, extra: &[Lit]) -> Outcome {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Timeout;
        }
        self.solve_under(extra)
    }

    fn solve_under(&mut self, assumptions: &[Lit]) -> Outcome {
        self.stats.solves += 1;
        match self.backend.solve(assumptions, self.deadline) {
            None => Outcome::Timeout,
            Some(false) => Outcome::Unsat,
            Some(true) => Outcome::Sat(
                self.model
                    .decision_groups
                    .iter()
                    .map(|g| {
                        g.options
                            .iter()
                            .position(|&v| self.backend.value(Lit::pos(v)))
                            .unwrap_or(0)
                    })
                    .collect(),
            ),
        }
    }

    /// After [`Outcome::Sat`]: whether the decision found violates the fact.
    pub fn violated_now(&self, fact: FactId) -> bool {
        let value = |l: &Lit| self.backend.value(*l);
        self.model.facts[fact]
            .violated
            .as_ref()
            .is_some_and(|terms| {
                terms.iter().any(|t| match t {
                    Violation::All(lits) => lits.iter().all(value),
                    Violation::AtLeast { terms, bound } => {
                        terms
                            .iter()
                            .filter(|(l, _)| value(l))
                            .map(|(_, w)| u64::from(*w))
                            .sum::<u64>()
                            >= u64::from(*bound)
                    }
                })
            })
    }

    /// After [`Outcome::Unsat`]: facts whose being in force the answer used.
    pub fn core(&mut self) -> Vec<FactId> {
        let failed: std::collections::HashSet<Lit> =
            self.backend.failed_assumptions().into_iter().collect();
        (0..self.model.facts.len())
            .filter(|&f| failed.contains(&Lit::pos(self.model.facts[f].indicator)))
            .collect()
    }
}
