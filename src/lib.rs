//! cici: a compiler for contextual-integrity benchmark scenarios.
//!
//! ```text
//!  PiSAs seed / bundles ──import──▶ .cici text                 import::pisas_seed
//!  .cici text ──parse──▶ AST (owned, spanned)                 syntax::parse
//!             ──resolve──▶ Scenario (names bound, defaults)    sema::resolve
//!             ──lower──▶ constraint Model (spans kept)         model::lower
//!             ──analyse──▶ Report (unique? classes, lints)     analysis::analyse
//!  checked ──render──▶ briefs, tasks, knowledge files          render::render
//!          ──export──▶ JSON record, PiSAs bundle               export::export, export::pisas::bundle
//!          ──build──▶ a planned output tree, written safely     build::plan
//!          ──counterfactual──▶ triplets of evaluation items     counterfactual::triplets
//! ```
//!
//! Every stage is a plain function from one value to the next, re-exported
//! here; [`driver::Run`] strings parse to analyse together over files, and
//! the command line (`cli`, behind the default `cli` feature) is a thin
//! layer over that. Diagnostics stay typed ([`driver::Problem`]) until they
//! are printed. Authoring aids sit beside the pipeline in [`authoring`]:
//! verified fix-its, `explain`, and the language server (`lsp`, with the
//! command line); `printer` and `syntax::format` give canonical text.

pub mod analysis;
pub mod authoring;
pub mod build;
#[cfg(feature = "cli")]
pub mod cli;
pub mod counterfactual;
pub mod driver;
pub mod export;
pub mod import;
pub mod io;
#[cfg(feature = "llm")]
pub mod judge;
pub mod llm;
pub mod model;
pub mod planted;
pub mod printer;
pub mod render;
pub mod sema;
pub mod solver;
pub mod span;
pub mod stats;
pub mod suggest;
pub mod syntax;

pub use analysis::analyse;
pub use build::plan as build;
pub use counterfactual::triplets as counterfactual;
pub use export::export;
pub use import::pisas_seed as import;
pub use model::lower;
pub use render::render;
pub use sema::resolve;
pub use syntax::parse;
