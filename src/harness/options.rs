//! What to simulate: the options of one run and the interface it drives.

use super::input::InputSignals;

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
