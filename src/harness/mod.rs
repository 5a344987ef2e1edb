//! Loads any FMI 2.0 FMU back through its shared library and simulates it through its
//! Model Exchange or its Co-Simulation interface, producing FMPy-style CSV results.
//!
//! The pieces, in the order a simulation uses them: [`unzip`] unpacks the archive
//! safely, [`model_description`] reads `modelDescription.xml`, [`fmi2`] loads the
//! library and wraps the C API (with the C logger shim built by `build.rs`),
//! [`integrator`] is the stiff ODE solver (diffsol's BDF on the FMU's sparse Jacobian),
//! [`simulate`](mod@simulate) runs the Model Exchange loop, [`cosim`] the Co-Simulation
//! loop, [`input`] reads input signals and `csv` writes the result. `mofmu cosim`
//! couples several FMUs: [`coupling`] reads and checks its connection file, `master`
//! runs the coupled steps.

pub mod cosim;
pub mod coupling;
mod csv;
pub mod error;
pub mod fmi2;
mod fmu;
pub mod input;
pub mod integrator;
mod master;
pub mod model_description;
mod progress;
pub mod simulate;
pub mod unzip;

use std::path::Path;

pub use coupling::{Coupling, CouplingError, Extrapolation, Overrides};
pub use error::HarnessError;
pub use fmi2::{EventInfo, Instance, LogMessage};
pub use fmu::Fmu;
pub use input::InputSignals;
pub use model_description::ModelDescription;
pub use simulate::{simulate, simulate_fmu, simulate_with_progress, SimStats};

/// What to simulate; every `None` falls back to the FMU's `DefaultExperiment`, then to
/// a built-in default (start 0, stop 1, 500 output intervals, relative tolerance 1e-6).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimOptions {
    pub start_time: Option<f64>,
    pub stop_time: Option<f64>,
    pub output_interval: Option<f64>,
    pub relative_tolerance: Option<f64>,
    /// Values set by variable name after instantiation, before initialisation.
    pub start_values: Vec<(String, f64)>,
    /// Variables to record besides time; empty means every state and output.
    pub output: Vec<String>,
    /// The interface to drive; `None` means Model Exchange when the FMU declares it.
    pub interface: Option<Interface>,
    /// Input signals, set at every evaluation (Model Exchange) or communication point
    /// (Co-Simulation).
    pub input: Option<InputSignals>,
}

/// An FMI 2.0 interface of an FMU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interface {
    ModelExchange,
    CoSimulation,
}

/// A simulation result: one row per output point (event instants appear twice, before
/// and after the event), columns `time` and then every state and output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimResult {
    /// Column names, `"time"` first.
    pub names: Vec<String>,
    pub rows: Vec<Vec<f64>>,
    pub stats: SimStats,
}

impl SimResult {
    /// Writes the result as CSV (header of double-quoted names, full-precision numbers).
    pub fn write_csv(&self, path: &Path) -> Result<(), HarnessError> {
        csv::write_csv(self, path)
    }

    /// The CSV text that [`SimResult::write_csv`] writes.
    pub fn to_csv(&self) -> String {
        csv::to_csv(self)
    }

    /// All values of one column, by name.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let index = self.names.iter().position(|n| n == name)?;
        Some(
            self.rows
                .iter()
                .map(|row| row.get(index).copied().unwrap_or(f64::NAN))
                .collect(),
        )
    }
}
