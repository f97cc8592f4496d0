//! cici's one tokenizer (ARCHITECTURE.md, "Layers"), a crate of the lowest
//! layer beside `cici-syntax`, so that every layer above reads text as the
//! same words:
//!
//! 1. base: [`words`], [`tokens`], and the memo that keeps what they cut
//!    (`memo`)
//!
//! The `cici` crate re-exports the module under its own name
//! (`cici::words`); that is the path to use it by.

mod memo;
pub mod tokens;
pub mod words;
