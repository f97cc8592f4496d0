//! The one integration test binary; see `it/` for the suites.

mod it;
