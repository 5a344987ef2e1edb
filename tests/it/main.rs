//! The one integration-test binary.
mod harness;
