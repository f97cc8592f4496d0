//! cici's generation and dataset layers (ARCHITECTURE.md, "Layers"), as a
//! crate of their own so that cargo refuses any import of a later layer:
//!
//! 12. generation: [`planted`]
//! 13. datasets: [`verdicts`], `judge` (with the `llm` feature),
//!     [`counterfactual`], [`review`], [`rl`], [`report`]
//!
//! The `cici` crate re-exports each module under its own name
//! (`cici::counterfactual`, `cici::planted`, ...); that is the path to use
//! them by.

// The lower crates' modules, by the names the code uses for them
// (`crate::sema`), as in the `cici` crate.
use cici_core::{analysis, model, phrasing, printer, sema, solver};
use cici_emit::{driver, export, records, render};
use cici_syntax::{diff, io, llm, span, syntax};
use cici_text::words;

pub mod counterfactual;
#[cfg(feature = "llm")]
pub mod judge;
pub mod planted;
pub mod report;
pub mod review;
pub mod rl;
pub mod verdicts;
