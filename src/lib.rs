#![doc = include_str!("../ARCHITECTURE.md")]

// The grammar pest derives without its `std` feature names `::alloc`.
extern crate alloc;

pub mod agentcibench;
pub mod analysis;
pub mod authoring;
pub mod build;
pub mod cirl;
#[cfg(feature = "cli")]
pub mod cli;
pub mod counterfactual;
pub mod diff;
pub mod driver;
pub mod export;
pub mod io;
#[cfg(feature = "llm")]
pub mod judge;
pub mod llm;
pub mod model;
pub mod phrasing;
pub mod pisas;
pub mod planted;
pub mod printer;
pub mod privacylens;
pub mod records;
pub mod render;
pub mod report;
pub mod review;
pub mod rl;
pub mod sema;
pub mod solver;
pub mod span;
pub mod stats;
pub mod suggest;
pub mod syntax;
pub mod verdicts;

pub use analysis::analyse;
pub use build::plan as build;
pub use counterfactual::triplets as counterfactual;
pub use export::export;
pub use model::lower;
pub use pisas::import::pisas_seed as import;
pub use render::render;
pub use sema::resolve;
pub use syntax::parse;
