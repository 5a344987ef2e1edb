//! The one integration-test binary.
mod model_description;
mod package;
mod runtime;
mod syntax;
