//! The counterfactual pipeline's base: the vocabulary and the records
//! every later stage speaks, and owns none of them.
//!
//! In: nothing. Out: edits, candidates and flows, the critic's checks and
//! the reasons a candidate is turned down (`vocab`), how a text words a
//! fact (`wording`), the triplet's records (`records`), a run's knobs
//! (`config`), the count of its rejections (`rejections`), and what a
//! language model is shown of a scenario (`prompt`).

pub mod config;
pub mod prompt;
pub mod records;
pub mod rejections;
pub mod vocab;
pub mod wording;
