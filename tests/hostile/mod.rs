//! Regressions for hostile or careless input: each test is a reproduction
//! that once deleted, printed, hung, crashed or gave a wrong verdict.

pub(crate) mod files;
mod import;
mod line_ends;
mod lsp;
mod outputs;
mod render;
mod server;
mod sweep;
