//! Datasets for reinforcement learning with verifiable rewards: a
//! `cici counterfactual` folder as prompt rows in the shapes verl, TRL and
//! OpenRLHF read, each with a ground truth the prover computed, and
//! preference pairs from flipped triplets.
//!
//! In: the rows of a counterfactual folder (`decision/*.jsonl`,
//! `flow/*.jsonl`). Out: `<split>.jsonl` per split, one prompt row per
//! side of each triplet (an anchor repeated from an earlier row is left
//! out), `dpo/<split>.jsonl` with `--dpo`, and `reward.py`, which names
//! the package's reward for the trainers that load one from a file. The
//! ground truth of a side is its label and, for decisions, the contract of
//! its seed proven again (`export::inspect::contract`): the forms the task
//! needs and the words that identify every form the norms keep from
//! someone.

mod read;
mod shape;
mod truth;

pub use read::{read, Dataset, RlError};
pub use shape::{files, Format, Options};
pub use truth::{ground_truths, Truth};
