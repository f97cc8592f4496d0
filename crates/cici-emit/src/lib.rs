//! cici's output layers (ARCHITECTURE.md, "Layers"), as a crate of their
//! own so that cargo refuses any import of a later layer:
//!
//! 8. runs: [`driver`], [`stats`]
//! 9. artifacts: [`records`], [`render`]
//! 10. exports: [`export`], [`pisas`], [`agentcibench`], [`cirl`],
//!     [`privacylens`]
//! 11. output tree: [`build`]
//!
//! The `cici` crate re-exports each module under its own name
//! (`cici::driver`, `cici::build`, ...); that is the path to use them by.

// The lower crates' modules, by the names the code uses for them
// (`crate::sema`), as in the `cici` crate.
use cici_core::{analysis, model, phrasing, printer, sema, solver};
use cici_syntax::{diff, io, llm, span, suggest, syntax};
use cici_text::words;

pub mod agentcibench;
pub mod build;
pub mod cirl;
pub mod driver;
pub mod export;
pub mod pisas;
pub mod privacylens;
pub mod records;
pub mod render;
pub mod stats;
