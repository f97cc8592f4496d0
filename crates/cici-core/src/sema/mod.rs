//! Stage 2: resolve names, apply defaults, split forms, type facts.
//!
//! In: a [`ScenarioAst`](crate::syntax::ScenarioAst). Out: a [`Scenario`]
//! whose names are indices, whose labels and visibility sets follow the
//! defaults of the language reference, and whose facts are typed for the
//! family; or every [`ResolveError`] found in the block.

mod category;
mod cx;
mod error;
mod facts;
mod family;
pub mod norm;
mod oracle;
mod people;
mod predicate;
mod resolve;
mod roster;
mod scenario;
mod setting;
mod ticket;
pub mod visibility;

pub use cx::{MAX_NAME, MAX_QUANTITY};
pub use error::ResolveError;
pub use norm::{InfoKind, Norm, Recipient};
pub use predicate::{ArgValue, Bound, Param, PredicateKind, PredicateSpec, PREDICATES};
pub use resolve::resolve;
pub use scenario::*;
pub use ticket::{Priority, Seat, Ticket};
