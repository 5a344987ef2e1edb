//! mofmu: compile strict-methodology Modelica libraries, component by
//! component, into FMI 2.0 and FMI 3.0 FMUs (Model Exchange and
//! Co-Simulation in one binary).
//!
//! The compiler core (`syntax` → `resolve` → `causalize` → `codegen`, and
//! `instantiate` → `schedule` → `fmu`) is sans-I/O: text in, results and
//! diagnostics out. Which modules touch files, compilers and archives is
//! listed once, in ARCHITECTURE.md ("Who does I/O").

// Diagnostics are returned by value on the error path; boxing them would
// only add noise to every phase for a path that is cold by nature.
#![allow(clippy::result_large_err)]

pub mod causalize;
pub mod check;
pub mod classdb;
pub mod codegen;
pub mod compare;
pub mod cross_check;
pub mod diagnostic;
pub mod export;
pub mod fix;
pub mod fmu;
pub mod harness;
pub mod instantiate;
pub mod ir;
pub mod library;
pub mod loader;
pub mod lsp;
pub mod names;
pub mod operator;
pub mod package;
pub mod resolve;
pub mod schedule;
pub mod session;
pub mod source;
pub mod sweep;
pub mod syntax;
pub mod units;
