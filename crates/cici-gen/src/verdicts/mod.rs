//! A person's verdicts on the rows of a counterfactual dataset folder,
//! below both the dataset writer, whose card counts them and which leaves
//! out the rows they reject, and `cici review`, which takes them.
//!
//! - `ledger`: the verdicts in `review.jsonl`, each tied to a row's id and
//!   a hash of its content, and which rows they reject;
//! - `agreement`: counts, acceptance and Cohen's κ, for the dataset card.

pub mod agreement;
pub mod ledger;
