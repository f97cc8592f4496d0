#![doc = include_str!("../ARCHITECTURE.md")]

// The lower layers are crates of their own (ARCHITECTURE.md, "Layers");
// their modules keep their names here.
pub use cici_core::{analysis, model, phrasing, printer, sema, solver};
pub use cici_emit::{
    agentcibench, build, cirl, driver, export, pisas, privacylens, records, render, stats,
};
#[cfg(feature = "llm")]
pub use cici_gen::judge;
pub use cici_gen::{counterfactual, planted, report, review, rl, verdicts};
pub use cici_ide::authoring;
pub use cici_syntax::{diff, io, llm, span, suggest, syntax};
pub use cici_text::words;

#[cfg(feature = "cli")]
pub mod cli;

pub use analysis::analyse;
pub use build::plan as build;
pub use counterfactual::triplets as counterfactual;
pub use export::export;
pub use model::lower;
pub use pisas::import::pisas_seed as import;
pub use render::render;
pub use sema::resolve;
pub use syntax::parse;
