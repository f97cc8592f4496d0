//! cici's two lowest layers (ARCHITECTURE.md, "Layers"), as a crate of
//! their own so that cargo refuses any import of a later layer:
//!
//! 1. base: [`suggest`], [`span`], [`diff`], [`io`], [`llm`]
//! 2. syntax: [`syntax`]
//!
//! The `cici` crate re-exports each module under its own name
//! (`cici::syntax`, `cici::span`, ...); that is the path to use them by.

// The grammar pest derives without its `std` feature names `::alloc`.
extern crate alloc;

pub mod diff;
pub mod io;
pub mod llm;
pub mod span;
pub mod suggest;
pub mod syntax;
