//! Stage 1: text to an owned, spanned syntax tree.
//!
//! In: the text of one seed file and its [`SourceId`]. Out: a [`File`] of
//! [`ScenarioAst`]s and every [`SyntaxError`] found. pest is an
//! implementation detail of this folder: neither its `Rule` nor its error
//! type leaves it.

pub mod ast;
mod condition;
mod error;
mod format;
mod grammar;
mod hints;
mod keywords;
pub mod lex;
mod parser;
mod recover;
mod strings;

pub use ast::*;
pub use error::SyntaxError;
pub use format::format;
pub use keywords::{keywords, statement_keywords, Block};
pub use parser::MAX_STATEMENT_ERRORS;
pub use recover::MAX_NESTING;

use crate::span::SourceId;

/// Parses one seed file. Scenarios that parse are returned even when others
/// in the same file do not; a scenario with a syntax error is returned in
/// [`File::partial`] with the statements that do parse, for the editor.
pub fn parse(source: SourceId, text: &str) -> (File, Vec<SyntaxError>) {
    parser::parse(source, text)
}
