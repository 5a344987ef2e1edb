//! `mofmu sweep`: one FMU simulated once per case, into a Parquet dataset.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use super::common::{split_names, Experiment, SimulateInterface};

#[derive(Args)]
// A sweep's stop time has no `start + 1` default.
#[command(mut_arg("stop_time", |a| a.help(
    "Stop time (default: the FMU's DefaultExperiment StopTime, else 1)"
)))]
pub struct SweepArgs {
    /// The FMI 2.0 or 3.0 FMU to simulate (an FMI 3.0 structural parameter is a grid axis too).
    fmu: PathBuf,
    /// A grid axis NAME=a:b:n (n points from a to b inclusive) or
    /// NAME=v1,v2,... (repeatable: the cases are the cartesian product, the
    /// first axis varying slowest).
    #[arg(
        long,
        value_name = "NAME=SPEC",
        required_unless_present = "cases",
        conflicts_with = "cases"
    )]
    grid: Vec<String>,
    /// A table of cases, one row per case: a CSV file with a header of
    /// parameter names, or a .parquet file with a numeric column per parameter.
    #[arg(long, value_name = "CASES.csv|parquet")]
    cases: Option<PathBuf>,
    #[command(flatten)]
    experiment: Experiment,
    /// The variables to record in each trajectory; their final values go
    /// into the summary as final.<name> (comma-separated; a comma inside
    /// brackets, as in `cap[1,2].T`, is part of the name).
    #[arg(long, value_name = "A,B,...", required = true)]
    outputs: Vec<String>,
    /// The dataset folder.
    #[arg(short = 'o', long, value_name = "DIR")]
    output: PathBuf,
    /// Worker threads (default: the number of cores).
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// The interface to drive (default: Model Exchange when the FMU
    /// declares it, else Co-Simulation).
    #[arg(long, value_enum)]
    interface: Option<SimulateInterface>,
    /// Run the cases on this Dask cluster (tcp://HOST:PORT) instead of local
    /// threads: the run is handed to the Python package (`python3 -m mofmu
    /// sweep`, or $MOFMU_PYTHON), which needs dask.distributed; the dataset
    /// is the same.
    #[arg(long, value_name = "ADDR")]
    scheduler: Option<String>,
    /// Cases per Dask task (with --scheduler; default: about a quarter of
    /// the cases per worker, at most 64).
    #[arg(long, value_name = "N", requires = "scheduler")]
    batch_size: Option<usize>,
    /// After the sweep, draw every output over time for every case into this
    /// SVG or PNG file (one panel per output; a line per case coloured by the
    /// first varied parameter, or median and percentile bands beyond 100 cases).
    #[arg(long, value_name = "FILE.svg|png")]
    plot: Option<PathBuf>,
}

/// `mofmu sweep`, here or on a Dask cluster (`--scheduler`).
pub fn run(args: SweepArgs) -> Result<ExitCode> {
    let SweepArgs {
        fmu,
        grid,
        cases,
        experiment,
        outputs,
        output,
        workers,
        interface,
        scheduler,
        batch_size: _,
        plot,
    } = args;
    if let Some(file) = &plot {
        if let Err(e) = mofmu::sweep::check_plot_path(file) {
            eprintln!("error[{}]: {e}", e.code());
            return Ok(ExitCode::from(1));
        }
    }
    if scheduler.is_some() {
        return sweep_on_dask();
    }
    let opts = mofmu::sweep::SweepOptions {
        start_time: experiment.start_time,
        stop_time: experiment.stop_time,
        output_interval: experiment.output_interval,
        relative_tolerance: experiment.tolerance,
        interface: interface.map(Into::into),
        outputs: split_names(&outputs),
        dir: output,
        workers,
    };
    sweep(&fmu, &grid, cases.as_deref(), &opts, plot.as_deref())
}

/// `mofmu sweep --scheduler ADDR`: the Dask executor lives in the Python package, so
/// the command's own arguments go to `python3 -m mofmu sweep` (the same interface).
fn sweep_on_dask() -> Result<ExitCode> {
    let python = std::env::var_os("MOFMU_PYTHON").unwrap_or_else(|| "python3".into());
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .skip_while(|a| a.as_os_str() != "sweep")
        .collect();
    let status = std::process::Command::new(&python)
        .arg("-m")
        .arg("mofmu")
        .args(&args)
        .status()
        .with_context(|| {
            format!(
                "--scheduler: starting `{}` (set MOFMU_PYTHON to the Python that has the \
                 mofmu package: bash scripts/python-package PYTHON)",
                python.to_string_lossy()
            )
        })?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(2)),
        None => ExitCode::from(2),
    })
}

/// `mofmu sweep`: the cases, the run, one line of what it did. Errors in the
/// cases or outputs exit with 1, a sweep that cannot run with 2.
fn sweep(
    fmu: &std::path::Path,
    grid: &[String],
    cases: Option<&std::path::Path>,
    opts: &mofmu::sweep::SweepOptions,
    plot: Option<&std::path::Path>,
) -> Result<ExitCode> {
    use mofmu::sweep::{Cases, SweepError};
    let table = match cases {
        Some(path) => Cases::from_file(path),
        None => Cases::from_grids(grid),
    };
    let progress = std::io::stderr().is_terminal();
    let summary = match table.and_then(|table| mofmu::sweep::run_local(fmu, &table, opts, progress))
    {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("error[{}]: {e}", e.code());
            let input = !matches!(
                e,
                SweepError::Harness(_) | SweepError::Io { .. } | SweepError::Parquet(_)
            );
            return Ok(ExitCode::from(if input { 1 } else { 2 }));
        }
    };
    println!(
        "swept {} cases of {} -> {} ({} run, {} already done; {} failed)",
        summary.results.len(),
        fmu.display(),
        opts.dir.display(),
        summary.ran,
        summary.skipped,
        summary.failed()
    );
    if let Some(file) = plot {
        match mofmu::sweep::plot(&opts.dir, file) {
            Ok(report) => println!("{}", report.describe(file)),
            Err(e) => {
                eprintln!("error[{}]: {e}", e.code());
                return Ok(ExitCode::from(2));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
