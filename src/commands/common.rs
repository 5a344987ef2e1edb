//! What several commands share: how diagnostics are printed, the
//! interface a simulation drives, lists of names.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use mofmu::diagnostic::Diagnostic;
use mofmu::library::Library;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MessageFormat {
    /// The source line, a label, the help line and any suggestion (stderr).
    Human,
    /// One line per diagnostic, `path:line:col: error[CODE]: message` (stdout).
    Short,
    /// One JSON object per line with the spans, help and machine-applicable
    /// suggestions, for editors (stdout).
    Json,
}

/// The FMI interface `simulate` drives.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum SimulateInterface {
    /// Model Exchange, integrated by mofmu's own solver.
    Me,
    /// Co-Simulation: fmi2DoStep at every output point.
    Cs,
}

/// The times and the tolerance of a simulation, each defaulting to the
/// FMU's DefaultExperiment (`simulate`, `sweep`).
#[derive(Args)]
pub struct Experiment {
    /// Start time (default: the FMU's DefaultExperiment StartTime, else 0).
    #[arg(long, value_name = "T0")]
    pub start_time: Option<f64>,
    /// Stop time (default: the FMU's DefaultExperiment StopTime, else 1,
    /// or start + 1 for a start from 1 on).
    #[arg(long, value_name = "T")]
    pub stop_time: Option<f64>,
    /// Time between output rows (default: the DefaultExperiment's
    /// StepSize, else (stop - start) / 500).
    #[arg(long, value_name = "H")]
    pub output_interval: Option<f64>,
    /// Relative tolerance of the integrator (default: the
    /// DefaultExperiment's Tolerance, else 1e-6).
    #[arg(long, value_name = "RTOL")]
    pub tolerance: Option<f64>,
}

impl From<SimulateInterface> for mofmu::harness::Interface {
    fn from(interface: SimulateInterface) -> Self {
        match interface {
            SimulateInterface::Me => mofmu::harness::Interface::ModelExchange,
            SimulateInterface::Cs => mofmu::harness::Interface::CoSimulation,
        }
    }
}

pub fn print_diagnostics(lib: &Library, diags: &[Diagnostic], format: MessageFormat) {
    let color = std::io::stderr().is_terminal();
    for d in diags {
        match format {
            MessageFormat::Short => println!("{}", d.render_short(&lib.sources)),
            MessageFormat::Json => println!("{}", d.render_json(&lib.sources)),
            MessageFormat::Human => eprint!("{}", d.render_human(&lib.sources, color)),
        }
    }
    if format == MessageFormat::Human {
        let n = diags.len();
        eprintln!("{n} error{}", if n == 1 { "" } else { "s" });
    }
}

/// Comma-separated flat names, each list item split at the commas that are
/// not inside brackets: `a,cap[1,2].T` is `a` and `cap[1,2].T` (an element
/// of a two-dimensional array keeps its index).
pub fn split_names(lists: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    for list in lists {
        let (mut depth, mut start) = (0i32, 0);
        for (i, ch) in list.char_indices() {
            match ch {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth <= 0 => {
                    names.push(list[start..i].to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        names.push(list[start..].to_string());
    }
    names
}
