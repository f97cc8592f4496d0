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
pub mod lex;
mod parser;
mod recover;
mod strings;

pub use ast::*;
pub use error::SyntaxError;
pub use format::format;
pub use recover::MAX_NESTING;

/// Every keyword of the language, in the grammar's order, read from the
/// grammar's `kw_*` rules: the one list the parser's messages, the language
/// server and the editor grammars' tests share.
pub fn keywords() -> &'static [&'static str] {
    static KEYWORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYWORDS.get_or_init(|| {
        include_str!("../../grammar/cici.pest")
            .lines()
            .filter_map(|l| l.strip_prefix("kw_"))
            .filter_map(|l| l.split(" = ").next())
            .collect()
    })
}

use crate::span::SourceId;

/// Parses one seed file. Scenarios that parse are returned even when others
/// in the same file do not.
pub fn parse(source: SourceId, text: &str) -> (File, Vec<SyntaxError>) {
    parser::parse(source, text)
}
