//! The one integration-test binary.
mod check;
mod export;
mod harness;
mod model_description;
mod package;
mod robustness;
mod runtime;
mod syntax;
mod tearing;
mod units;
mod watch;
