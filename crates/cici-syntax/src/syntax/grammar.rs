//! The pest grammar (`grammar/cici.pest`) and its rules: what the parser,
//! the error recovery and the formatter read text with.

use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../../../grammar/cici.pest"]
pub(super) struct CiciParser;
