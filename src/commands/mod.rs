//! The commands of the `mofmu` binary, one file each (as cargo's
//! `commands/`): its arguments and what it does. `common.rs` holds what
//! several share.

pub mod check;
pub mod common;
pub mod compare;
pub mod cosim;
pub mod export;
pub mod simulate;
pub mod sweep;
pub mod units;
