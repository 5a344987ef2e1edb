//! The one integration-test binary.
mod runtime;
