//! C code generation per class: class kernels and user functions, each from
//! its class alone. The system file of a model is written by `crate::fmu`
//! from kernels generated here.

pub mod c_text;
pub mod events;
pub mod function;
pub mod index;
pub mod kernel;
