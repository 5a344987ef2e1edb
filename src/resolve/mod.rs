//! Name resolution without look-ahead, and elaboration of single classes.

pub mod elaborate;
pub mod fingerprint;
pub mod tree;

pub use elaborate::{ClassModel, Elaborator};
pub use tree::{ClassId, ClassTree};
