//! The model's implied constraints in a session, each behind a guard
//! literal that clauses force true while the facts the constraint follows
//! from are in force (and, for one of use only without some facts, one of
//! those is off). A constraint of that second kind is compiled only for
//! the queries it serves and taken out after, so that the others pay
//! nothing for it.
//!
//! Soundness of taking one out: where its guard is forced the constraint
//! holds of every solution anyway, and elsewhere a solution with the guard
//! false meets every clause, so it meets all that was learnt.

use super::{Backend, Lit, Session};

/// Where one deferred constraint is.
#[derive(Clone, Copy)]
enum State {
    Out,
    /// In the backend, by its id.
    In(u32),
    /// Compiled to clauses, which cannot be taken out.
    ForGood,
}

#[derive(Clone, Copy)]
struct Deferred {
    /// Index in the model's implied constraints.
    implied: usize,
    guard: Lit,
    state: State,
}

/// The deferred implied constraints of a session.
#[derive(Default)]
pub(super) struct Switched {
    deferred: Vec<Deferred>,
    /// By fact: the deferred constraints of use while it is off.
    without: Vec<Vec<usize>>,
    /// The deferred constraints in the backend now.
    compiled: Vec<usize>,
    scratch: Vec<usize>,
}

impl<B: Backend> Session<'_, B> {
    /// Compiles the implied constraints of use whatever else is off, and
    /// the guards of the others.
    pub(super) fn compile_implied(&mut self) {
        for (i, imp) in self.model.implied.iter().enumerate() {
            let guard = self.fresh();
            let mut forcing: Vec<Lit> = std::iter::once(guard)
                .chain(
                    imp.when
                        .iter()
                        .map(|&f| Lit::neg(self.model.facts[f].indicator)),
                )
                .collect();
            if imp.useful_without.is_empty() {
                self.backend.add_clause(&forcing);
                self.add(&imp.constraint, Some(guard));
                continue;
            }
            for &f in &imp.useful_without {
                forcing.push(Lit::pos(self.model.facts[f].indicator));
                self.backend.add_clause(&forcing);
                forcing.pop();
                if self.implied.without.len() <= f {
                    self.implied.without.resize(f + 1, Vec::new());
                }
                self.implied.without[f].push(self.implied.deferred.len());
            }
            self.implied.deferred.push(Deferred {
                implied: i,
                guard,
                state: State::Out,
            });
        }
    }

    /// Compiles the deferred constraints that the facts in force make hold
    /// and of use, and takes out those compiled for an earlier query only.
    pub(super) fn switch_implied(&mut self, in_force: &[bool]) {
        if self.implied.deferred.is_empty() {
            return;
        }
        let model = self.model;
        let mut wanted = std::mem::take(&mut self.implied.scratch);
        wanted.clear();
        for (f, _) in in_force.iter().enumerate().filter(|(_, &on)| !on) {
            for &d in self.implied.without.get(f).into_iter().flatten() {
                let imp = &model.implied[self.implied.deferred[d].implied];
                if imp.when.iter().all(|&w| in_force[w]) {
                    wanted.push(d);
                }
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        for i in 0..self.implied.compiled.len() {
            let d = self.implied.compiled[i];
            let state = self.implied.deferred[d].state;
            if let (State::In(id), Err(_)) = (state, wanted.binary_search(&d)) {
                self.backend.remove_at_most(id);
                self.implied.deferred[d].state = State::Out;
            }
        }
        self.implied.compiled.clear();
        for &d in &wanted {
            let Deferred {
                implied,
                guard,
                state,
            } = self.implied.deferred[d];
            let state = match state {
                State::Out => match self.add(&model.implied[implied].constraint, Some(guard)) {
                    Some(id) => State::In(id),
                    None => State::ForGood,
                },
                other => other,
            };
            self.implied.deferred[d].state = state;
            if let State::In(_) = state {
                self.implied.compiled.push(d);
            }
        }
        self.implied.scratch = wanted;
    }
}
