//! Loads any FMI 2.0 or 3.0 FMU back through its shared library and simulates it through
//! its Model Exchange or its Co-Simulation interface, producing FMPy-style CSV results.
//!
//! The pieces, in the order a simulation uses them: [`unzip`] unpacks the archive
//! safely, [`model_description`] reads `modelDescription.xml` (FMI 3.0's through
//! [`model_description3`], as a scalar view: an array's element is a variable),
//! [`fmi2`] and [`fmi3`] load the library and wrap the C API of their version (FMI
//! 2.0's variadic logger through the C shim built by `build.rs`), both behind one
//! [`FmiInstance`] that the loops call without knowing the version,
//! [`integrator`] is the stiff ODE solver (diffsol's BDF on the FMU's sparse Jacobian),
//! [`simulate`](mod@simulate) runs the Model Exchange loop, [`cosim`] the Co-Simulation
//! loop, [`input`] reads input signals and `csv` writes the result. Both loops stand
//! on the same floor: `options` and `result` (what goes in and what comes out),
//! `setup` (the settings after defaults and a freshly initialised instance),
//! `binding` (input signals bound to the instance) and `recorder` (the sampled
//! columns). `mofmu cosim` couples several FMUs: [`coupling`] reads and checks its
//! connection file, `master` runs the coupled steps.

mod binding;
pub mod cosim;
pub mod coupling;
mod csv;
pub mod error;
pub mod fmi2;
pub mod fmi3;
mod fmu;
pub mod input;
pub mod instance;
pub mod integrator;
mod master;
pub mod model_description;
pub mod model_description3;
mod options;
mod progress;
mod recorder;
mod result;
mod setup;
pub mod simulate;
pub mod unzip;

pub use coupling::{Coupling, CouplingError, Extrapolation, Overrides};
pub use error::HarnessError;
pub use fmi2::{EventInfo, Instance, LogMessage};
pub use fmu::Fmu;
pub use input::InputSignals;
pub use instance::{DynInstance, FmiInstance};
pub use model_description::ModelDescription;
pub use options::{Interface, SimOptions};
pub use result::{SimResult, SimStats};
pub use simulate::{simulate, simulate_fmu, simulate_fmu_with_progress, simulate_with_progress};
