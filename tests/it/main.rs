//! The one integration-test binary.
mod harness;
mod model_description;
mod package;
mod runtime;
mod syntax;
mod units;
