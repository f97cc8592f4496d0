//! Human review of a counterfactual dataset folder: `cici review DIR`.
//!
//! - `ledger`: the verdicts in `review.jsonl`, each tied to a row's id and
//!   a hash of its content, and which rows they reject;
//! - `agreement`: counts, acceptance and Cohen's κ, for the dataset card;
//! - `baselines`: shortcut readers that answer an item from its text alone;
//! - `data`: the folder's rows as the page shows them, word diffs made here;
//! - `page`: the self-contained page;
//! - `serve`: the loopback server that takes the verdicts.

pub mod agreement;
pub mod baselines;
pub mod data;
pub mod ledger;
pub mod page;
pub mod serve;
