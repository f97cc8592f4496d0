//! cici's middle layers (ARCHITECTURE.md, "Layers"), as a crate of their
//! own so that cargo refuses any import of a later layer:
//!
//! 3. names: [`sema`]
//! 4. text: [`printer`], [`phrasing`]
//! 5. lowering: [`model`]
//! 6. solving: [`solver`]
//! 7. analyses: [`analysis`]
//!
//! The `cici` crate re-exports each module under its own name
//! (`cici::sema`, `cici::analysis`, ...); that is the path to use them by.

// The lower crate's modules, by the names the code uses for them
// (`crate::syntax`), as in the `cici` crate.
use cici_syntax::{span, suggest, syntax};
use cici_text::words;

pub mod analysis;
pub mod model;
pub mod phrasing;
pub mod printer;
pub mod sema;
pub mod solver;
