//! What a generator gives the loop: the next candidate, a proposal
//! refused before it was checked, or why there is none.
//!
//! In: the rejections of the side so far. Out: a `Proposal`.

use crate::counterfactual::base::records::Rejection;
use crate::counterfactual::base::vocab::Candidate;

/// What a generator offers for the next round.
pub enum Proposal {
    Candidate(Box<Candidate>),
    /// The proposal was refused before evaluation (a malformed reply, an
    /// edit naming something unknown).
    Rejected(Rejection),
    /// No more candidates.
    Done,
    /// The answer waits in a batch: the triplet is finished by a later run.
    Wait,
    /// Nothing more can be done this run; the model keeps the reason and
    /// the run reports it.
    Stop,
}

/// A source of candidates that may learn from the rejections so far.
pub trait Proposer {
    fn next(&mut self, rejected: &[Rejection]) -> Proposal;
}
