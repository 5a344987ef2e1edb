//! The `mofmu` command line: check, export, simulate, sweep.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use mofmu::diagnostic::Diagnostic;
use mofmu::export::{
    export_model_options, model_units, unit_verdicts, ExportError, ExportOptions, FmiVersion,
};
use mofmu::fmu::expose::Expose;
use mofmu::fmu::table::Interfaces;
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::{check_library_with, load_library, Library};
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};

mod watch;

#[derive(Parser)]
#[command(
    name = "mofmu",
    version,
    about = "Compile strict-methodology Modelica libraries into FMI 2.0 FMUs (Model Exchange and Co-Simulation)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum MessageFormat {
    /// The source line, a label, the help line and any suggestion (stderr).
    Human,
    /// One line per diagnostic, `path:line:col: error[CODE]: message` (stdout).
    Short,
    /// One JSON object per line with the spans, help and machine-applicable
    /// suggestions, for editors (stdout).
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Platform {
    /// Linux x86-64 (always built).
    Linux64,
    /// Windows x86-64, cross-compiled with MinGW-w64.
    Win64,
}

/// The FMI interfaces an exported FMU declares.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ExportInterface {
    /// Model Exchange only.
    Me,
    /// Co-Simulation only.
    Cs,
    /// Both (one binary serves both).
    Both,
}

/// The variables an exported FMU's description lists.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ExportExpose {
    /// Every variable.
    All,
    /// Inputs, outputs, parameters, states and their derivatives.
    Interface,
    /// States and their derivatives, inputs and outputs.
    States,
}

/// The FMI standard of an exported FMU.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ExportFmiVersion {
    /// FMI 2.0.
    #[value(name = "2")]
    V2,
    /// FMI 3.0 (arrays; a parameter that sizes them becomes a structural parameter).
    #[value(name = "3")]
    V3,
}

/// How `cosim` moves an input between communication points.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum CosimExtrapolation {
    /// Zero-order hold: the output's value at the last communication point.
    Hold,
    /// First order: the output's value and derivative
    /// (fmi2GetRealOutputDerivatives -> fmi2SetRealInputDerivatives).
    Linear,
}

/// The FMI interface `simulate` drives.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum SimulateInterface {
    /// Model Exchange, integrated by mofmu's own solver.
    Me,
    /// Co-Simulation: fmi2DoStep at every output point.
    Cs,
}

#[derive(Subcommand)]
enum Command {
    /// Check libraries for compliance with the methodology.
    Check {
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
        /// Skip unit checking (to measure what it costs).
        #[arg(long, hide = true)]
        no_units: bool,
        /// Keep running: re-check whenever a file under PATH is saved and
        /// print what changed (new diagnostics, fixed ones, or "clean").
        #[arg(long, conflicts_with = "fix")]
        watch: bool,
        /// Apply the machine-applicable suggestions (check again, repeat)
        /// and print the changes as a unified diff; the files are left
        /// untouched unless --write is given. What cannot be fixed is
        /// reported with its explanation.
        #[arg(long)]
        fix: bool,
        /// With --fix: write the fixed files (each whole, through a
        /// temporary file renamed over it).
        #[arg(long, requires = "fix")]
        write: bool,
        /// .mo files or library directories (package.mo + package.order),
        /// loaded in the order given: load examples/Base.mo first.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Export a model as an FMI 2.0 FMU (Model Exchange and Co-Simulation).
    Export {
        /// .mo files or library directories (package.mo + package.order),
        /// loaded in the order given: load examples/Base.mo first.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Qualified name of the model, e.g. Thermal.Examples.RodHeating.
        #[arg(long)]
        model: String,
        /// Where to write the .fmu (not needed with --cross-check).
        #[arg(short = 'o', long, required_unless_present = "cross_check")]
        output: Option<PathBuf>,
        /// Override a parameter: --set rod.n=10000, --set clip=false, --set mode=Boost; one element: --set A[1,2]=0.5, --set cap[2].C=80 (repeatable).
        #[arg(long = "set", value_name = "INST.PARAM=VALUE")]
        sets: Vec<String>,
        /// Stop time written to the FMU's DefaultExperiment (default: the
        /// model's `experiment` annotation, else 1).
        #[arg(long, value_name = "T")]
        stop_time: Option<f64>,
        /// FMI interfaces declared in modelDescription.xml.
        #[arg(long, value_enum, default_value_t = ExportInterface::Both)]
        interface: ExportInterface,
        /// Variables listed in modelDescription.xml: `interface` and
        /// `states` leave internal variables out (value references and the
        /// binary unchanged), for smaller descriptions of large models.
        #[arg(long, value_enum, default_value_t = ExportExpose::All)]
        expose: ExportExpose,
        /// The FMI standard of the FMU: 2 (FMI 2.0) or 3 (FMI 3.0, the same
        /// runtime behind the fmi3 functions).
        #[arg(long, value_enum, default_value_t = ExportFmiVersion::V2)]
        fmi_version: ExportFmiVersion,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
        /// Binaries beside linux64 (always built): `win64` cross-compiles a
        /// Windows DLL with MinGW-w64 (repeatable; default: linux64 only).
        #[arg(long = "platform", value_enum)]
        platforms: Vec<Platform>,
        /// Also write an FMI Cross-Check directory: <Model>.fmu,
        /// <Model>_ref.csv, <Model>_ref.opt, <Model>_in.csv (when the model
        /// has inputs) and a README (default: none).
        #[arg(long, value_name = "DIR")]
        cross_check: Option<PathBuf>,
        /// The reference for --cross-check: a CSV computed independently of
        /// mofmu, whose columns name model variables. Without it the
        /// reference is mofmu's own simulation of the FMU (the README says so).
        #[arg(long, value_name = "FILE.csv", requires = "cross_check")]
        reference: Option<PathBuf>,
        /// Output interval of the cross-check reference (StepSize in
        /// <Model>_ref.opt); default: stop time / 500.
        #[arg(long, value_name = "H", requires = "cross_check")]
        output_interval: Option<f64>,
    },
    /// Couple the Co-Simulation sides of two or more FMUs through a
    /// connection file (TOML, docs/cosim.md) with a fixed communication
    /// step, and write the results as CSV. Exit 0 on success, 1 when the
    /// connection file has errors, 2 when a run fails.
    Cosim {
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
    },
    /// Compare a result with a reference inside csv-compare's tube; exit 0
    /// when every signal passes, 1 when one fails, 2 when an input cannot
    /// be read.
    Compare {
        /// The reference CSV (`;` or `,`, a time column `time`, `t` or `Time`).
        reference: PathBuf,
        /// The result CSV to check.
        result: PathBuf,
        /// Width of the tube relative to the time span (csv-compare's -t).
        #[arg(long, default_value_t = mofmu::compare::DEFAULT_TOLERANCE)]
        tolerance: f64,
        /// Compare only these signals (one name per line); default: every
        /// signal of the reference.
        #[arg(long, value_name = "FILE")]
        signals: Option<PathBuf>,
        /// Write summary.json, index.html and one SVG per signal here
        /// (default: no report).
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
        /// Write the JSON summary to this file (`-` for standard output;
        /// default: none).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
    },
    /// Print the unit of every variable of a model (declared, inferred or
    /// unknown), or without --model the unit verdict of every class.
    Units {
        /// .mo files or library directories, loaded in the order given.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Qualified name of the model, e.g. Thermal.Examples.RodHeating
        /// (default: the verdict of every class instead).
        #[arg(long)]
        model: Option<String>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
    },
    /// Simulate one FMU once per case of a grid or a table of start values,
    /// on worker threads, into a Parquet dataset (docs/sweep.md): DIR/summary.parquet
    /// and DIR/trajectories/case=<id>/part-0.parquet. Re-running resumes. Exit 0
    /// when every case ran (failed cases are rows with their status), 1 when the
    /// cases or outputs are wrong, 2 when the sweep cannot run.
    Sweep {
        /// The FMI 2.0 FMU to simulate.
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
        /// Start time (default: the FMU's DefaultExperiment StartTime, else 0).
        #[arg(long, value_name = "T0")]
        start_time: Option<f64>,
        /// Stop time (default: the FMU's DefaultExperiment StopTime, else 1).
        #[arg(long, value_name = "T")]
        stop_time: Option<f64>,
        /// Time between output rows (default: the DefaultExperiment's
        /// StepSize, else (stop - start) / 500).
        #[arg(long, value_name = "H")]
        output_interval: Option<f64>,
        /// Relative tolerance of the integrator (default: the
        /// DefaultExperiment's Tolerance, else 1e-6).
        #[arg(long, value_name = "RTOL")]
        tolerance: Option<f64>,
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
    },
    /// Load an FMU through its shared library and simulate it. Option names
    /// follow fmusim where they mean the same.
    Simulate {
        /// The FMI 2.0 FMU to load (any tool's, not only mofmu's).
        fmu: PathBuf,
        /// Start time (default: the FMU's DefaultExperiment StartTime, else 0).
        #[arg(long, value_name = "T0")]
        start_time: Option<f64>,
        /// Stop time (default: the FMU's DefaultExperiment StopTime, else 1,
        /// or start + 1 for a start from 1 on).
        #[arg(long, value_name = "T")]
        stop_time: Option<f64>,
        /// Time between output rows (default: the DefaultExperiment's
        /// StepSize, else (stop - start) / 500).
        #[arg(long, value_name = "H")]
        output_interval: Option<f64>,
        /// Relative tolerance of the integrator (default: the
        /// DefaultExperiment's Tolerance, else 1e-6).
        #[arg(long, value_name = "RTOL")]
        tolerance: Option<f64>,
        /// Where to write the CSV (default: next to the FMU, .csv).
        #[arg(short = 'o', long, visible_alias = "output-file")]
        output: Option<PathBuf>,
        /// Variables to record, as columns in the order given
        /// (comma-separated flat names; a comma inside brackets, as in
        /// `cap[1,2].T`, is part of the name; default: every state and
        /// output).
        #[arg(long = "variables", value_name = "A,B,...")]
        variables: Vec<String>,
        /// The interface to drive (default: Model Exchange when the FMU
        /// declares it, else Co-Simulation).
        #[arg(long, value_enum)]
        interface: Option<SimulateInterface>,
        /// Input signals: a CSV with a `time` column and one column per
        /// input (by name), interpolated linearly as FMPy does
        /// (`--input-file` is fmusim's name; default: inputs keep their
        /// start values).
        #[arg(long, visible_alias = "input-file", value_name = "FILE.csv")]
        input: Option<PathBuf>,
        /// One variable to record (repeatable; fmusim's name, and names
        /// with commas such as `x[1,2]` need no escaping).
        #[arg(long = "output-variable", value_name = "NAME")]
        output_variables: Vec<String>,
        /// Set a start value before initialisation (repeatable):
        /// --start-value NAME VALUE.
        #[arg(long = "start-value", num_args = 2, value_names = ["NAME", "VALUE"])]
        start_values: Vec<String>,
        /// The integrator: `bdf` (the only one; diffsol's variable-order
        /// BDF on the FMU's sparse Jacobian). fmusim's `cvode` and `euler`
        /// are other programs and methods and are refused rather than
        /// silently replaced.
        #[arg(long, default_value = "bdf")]
        solver: String,
        /// Also plot every recorded variable over time (.svg or .png;
        /// default: no plot).
        #[arg(long, value_name = "FILE.svg|png")]
        plot: Option<PathBuf>,
        /// Also print the integrator's counters (steps, right-hand sides,
        /// Jacobians and their passes, LU factorizations, events): where a
        /// simulation's time goes, as number of evaluations times their cost.
        #[arg(long)]
        stats: bool,
    },
}

/// The compiler allocates many small nodes, names and tables: with
/// mimalloc `mofmu check` of the 10,000-line bench library takes 35 ms
/// instead of 59 ms, and an export of 10^6 volumes a little less time and
/// memory than with the system allocator (benches/check.rs, docs/benchmarks.md).
/// The library crate leaves the choice to whoever links it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            ExitCode::from(2)
        }
    }
}

/// Output piped into a program that stops reading (`mofmu units … | head`)
/// ends mofmu quietly, as it ends `cat` or `grep`, instead of a panic in
/// `println!`. Rust ignores SIGPIPE by default; this restores the default.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists;
    // it only resets one signal's disposition to the system default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The error and its causes, leaving out a cause whose text the message
/// before it already ends with (errors that quote their source).
fn error_chain(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

fn print_diagnostics(lib: &Library, diags: &[Diagnostic], format: MessageFormat) {
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

fn parse_set(s: &str) -> Result<SetValue> {
    let Some((path, value)) = s.split_once('=') else {
        bail!("--set {s}: expected INST.PARAM=VALUE");
    };
    let value = match SetLiteral::parse(value) {
        Ok(v) => v,
        Err(why) => bail!("--set {s}: {why}"),
    };
    Ok(SetValue {
        path: path.trim().to_string(),
        value,
    })
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Units {
            paths,
            model,
            message_format,
        } => units(&paths, model.as_deref(), message_format),
        Command::Check {
            message_format,
            paths,
            no_units,
            watch,
            fix,
            write,
        } => {
            if fix {
                return check_fix(&paths, !no_units, write, message_format);
            }
            if watch {
                let format = match message_format {
                    MessageFormat::Human => watch::Format::Human,
                    MessageFormat::Short => watch::Format::Short,
                    MessageFormat::Json => {
                        bail!("--watch prints diagnostics as `human` or `short`, not `json`")
                    }
                };
                return watch::watch(&paths, format, !no_units);
            }
            let lib = load_library(load_paths(&paths)?);
            let diags = check_library_with(&lib, !no_units);
            if diags.is_empty() {
                if message_format == MessageFormat::Human {
                    eprintln!(
                        "ok: {} classes checked, no diagnostics",
                        lib.tree.classes.len()
                    );
                }
                Ok(ExitCode::SUCCESS)
            } else {
                print_diagnostics(&lib, &diags, message_format);
                Ok(ExitCode::from(1))
            }
        }
        Command::Export {
            paths,
            model,
            output,
            sets,
            stop_time,
            interface,
            expose,
            fmi_version,
            message_format,
            cross_check,
            reference,
            output_interval,
            platforms,
        } => {
            let started = Instant::now();
            if cross_check.is_some() && matches!(fmi_version, ExportFmiVersion::V3) {
                // Refused before anything is written: the directory's layout
                // (fmus/2.0/...) and its reference run are FMI 2.0's.
                bail!(
                    "--cross-check writes an FMI 2.0 cross-check directory (its reference is \
                     simulated by mofmu's FMI 2.0 harness); export without --fmi-version 3"
                );
            }
            let sets: Vec<SetValue> = sets.iter().map(|s| parse_set(s)).collect::<Result<_>>()?;
            let lib = load_library(load_paths(&paths)?);
            let interfaces = match interface {
                ExportInterface::Me => Interfaces::MODEL_EXCHANGE,
                ExportInterface::Cs => Interfaces::CO_SIMULATION,
                ExportInterface::Both => Interfaces::BOTH,
            };
            let options = ExportOptions {
                interfaces,
                expose: match expose {
                    ExportExpose::All => Expose::All,
                    ExportExpose::Interface => Expose::Interface,
                    ExportExpose::States => Expose::States,
                },
                fmi_version: match fmi_version {
                    ExportFmiVersion::V2 => FmiVersion::Fmi2,
                    ExportFmiVersion::V3 => FmiVersion::Fmi3,
                },
            };
            let mut out = match export_model_options(&lib, &model, &sets, stop_time, options) {
                Ok(o) => o,
                Err(ExportError::Diagnostics(d)) => {
                    print_diagnostics(&lib, &d, message_format);
                    return Ok(ExitCode::from(1));
                }
                Err(e @ ExportError::UnknownModel(_)) => {
                    eprintln!(
                        "error: {e}{}",
                        mofmu::export::did_you_mean_model(&lib, &model)
                    );
                    return Ok(ExitCode::from(1));
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
            };
            let cache = ObjectCache::from_env()
                .context("locating the kernel cache (set MOFMU_CACHE_DIR to choose it)")?;
            let output = match (&output, &cross_check) {
                (Some(path), _) => path.clone(),
                (None, Some(dir)) => {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating {}", dir.display()))?;
                    dir.join(format!("{}.fmu", out.model_identifier))
                }
                (None, None) => bail!("--output or --cross-check is required"),
            };
            let spec = out.take_build_spec();
            let mut report = build_fmu(&spec, &output, Some(&cache))?;
            if platforms.contains(&Platform::Win64) {
                report.fmu_bytes = mofmu::package::win64::add_win64_binary(&output, &spec)?;
            }
            println!(
                "exported {model} -> {} ({} bytes, {} variables, {} states, {} instances, {} classes; objects: {} compiled, {} from cache{}; {:.2} s)",
                output.display(),
                report.fmu_bytes,
                out.table.variables.len(),
                out.table.derivatives.len(),
                out.n_instances,
                out.kernels.len(),
                report.objects_compiled,
                report.objects_from_cache,
                if report.library_from_cache {
                    ", library from cache"
                } else {
                    ""
                },
                started.elapsed().as_secs_f64()
            );
            for note in &out.notes {
                println!("note: {note}");
            }
            if let Some(s) = &out.table.structural {
                println!(
                    "structural parameter: {} (set it in configuration mode; the arrays it sizes follow)",
                    out.table.variables[s.variable].name
                );
            }
            if let Some((all, written)) = out.description_bytes {
                println!(
                    "modelDescription.xml: {written} bytes, {} variables listed ({all} bytes with every variable: {:.1}% smaller)",
                    out.table.variables.len(),
                    100.0 * (1.0 - written as f64 / all.max(1) as f64)
                );
            }
            if let Some(dir) = cross_check {
                let written = mofmu::cross_check::write_directory(
                    &dir,
                    &output,
                    &out.table,
                    &mofmu::cross_check::Options {
                        reference: reference.clone(),
                        output_interval,
                    },
                )?;
                println!(
                    "cross-check directory {}: {}",
                    dir.display(),
                    written.join(", ")
                );
            }
            // The process ends here: freeing the variable table and the
            // library one allocation at a time would only delay the exit
            // (0.7 s of an export of 10^6 volumes), and the system takes
            // the memory back whole.
            std::mem::forget((out, spec, lib));
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate {
            fmu,
            start_time,
            stop_time,
            output_interval,
            tolerance,
            output,
            variables,
            output_variables,
            start_values,
            solver,
            plot,
            stats,
            interface,
            input,
        } => {
            let input = match input {
                Some(path) => Some(mofmu::harness::InputSignals::read(&path)?),
                None => None,
            };
            if solver != "bdf" {
                bail!(
                    "--solver {solver}: mofmu simulate integrates with one method, `bdf` \
                     (diffsol's variable-order BDF); it does not stand in for another"
                );
            }
            let mut variables = split_names(&variables);
            variables.extend(output_variables);
            let start_values = start_values
                .chunks(2)
                .map(|pair| {
                    let value: f64 = pair[1].trim().parse().with_context(|| {
                        format!("--start-value {} {}: not a number", pair[0], pair[1])
                    })?;
                    Ok((pair[0].clone(), value))
                })
                .collect::<Result<Vec<_>>>()?;
            let opts = mofmu::harness::SimOptions {
                start_time,
                stop_time,
                output_interval,
                relative_tolerance: tolerance,
                start_values,
                output: variables,
                interface: interface.map(|i| match i {
                    SimulateInterface::Me => mofmu::harness::Interface::ModelExchange,
                    SimulateInterface::Cs => mofmu::harness::Interface::CoSimulation,
                }),
                input,
            };
            // A progress bar on a terminal, nothing in a pipe or a log.
            let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let result = mofmu::harness::simulate_with_progress(&fmu, &opts, progress)?;
            let csv = output.unwrap_or_else(|| fmu.with_extension("csv"));
            result.write_csv(&csv)?;
            let last = result.rows.last().cloned().unwrap_or_default();
            println!(
                "simulated {} -> {} ({} rows, {} columns; t_end = {})",
                fmu.display(),
                csv.display(),
                result.rows.len(),
                result.names.len(),
                last.first().copied().unwrap_or(f64::NAN)
            );
            if stats {
                print_stats(&result.stats);
            }
            if let Some(plot) = plot {
                plot_result(&fmu, &result, &plot)?;
                println!("plotted -> {}", plot.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Sweep {
            fmu,
            grid,
            cases,
            start_time,
            stop_time,
            output_interval,
            tolerance,
            outputs,
            output,
            workers,
            interface,
            scheduler,
            batch_size: _,
            plot,
        } => {
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
                start_time,
                stop_time,
                output_interval,
                relative_tolerance: tolerance,
                interface: interface.map(|i| match i {
                    SimulateInterface::Me => mofmu::harness::Interface::ModelExchange,
                    SimulateInterface::Cs => mofmu::harness::Interface::CoSimulation,
                }),
                outputs: split_names(&outputs),
                dir: output,
                workers,
            };
            sweep(&fmu, &grid, cases.as_deref(), &opts, plot.as_deref())
        }
        Command::Cosim {
            file,
            start_time,
            stop_time,
            step,
            extrapolation,
            tolerance,
            output,
        } => {
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
        Command::Compare {
            reference,
            result,
            tolerance,
            signals,
            report,
            json,
        } => compare(&reference, &result, tolerance, signals, report, json),
    }
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

/// `mofmu check --fix [--write]`: the diff of what the suggestions change
/// (written with --write), then what is left. Exit 0 when the fixed
/// library is compliant, 1 otherwise.
fn check_fix(
    paths: &[PathBuf],
    check_units: bool,
    write: bool,
    format: MessageFormat,
) -> Result<ExitCode> {
    let fixed = mofmu::fix::fix(load_paths(paths)?, check_units);
    let mut changed = 0;
    for (name, before, after) in &fixed.files {
        if before == after {
            continue;
        }
        changed += 1;
        print!("{}", mofmu::fix::unified_diff(name, before, after));
        if write {
            mofmu::fix::write_atomically(std::path::Path::new(name), after.as_bytes())
                .with_context(|| format!("writing {name}"))?;
        }
    }
    let verb = if write { "applied" } else { "would apply" };
    eprintln!(
        "fix: {verb} {} edit{} in {changed} file{}{}",
        fixed.edits,
        if fixed.edits == 1 { "" } else { "s" },
        if changed == 1 { "" } else { "s" },
        if write || changed == 0 {
            ""
        } else {
            " (run with --write to apply)"
        }
    );
    if fixed.remaining.is_empty() {
        eprintln!(
            "ok: {} classes checked, no diagnostics{}",
            fixed.library.tree.classes.len(),
            if write || changed == 0 {
                ""
            } else {
                " after the fixes"
            }
        );
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("left after the fixes:");
        print_diagnostics(&fixed.library, &fixed.remaining, format);
        Ok(ExitCode::from(1))
    }
}

/// `mofmu units`: a table of the model's variables, or a verdict per class.
fn units(paths: &[PathBuf], model: Option<&str>, format: MessageFormat) -> Result<ExitCode> {
    let lib = load_library(load_paths(paths)?);
    let Some(model) = model else {
        let (verdicts, diags) = unit_verdicts(&lib);
        for v in &verdicts {
            if v.open.is_empty() {
                println!("{}: {}", v.class, v.verdict.describe());
            } else {
                println!(
                    "{}: {} (open: {})",
                    v.class,
                    v.verdict.describe(),
                    v.open.join(", ")
                );
            }
        }
        if diags.is_empty() {
            return Ok(ExitCode::SUCCESS);
        }
        print_diagnostics(&lib, &diags, format);
        return Ok(ExitCode::from(1));
    };
    let (units, diags) = match model_units(&lib, model) {
        Ok(x) => x,
        Err(ExportError::Diagnostics(d)) => {
            print_diagnostics(&lib, &d, format);
            return Ok(ExitCode::from(1));
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let width = units
        .variables
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    let unit_width = units
        .variables
        .iter()
        .map(|v| {
            v.unit
                .as_ref()
                .or(v.open_form.as_ref())
                .map_or(1, String::len)
        })
        .max()
        .unwrap_or(0);
    for v in &units.variables {
        println!(
            "{:width$}  {:unit_width$}  {}",
            v.name,
            v.unit.as_deref().or(v.open_form.as_deref()).unwrap_or("?"),
            v.origin.as_str()
        );
    }
    let open = units.open();
    if open.is_empty() {
        println!("{}: {}", units.qualified, units.verdict.describe());
    } else {
        println!(
            "{}: {} (open: {})",
            units.qualified,
            units.verdict.describe(),
            open.join(", ")
        );
    }
    if diags.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        print_diagnostics(&lib, &diags, format);
        Ok(ExitCode::from(1))
    }
}

/// `mofmu simulate --plot`: every recorded column over time.
/// `mofmu simulate --stats`: the integrator's counters, one line each.
fn print_stats(stats: &mofmu::harness::SimStats) {
    let i = &stats.integrator;
    println!(
        "steps: {} accepted, {} rejected",
        i.accepted_steps, i.rejected_steps
    );
    println!("right-hand sides: {}", i.rhs_evaluations);
    println!(
        "Jacobians: {} ({} directional passes, {} colours), LU factorizations: {}",
        i.jacobians, i.jacobian_passes, i.colours, i.lu_factorizations
    );
    println!(
        "events: {} time, {} state, {} step",
        stats.time_events, stats.state_events, stats.step_events
    );
}

fn plot_result(
    fmu: &std::path::Path,
    result: &mofmu::harness::SimResult,
    path: &std::path::Path,
) -> Result<()> {
    let time: Vec<f64> = result.rows.iter().map(|row| row[0]).collect();
    let names: Vec<String> = result.names.iter().skip(1).cloned().collect();
    let columns: Vec<Vec<f64>> = (1..result.names.len())
        .map(|i| result.rows.iter().map(|row| row[i]).collect())
        .collect();
    let title = fmu.file_stem().map_or_else(
        || fmu.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    mofmu::compare::plot::write_result_plot(path, &title, &time, &names, &columns)
        .with_context(|| format!("writing {}", path.display()))
}

/// `mofmu compare`: exit 0 when every signal passes, 1 when one fails, 2
/// when an input cannot be read or the report cannot be written.
fn compare(
    reference_path: &std::path::Path,
    result_path: &std::path::Path,
    tolerance: f64,
    signals: Option<PathBuf>,
    report: Option<PathBuf>,
    json: Option<PathBuf>,
) -> Result<ExitCode> {
    use mofmu::compare::{self, report as files};
    if !(tolerance > 0.0 && tolerance <= 1.0) {
        bail!("--tolerance {tolerance}: the tube width is relative to the time span, in (0, 1]");
    }
    let reference = files::read_table(reference_path)?;
    let result = files::read_table(result_path)?;
    let signals = signals.map(|p| files::read_signal_list(&p)).transpose()?;
    let reports = compare::compare(&reference, &result, signals.as_deref(), tolerance);
    let summary = compare::summarize(
        &reference_path.display().to_string(),
        &result_path.display().to_string(),
        tolerance,
        reports,
    );
    for s in &summary.signals {
        if s.passed {
            println!("pass  {} ({} points checked)", s.name, s.checked);
        } else if s.outliers > 0 {
            println!(
                "FAIL  {}: {} of {} points outside the tube, first at t = {}, largest violation {} at t = {}",
                s.name,
                s.outliers,
                s.checked,
                s.first_failure_time.unwrap_or(f64::NAN),
                s.largest_violation.map_or_else(|| "not a number".to_string(), |v| format!("{v:e}")),
                s.largest_violation_time.unwrap_or(f64::NAN),
            );
        } else {
            println!("FAIL  {}: {}", s.name, s.verdict.describe());
        }
    }
    println!(
        "compare: {} of {} signals passed (tolerance {})",
        summary.signals_passed,
        summary.signals.len(),
        tolerance
    );
    if let Some(dir) = &report {
        files::write_report(dir, &summary, &reference, &result)?;
        println!("report -> {}", dir.join("index.html").display());
    }
    match json.as_deref() {
        Some(p) if p == std::path::Path::new("-") => println!("{}", summary.to_json()),
        Some(p) => std::fs::write(p, summary.to_json())
            .with_context(|| format!("writing {}", p.display()))?,
        None => {}
    }
    Ok(if summary.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Comma-separated flat names, each list item split at the commas that are
/// not inside brackets: `a,cap[1,2].T` is `a` and `cap[1,2].T` (an element
/// of a two-dimensional array keeps its index).
fn split_names(lists: &[String]) -> Vec<String> {
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
