//! Name resolution without look-ahead, and elaboration of single classes
//! into resolved class models.
//!
//! The steps, each reading only the files below it:
//! - scopes: the class tree as written and its lookup (`tree`), the
//!   functions packages inherit (`package_functions`), the specialisations
//!   redeclarations ask for (`specialise`), built in that order (`scopes`);
//! - elaborate: a class's elements (`elaborate`, `connector`, `modifier`),
//!   then what it writes (`names`), which resolves functions (`function`),
//!   constants (`constant`, `package_constants`, `constants`), connections
//!   (`connect`, `conditional`) and initial equations (`initial`);
//! - beside them, for the editor: the index of every declaration and every
//!   use of its name (`index`), which reads the syntax of each class once and
//!   looks names up through the tree, elaborating nothing.
//!
//! The shared types sit on a floor below the steps: operators and resolved
//! expressions with the function model (`expr`), declared causality and
//! variability (`prefixes`), connections as data (`connection`), the class
//! model (`model`), what a class body leaves pending (`pending`), the names
//! an expression may use (`scope`) and the elaborator's state
//! (`elaborator`). Children import siblings by path, never this file.

pub mod clocked;
pub mod conditional;
pub mod connect;
mod connection;
mod connector;
mod constant;
pub mod constants;
mod constructor;
pub mod elaborate;
mod elaborator;
pub mod events;
pub mod expr;
pub mod fingerprint;
pub mod function;
pub mod index;
mod initial;
pub mod model;
pub mod modifier;
mod names;
mod package_constants;
mod package_functions;
mod pending;
mod prefixes;
mod scope;
mod scopes;
mod specialise;
#[cfg(test)]
mod tests;
pub mod tree;

pub use elaborate::Elaborator;
pub use model::ClassModel;
pub use tree::{ClassId, ClassTree};
