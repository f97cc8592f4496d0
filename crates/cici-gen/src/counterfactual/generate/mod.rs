//! The generate stage: candidates proposed for one side of a triplet.
//! The symbolic generator (`mutate` and the operators beside it) builds
//! them from the anchor's scenario; the model generator (`llm`) asks a
//! language model for edits and applies them. Whether a candidate flips
//! or holds a label is not decided here: the check compiles it.
//!
//! In: the anchor's checked scenario (and, to repair one, a candidate's
//! compiled variant). Out: `Candidate`s, listed or offered one at a time
//! through a `Proposer`.

pub mod completed;
pub mod holds;
pub mod idle;
pub mod listed;
#[cfg(feature = "llm")]
pub mod llm;
#[cfg(not(feature = "llm"))]
#[path = "llm_off.rs"]
pub mod llm;
pub mod moved;
pub mod mutate;
pub mod neighbours;
pub mod norm_edits;
pub mod proposal;
pub mod reaim;
pub mod side;
