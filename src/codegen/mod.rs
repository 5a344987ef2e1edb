//! C code generation: class kernels, and the system file of one model.

pub mod function;
pub mod index;
pub mod kernel;
pub mod system;
