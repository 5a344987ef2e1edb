//! The one integration-test binary.
mod export;
mod harness;
mod model_description;
mod package;
mod runtime;
mod syntax;
