//! The critic stage: an evaluated candidate judged against its anchor, by
//! rules (`rules`) and, when one is configured, by a language model
//! (`llm`). It knows no generator: it sees what the check made of a
//! candidate, never how the candidate was found.
//!
//! In: the anchor, the variant the check compiled, its item and its edits.
//! Out: `Verdict`s; a variant is accepted only if every one is positive.

#[cfg(feature = "llm")]
pub mod llm;
#[cfg(not(feature = "llm"))]
#[path = "llm_off.rs"]
pub mod llm;
pub mod rules;
