//! cici: a compiler for contextual-integrity benchmark scenarios.
//!
//! ```text
//!  .cici text ──parse──▶ AST (owned, spanned)                 syntax::parse
//!             ──resolve──▶ Scenario (names bound, defaults)    sema::resolve
//!             ──lower──▶ constraint Model (spans kept)         model::lower
//!             ──analyse──▶ Report (unique? classes, lints)     analysis::analyse
//! ```
//!
//! Every stage is a plain function from one value to the next, re-exported
//! here; [`driver::Run`] strings them together over files, and the command
//! line (`cli`, behind the default `cli` feature) is a thin layer over that.

pub mod analysis;
pub mod build;
#[cfg(feature = "cli")]
pub mod cli;
pub mod counterfactual;
pub mod driver;
pub mod export;
pub mod fixit;
pub mod import;
pub mod io;
pub mod llm;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod model;
pub mod planted;
pub mod printer;
pub mod render;
pub mod sema;
pub mod semantics;
pub mod solver;
pub mod span;
pub mod stats;
pub mod suggest;
pub mod syntax;

pub use analysis::analyse;
pub use model::lower;
pub use sema::resolve;
pub use syntax::parse;
