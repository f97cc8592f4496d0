//! The PiSAs release's formats, in one area: the bundle files as types
//! (`format`), the readers of task-family seeds and scenario bundles with
//! the import map (`import`), and the bundle writer (`export`). Reader and
//! writer share the types, so each key is spelled once.

pub mod export;
pub mod format;
pub mod import;
