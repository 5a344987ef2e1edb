//! The FMU, laid out along what it produces. Its description is a room of
//! its own ([`description`]: the variable table and `modelDescription.xml`);
//! [`files`] lists what goes into one FMU (which `crate::package` builds)
//! and [`sources`] the names of its `sources/`.

pub mod compiled;
pub mod description;
pub mod files;
pub mod forwarding;
pub mod fusion;
pub mod locations;
pub mod responses;
pub mod sources;
pub mod structural;
pub mod system;
pub mod system_image;
