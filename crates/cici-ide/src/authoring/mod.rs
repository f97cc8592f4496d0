//! Authoring aids beside the pipeline: what helps a person write a seed.
//!
//! - [`fixit`]: verified fixes for diagnostics (`cici check --fix`, code
//!   actions);
//! - [`explain`]: why an attribute has its class, in words;
//! - `lsp` (with the `lsp` feature, which the command line turns on): the
//!   language server, which uses both,
//!   and the formatter (`syntax::format`, which stays with the parser it
//!   reads).

pub mod explain;
pub mod fixit;
#[cfg(feature = "lsp")]
pub mod lsp;
