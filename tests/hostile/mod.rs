//! Regressions for hostile or careless input: each test is a reproduction
//! that once deleted, printed, hung, crashed or gave a wrong verdict.

mod bounds;
mod exports;
pub(crate) mod files;
mod import;
mod judge_secrets;
mod line_ends;
mod lsp;
mod outputs;
mod pipes;
mod render;
mod scale;
mod server;
mod sweep;
