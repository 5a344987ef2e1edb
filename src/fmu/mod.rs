//! The FMU's description: the variable table and `modelDescription.xml`.

pub mod table;
