//! cici's editing layer (ARCHITECTURE.md, "Layers"), as a crate of its own
//! so that cargo refuses any import of a later layer:
//!
//! 14. editing: [`authoring`]: verified fix-its, `explain`, and (with the
//!     `lsp` feature) the language server.
//!
//! The `cici` crate re-exports the module under its own name
//! (`cici::authoring`); that is the path to use it by.

// The lower crates' modules, by the names the code uses for them
// (`crate::sema`), as in the `cici` crate.
use cici_core::{analysis, model, phrasing, printer, sema};
use cici_emit::driver;
#[cfg(feature = "lsp")]
use cici_emit::render;
use cici_gen::planted;
use cici_syntax::{span, suggest, syntax};

pub mod authoring;
