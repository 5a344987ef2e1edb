//! The one integration-test binary.
mod check;
mod compare;
mod dependencies;
mod directional;
mod export;
mod harness;
mod misuse;
mod model_description;
mod package;
mod robustness;
mod runtime;
mod syntax;
mod tearing;
mod units;
mod watch;
