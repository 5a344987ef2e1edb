//! Name resolution without look-ahead, and elaboration of single classes
//! into resolved class models.

pub mod conditional;
pub mod connect;
mod connector;
mod constant;
pub mod constants;
pub mod elaborate;
pub mod expr;
pub mod fingerprint;
pub mod function;
mod initial;
pub mod model;
pub mod modifier;
mod names;
mod package_constants;
mod package_functions;
mod specialise;
pub mod tree;

pub use elaborate::Elaborator;
pub use model::ClassModel;
pub use tree::{ClassId, ClassTree};
