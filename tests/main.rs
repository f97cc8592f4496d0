//! The one integration test binary; see `it/` for the suites, and
//! `hostile/` for what a hostile or careless user, server or editor does.

pub(crate) mod hostile;
pub mod it;
