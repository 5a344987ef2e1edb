//! The FMU's description: the variable table and `modelDescription.xml`.

pub mod build;
pub mod compiled;
pub mod dependencies;
pub mod expose;
pub mod files;
pub mod fmi3;
pub mod fmi3_arrays;
pub mod fmi_rules;
pub mod forwarding;
pub mod fusion;
pub mod locations;
pub mod model_description;
pub mod responses;
pub mod sources;
pub mod structural;
pub mod system;
pub mod system_image;
pub mod table;
