//! cici: a compiler for contextual-integrity benchmark scenarios.
//!
//! ```text
//!  .cici text ──parse──▶ AST (owned, spanned)                 syntax::parse
//!             ──resolve──▶ Scenario (names bound, defaults)    sema::resolve
//!             ──lower──▶ constraint Model (spans kept)         model::lower
//!             ──analyse──▶ Report (unique? classes, lints)     analysis::analyse
//! ```
//!
//! Every stage is a plain function from one value to the next; the command
//! line is a thin layer over them (see `main.rs`).

pub mod analysis;
#[cfg(feature = "cli")]
pub mod cli;
pub mod driver;
pub mod model;
pub mod planted;
pub mod printer;
pub mod sema;
pub mod semantics;
pub mod solver;
pub mod span;
pub mod suggest;
pub mod syntax;
