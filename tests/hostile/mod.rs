//! Regressions for hostile or careless input: each test is a reproduction
//! that once deleted, printed, hung, crashed or gave a wrong verdict.

mod exports;
pub(crate) mod files;
mod import;
mod lsp;
mod outputs;
mod render;
mod server;
mod sweep;
