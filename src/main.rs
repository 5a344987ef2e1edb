//! The `mofmu` command line: check, export, simulate.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use mofmu::diagnostic::Diagnostic;
use mofmu::export::{
    check_library_with, export_model, load_library, model_units, unit_verdicts, ExportError,
    Library,
};
use mofmu::instantiate::SetValue;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, model::build_spec, ObjectCache};

mod watch;

#[derive(Parser)]
#[command(
    name = "mofmu",
    version,
    about = "Compile strict-methodology Modelica libraries into FMI 2.0 Model Exchange FMUs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum MessageFormat {
    Human,
    Short,
}

#[derive(Subcommand)]
enum Command {
    /// Check libraries for compliance with the methodology.
    Check {
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
        /// Skip unit checking (to measure what it costs).
        #[arg(long, hide = true)]
        no_units: bool,
        /// Keep running: re-check whenever a file under PATH is saved and
        /// print what changed (new diagnostics, fixed ones, or "clean").
        #[arg(long)]
        watch: bool,
        /// .mo files or library directories, loaded in the order given.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Export a model as an FMI 2.0 Model Exchange FMU.
    Export {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Qualified name of the model, e.g. Thermal.Examples.RodHeating.
        #[arg(long)]
        model: String,
        /// Where to write the .fmu.
        #[arg(short = 'o', long)]
        output: PathBuf,
        /// Override a parameter: --set rod.n=10000 (repeatable).
        #[arg(long = "set", value_name = "INST.PARAM=VALUE")]
        sets: Vec<String>,
        /// Stop time written to the FMU's DefaultExperiment.
        #[arg(long, default_value_t = 1.0)]
        stop_time: f64,
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
    },
    /// Print the unit of every variable of a model (declared, inferred or
    /// unknown), or without --model the unit verdict of every class.
    Units {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Qualified name of the model, e.g. Thermal.Examples.RodHeating.
        #[arg(long)]
        model: Option<String>,
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
    },
    /// Load an FMU through its shared library and simulate it.
    Simulate {
        fmu: PathBuf,
        #[arg(long)]
        stop_time: Option<f64>,
        #[arg(long)]
        output_interval: Option<f64>,
        /// Relative tolerance of the integrator.
        #[arg(long)]
        tolerance: Option<f64>,
        /// Where to write the CSV (default: next to the FMU, .csv).
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
        /// Variables to record (comma-separated flat names; default: every
        /// state and output).
        #[arg(long = "variables", value_delimiter = ',')]
        variables: Vec<String>,
    },
}

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
    let value: f64 = value
        .trim()
        .parse()
        .with_context(|| format!("--set {s}: `{value}` is not a number"))?;
    if !value.is_finite() {
        bail!("--set {s}: the value must be finite");
    }
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
        } => {
            if watch {
                let format = match message_format {
                    MessageFormat::Human => watch::Format::Human,
                    MessageFormat::Short => watch::Format::Short,
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
            message_format,
        } => {
            let started = Instant::now();
            let sets: Vec<SetValue> = sets.iter().map(|s| parse_set(s)).collect::<Result<_>>()?;
            let lib = load_library(load_paths(&paths)?);
            let out = match export_model(&lib, &model, &sets, stop_time) {
                Ok(o) => o,
                Err(ExportError::Diagnostics(d)) => {
                    print_diagnostics(&lib, &d, message_format);
                    return Ok(ExitCode::from(1));
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(ExitCode::from(1));
                }
            };
            let cache = ObjectCache::from_env()
                .context("locating the kernel cache (set MOFMU_CACHE_DIR to choose it)")?;
            let report = build_fmu(&build_spec(&out), &output, Some(&cache))?;
            println!(
                "exported {model} -> {} ({} bytes, {} variables, {} states, {} instances, {} classes; objects: {} compiled, {} from cache; {:.2} s)",
                output.display(),
                report.fmu_bytes,
                out.table.variables.len(),
                out.table.derivatives.len(),
                out.n_instances,
                out.kernels.len(),
                report.objects_compiled,
                report.objects_from_cache,
                started.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate {
            fmu,
            stop_time,
            output_interval,
            tolerance,
            output,
            variables,
        } => {
            let opts = mofmu::harness::SimOptions {
                start_time: None,
                stop_time,
                output_interval,
                relative_tolerance: tolerance,
                start_values: Vec::new(),
                output: variables,
            };
            let result = mofmu::harness::simulate(&fmu, &opts)?;
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
            Ok(ExitCode::SUCCESS)
        }
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
