//! Weighted at-most constraints propagated natively, as a BatSat theory:
//! a running sum per constraint instead of a totalizer's clauses.
//!
//! Invariant: `trail` is a prefix of the solver's trail, and every
//! constraint's `sum` is the weight of its terms on `trail`. Each level's
//! mark is `trail`'s length when the level was made (the theory is called
//! at every propagation fixpoint, so it has seen the whole trail then).
//!
//! Propagation is complete for one constraint: with the guard true, every
//! open term whose weight no longer fits is set false, with the true terms
//! that leave no room (heaviest first) as its reason.

use batsat::theory::TheoryArg;
use batsat::{lbool, Lit, Theory};

/// `guard => sum of weights of true terms <= bound`.
struct AtMost {
    /// Heaviest first.
    terms: Vec<(Lit, u64)>,
    bound: u64,
    guard: Option<Lit>,
    /// Weight of the terms on the theory's trail.
    sum: u64,
}

/// Every at-most constraint of a session.
#[derive(Default)]
pub struct PbTheory {
    cons: Vec<AtMost>,
    /// By literal code: the constraints with that literal as a term, with
    /// its weight.
    terms_of: Vec<Vec<(u32, u64)>>,
    /// By literal code: the constraints that literal switches on.
    guarded_by: Vec<Vec<u32>>,
    trail: Vec<Lit>,
    /// By literal code: on `trail` at level 0, for good.
    fixed: Vec<bool>,
    marks: Vec<usize>,
    /// Constraints added since the last check, to check first.
    added: Vec<u32>,
    /// By variable: the reason of its last propagation.
    reasons: Vec<Vec<Lit>>,
    scratch: Vec<Lit>,
}

impl PbTheory {
    /// Whether no constraint was ever added.
    pub fn is_empty(&self) -> bool {
        self.cons.is_empty()
    }

    /// Adds `guard => sum <= bound`, between solves (at level 0); returns
    /// its id.
    pub fn add(&mut self, terms: &[(Lit, u32)], bound: u64, guard: Option<Lit>) -> u32 {
        debug_assert!(self.marks.is_empty(), "added between solves");
        let mut terms: Vec<(Lit, u64)> = terms
            .iter()
            .filter(|t| t.1 > 0)
            .map(|&(l, w)| (l, u64::from(w)))
            .collect();
        terms.sort_by_key(|t| std::cmp::Reverse(t.1));
        let c = u32::try_from(self.cons.len()).expect("fewer constraints than clauses");
        // Terms already on the trail (at level 0) count from the start.
        let fixed = |l: Lit| self.fixed.get(l.idx() as usize).copied().unwrap_or(false);
        let sum = terms.iter().filter(|t| fixed(t.0)).map(|t| t.1).sum();
        for &(l, w) in &terms {
            slot(&mut self.terms_of, l.idx() as usize).push((c, w));
            slot(&mut self.reasons, l.var().idx() as usize);
        }
        if let Some(g) = guard {
            slot(&mut self.guarded_by, g.idx() as usize).push(c);
            slot(&mut self.reasons, g.var().idx() as usize);
        }
        self.cons.push(AtMost {
            terms,
            bound,
            guard,
            sum,
        });
        self.added.push(c);
        c
    }

    /// Takes constraint `c` out, between solves. Sound only for a guarded
    /// constraint that its guard's clauses switch on where it is implied
    /// anyway: what was learnt from it then still holds of every solution.
    pub fn remove(&mut self, c: u32) {
        debug_assert!(self.marks.is_empty(), "removed between solves");
        let Some(con) = self.cons.get_mut(c as usize) else {
            return;
        };
        let terms = std::mem::take(&mut con.terms);
        con.bound = u64::MAX;
        for (l, _) in terms {
            if let Some(occ) = self.terms_of.get_mut(l.idx() as usize) {
                occ.retain(|e| e.0 != c);
            }
        }
        if let Some(g) = con.guard.take() {
            if let Some(occ) = self.guarded_by.get_mut(g.idx() as usize) {
                occ.retain(|&e| e != c);
            }
        }
        self.added.retain(|&e| e != c);
    }

    /// Takes in the solver's trail past `trail`; false on a conflict.
    fn catch_up(&mut self, acts: &mut TheoryArg) -> bool {
        while let Some(c) = self.added.pop() {
            if !self.check(c as usize, acts) {
                self.added.push(c);
                return false;
            }
        }
        while self.trail.len() < acts.model().len() {
            let l = acts.model()[self.trail.len()];
            self.trail.push(l);
            let code = l.idx() as usize;
            if self.marks.is_empty() {
                *slot(&mut self.fixed, code) = true;
            }
            let n = self.terms_of.get(code).map_or(0, Vec::len);
            // Every sum first: a conflict may stop the checks half way,
            // and backtracking takes the literal off all of them.
            for &(c, w) in self.terms_of.get(code).into_iter().flatten() {
                self.cons[c as usize].sum += w;
            }
            for i in 0..n {
                let c = self.terms_of[code][i].0;
                if !self.check(c as usize, acts) {
                    return false;
                }
            }
            for i in 0..self.guarded_by.get(code).map_or(0, Vec::len) {
                let c = self.guarded_by[code][i];
                if !self.check(c as usize, acts) {
                    return false;
                }
            }
        }
        true
    }

    /// Propagates constraint `c` on the current assignment; false on a
    /// conflict, raised with the solver.
    fn check(&mut self, c: usize, acts: &mut TheoryArg) -> bool {
        let con = &self.cons[c];
        let guard = con.guard.map_or(lbool::TRUE, |g| value(acts, g));
        if con.sum > con.bound {
            // The true terms already exceed the bound: the guard must be off.
            self.scratch.clear();
            fill_reason(&mut self.scratch, con, acts, con.bound + 1);
            if guard == lbool::TRUE {
                let mut clause: Vec<Lit> = self.scratch.iter().map(|&l| !l).collect();
                clause.extend(con.guard.map(|g| !g));
                acts.raise_conflict(&clause, false);
                return false;
            }
            if guard == lbool::UNDEF {
                let g = con.guard.expect("an unguarded constraint is always on");
                let reason = &mut self.reasons[g.var().idx() as usize];
                reason.clear();
                reason.extend_from_slice(&self.scratch);
                return acts.propagate(!g);
            }
            return true;
        }
        if guard != lbool::TRUE {
            return true;
        }
        let room = con.bound - con.sum;
        for k in 0..con.terms.len() {
            let con = &self.cons[c];
            let (t, w) = con.terms[k];
            if w <= room {
                break;
            }
            if value(acts, t) != lbool::UNDEF {
                continue;
            }
            let reason = &mut self.reasons[t.var().idx() as usize];
            reason.clear();
            reason.extend(con.guard);
            fill_reason(reason, con, acts, con.bound + 1 - w);
            if !acts.propagate(!t) {
                return false;
            }
        }
        true
    }
}

/// Appends true terms of `con`, heaviest first, until their weight reaches
/// `need`.
fn fill_reason(out: &mut Vec<Lit>, con: &AtMost, acts: &TheoryArg, need: u64) {
    let mut got = 0;
    for &(t, w) in &con.terms {
        if got >= need {
            break;
        }
        if value(acts, t) == lbool::TRUE {
            out.push(t);
            got += w;
        }
    }
    debug_assert!(got >= need, "the true terms make the reason");
}

fn value(acts: &TheoryArg, l: Lit) -> lbool {
    acts.value(l.var()) ^ !l.sign()
}

fn slot<T: Default>(v: &mut Vec<T>, i: usize) -> &mut T {
    if v.len() <= i {
        v.resize_with(i + 1, T::default);
    }
    &mut v[i]
}

impl Theory for PbTheory {
    fn final_check(&mut self, acts: &mut TheoryArg) {
        self.catch_up(acts);
    }

    fn partial_check(&mut self, acts: &mut TheoryArg) {
        self.catch_up(acts);
    }

    fn create_level(&mut self) {
        self.marks.push(self.trail.len());
    }

    fn pop_levels(&mut self, n: usize) {
        let keep = self.marks.len() - n;
        let target = self.marks[keep];
        self.marks.truncate(keep);
        while self.trail.len() > target {
            let l = self.trail.pop().expect("longer than the target");
            if let Some(occ) = self.terms_of.get(l.idx() as usize) {
                for &(c, w) in occ {
                    self.cons[c as usize].sum -= w;
                }
            }
        }
    }

    fn n_levels(&self) -> usize {
        self.marks.len()
    }

    fn explain_propagation(&mut self, p: Lit) -> &[Lit] {
        &self.reasons[p.var().idx() as usize]
    }
}

#[cfg(test)]
#[path = "pb_tests.rs"]
mod tests;
