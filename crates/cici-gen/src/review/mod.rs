//! Human review of a counterfactual dataset folder: `cici review DIR`.
//!
//! - `baselines`: shortcut readers that answer an item from its text alone;
//! - `data`: the folder's rows as the page shows them, word diffs made here;
//! - `page`: the self-contained page;
//! - `serve`: the loopback server that takes the verdicts.

pub mod baselines;
pub mod data;
pub mod page;
pub mod serve;
