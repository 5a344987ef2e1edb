//! `mofmu cosim`: the Co-Simulation sides of FMUs coupled through a
//! connection file.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};

/// How `cosim` moves an input between communication points.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum CosimExtrapolation {
    /// Zero-order hold: the output's value at the last communication point.
    Hold,
    /// First order: the output's value and derivative
    /// (fmi2GetRealOutputDerivatives -> fmi2SetRealInputDerivatives).
    Linear,
}

#[derive(Args)]
pub struct CosimArgs {
    /// The connection file: `[[fmu]]` tables (name, path, parameters),
    /// `connections = ["a.y -> b.u", ...]` and the run's settings.
    file: PathBuf,
    /// Start time (default: the file's `start`, else the first FMU's
    /// DefaultExperiment StartTime, else 0).
    #[arg(long, value_name = "T0")]
    start_time: Option<f64>,
    /// Stop time (default: the file's `stop`, else the first FMU's
    /// DefaultExperiment StopTime, else start + 1).
    #[arg(long, value_name = "T")]
    stop_time: Option<f64>,
    /// The fixed communication step (default: the file's `step`, else
    /// (stop - start) / 500).
    #[arg(long, value_name = "H")]
    step: Option<f64>,
    /// How inputs move over a step (default: the file's
    /// `extrapolation`, else `hold`).
    #[arg(long, value_enum)]
    extrapolation: Option<CosimExtrapolation>,
    /// Relative tolerance passed to every FMU's fmi2SetupExperiment
    /// (default: the file's `tolerance`, else none: each FMU's own).
    #[arg(long, value_name = "RTOL")]
    tolerance: Option<f64>,
    /// Where to write the CSV (default: next to the connection file,
    /// .csv).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

/// `mofmu cosim`: exit 0 on success, 1 when the connection file has
/// errors.
pub fn run(args: CosimArgs) -> Result<ExitCode> {
    let CosimArgs {
        file,
        start_time,
        stop_time,
        step,
        extrapolation,
        tolerance,
        output,
    } = args;
    let overrides = mofmu::harness::Overrides {
        start: start_time,
        stop: stop_time,
        step,
        extrapolation: extrapolation.map(|e| match e {
            CosimExtrapolation::Hold => mofmu::harness::Extrapolation::Hold,
            CosimExtrapolation::Linear => mofmu::harness::Extrapolation::Linear,
        }),
        tolerance,
    };
    let coupling = match mofmu::harness::Coupling::load(&file, &overrides) {
        Ok(coupling) => coupling,
        Err(e) => {
            let color = std::io::stderr().is_terminal();
            for diagnostic in &e.diagnostics {
                eprint!("{}", diagnostic.render_human(&e.sources, color));
            }
            eprintln!(
                "error: {} error(s) in {}",
                e.diagnostics.len(),
                file.display()
            );
            return Ok(ExitCode::from(1));
        }
    };
    let result = coupling.run(std::io::stderr().is_terminal())?;
    let csv = output.unwrap_or_else(|| file.with_extension("csv"));
    result.write_csv(&csv)?;
    println!(
        "co-simulated {} FMUs of {} -> {} ({} rows, {} columns)",
        coupling.fmus.len(),
        file.display(),
        csv.display(),
        result.rows.len(),
        result.names.len()
    );
    Ok(ExitCode::SUCCESS)
}
