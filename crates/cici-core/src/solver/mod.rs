//! Deciding constraint models: one small backend interface and an
//! incremental session over it.
//!
//! In: a [`Model`](crate::model::Model). Out: answers to "is there an
//! allowed decision with these facts in force (and these extra literals)?",
//! with a witness or an unsatisfiable core of facts. The session compiles
//! the model once; every analysis query is a call with assumptions.

mod bat;
mod count;
mod pb;

mod session;

pub use bat::BatsatBackend;
pub use count::{count, Count, Stop};
pub use session::{fixed_key, Outcome, Purpose, Session, SessionStats};

use crate::model::Lit;

/// What a SAT backend must offer. Literals are the model's; a backend
/// numbers its variables the same way.
pub trait Backend {
    /// Makes sure variables `0..n` exist.
    fn reserve(&mut self, n: u32);
    fn add_clause(&mut self, lits: &[Lit]);
    /// `Some(true)` satisfiable, `Some(false)` unsatisfiable under the
    /// assumptions, `None` when the deadline passed first.
    fn solve(&mut self, assumptions: &[Lit], deadline: Option<std::time::Instant>) -> Option<bool>;
    /// The value of a literal in the last model.
    fn value(&self, lit: Lit) -> bool;
    /// After an unsatisfiable answer: assumptions that suffice for it.
    fn failed_assumptions(&mut self) -> Vec<Lit>;
    /// Takes `guard => sum of weights of true terms <= bound` natively and
    /// returns its id; `None` when the backend wants it as clauses instead.
    fn at_most(&mut self, _terms: &[(Lit, u32)], _bound: u64, _guard: Option<Lit>) -> Option<u32> {
        None
    }
    /// Takes out a guarded constraint [`Backend::at_most`] took, between
    /// solves.
    fn remove_at_most(&mut self, _id: u32) {}
}
