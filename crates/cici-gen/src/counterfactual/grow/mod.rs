//! The entry of the counterfactual pipeline: the loops that grow a seed's
//! triplets, calling every earlier stage. For each side a generator
//! proposes candidates, the check compiles and labels each, the critic
//! judges it, and the first accepted one is the side (`accept`); the
//! decision and flow triplets (`decision`, `flow`) say what each side
//! wants; `triplets` grows a seed's, and `run` every seed's into a folder.
//!
//! In: checked seeds, a `Config` and the templates. Out: `TripletRecord`s,
//! and the dataset folder the write stage makes of them.

mod accept;
mod decision;
mod flow;
mod record;
pub mod run;
pub mod triplets;
