//! The one integration-test binary.
mod syntax;
