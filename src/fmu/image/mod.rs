//! The FMU's system image: what grows with the model, as data the runtime
//! reads, so that the compiled library depends on the model's classes only.
//! [`system`] writes the system file (the table of the classes' kernels) and
//! the image of the model; [`system_image`] is the format of
//! `resources/mofmu_system.bin` (variables, instances, the schedule rolled
//! into repeats) and its writer, [`fusion`] the skews of fused loops and
//! [`responses`] the steps a linear response's balance reaches.
//! [`compiled`] writes the rolled and fused schedule as C, with
//! [`forwarding`] the values its inlined loops hand on in locals.
//! [`locations`] writes `resources/mofmu_locations.txt` (where each class's
//! blocks come from, for run-time failures) and [`structural`] the FMI 3.0
//! template of the image at any size (`resources/mofmu_struct.bin`).

pub mod compiled;
pub mod forwarding;
pub mod fusion;
pub mod locations;
pub mod responses;
pub mod structural;
pub mod system;
pub mod system_image;
