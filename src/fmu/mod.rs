//! The FMU, laid out along what it produces. Its two products are rooms of
//! their own: the description ([`description`]: the variable table and
//! `modelDescription.xml`) and the system image ([`image`]: the system file,
//! `resources/mofmu_system.bin` with the schedule, and what the runtime runs
//! of it). [`files`] lists what goes into one FMU (which `crate::package`
//! builds) and [`sources`] the names of its `sources/`.

pub mod description;
pub mod files;
pub mod image;
pub mod sources;
