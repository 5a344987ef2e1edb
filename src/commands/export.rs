//! `mofmu export`: a model of the libraries as an FMU, with a line of what
//! it holds and the export's notes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};

use mofmu::export::{export_model_options, ExportError, ExportOptions, ExportOutput, FmiVersion};
use mofmu::fmu::description::expose::Expose;
use mofmu::fmu::description::table::Interfaces;
use mofmu::fmu::image::compiled::ScheduleTier;
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::load_library;
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu_with, BuildReport, Compiler, ObjectCache};

use super::common::{print_diagnostics, MessageFormat};

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Platform {
    /// Linux x86-64 (always built).
    Linux64,
    /// Windows x86-64, cross-compiled with MinGW-w64.
    Win64,
}

/// The FMI interfaces an exported FMU declares.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExportInterface {
    /// Model Exchange only.
    Me,
    /// Co-Simulation only.
    Cs,
    /// Both (one binary serves both).
    Both,
}

/// The variables an exported FMU's description lists.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExportExpose {
    /// Every variable.
    All,
    /// Inputs, outputs, parameters, states and their derivatives.
    Interface,
    /// States and their derivatives, inputs and outputs.
    States,
}

/// How an exported FMU runs its schedule.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExportSchedule {
    /// C loops over the class kernels, compiled with them (the default).
    Compiled,
    /// The runtime's interpreter over the schedule as data.
    Interpreted,
}

/// The FMI standard of an exported FMU.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum ExportFmiVersion {
    /// FMI 2.0.
    #[value(name = "2")]
    V2,
    /// FMI 3.0 (arrays; a parameter that sizes them becomes a structural parameter).
    #[value(name = "3")]
    V3,
}

#[derive(Args)]
pub struct ExportArgs {
    /// .mo files or library directories (package.mo + package.order),
    /// loaded in the order given; the methodology's Base is built in (loaded
    /// first when a file names `Base` and none declares it).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Qualified name of the model, e.g. Thermal.Examples.RodHeating.
    #[arg(long)]
    model: String,
    /// Where to write the .fmu (not needed with --cross-check or --list-parameters).
    #[arg(short = 'o', long, required_unless_present_any = ["cross_check", "list_parameters"])]
    output: Option<PathBuf>,
    /// List the names --set can give a value to (the model's parameters,
    /// and its states, whose start value it sets) and exit without
    /// exporting.
    #[arg(long)]
    list_parameters: bool,
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
    /// How the FMU runs its schedule: `compiled` (C loops over the class
    /// kernels, compiled with them; a schedule whose instances do not
    /// roll up into repeats stays interpreted, and the summary says why)
    /// or `interpreted` (the runtime walks the schedule as data). Both
    /// give the same results to the last bit.
    #[arg(long, value_enum, default_value_t = ExportSchedule::Compiled)]
    schedule: ExportSchedule,
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
}

/// `mofmu export`: exit 0 when the FMU is written, 1 when the model has
/// diagnostics or is not a model of the libraries.
pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let ExportArgs {
        paths,
        model,
        output,
        sets,
        stop_time,
        interface,
        expose,
        fmi_version,
        schedule,
        message_format,
        cross_check,
        reference,
        output_interval,
        platforms,
        list_parameters,
    } = args;
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
    if list_parameters {
        return list_settable(&lib, &model, message_format);
    }
    // The C compiler is found (and asked its version) while the model is
    // exported: a tenth of a second the export does not wait for.
    let compiler = std::thread::spawn(Compiler::detect);
    let options = export_options(interface, expose, fmi_version, schedule);
    let mut out = match export_model_options(&lib, &model, &sets, stop_time, options) {
        Ok(o) => o,
        Err(e) => return Ok(refuse(&lib, &model, e, message_format)),
    };
    let cache = ObjectCache::from_env()
        .context("locating the kernel cache (set MOFMU_CACHE_DIR to choose it)")?;
    let output = match (&output, &cross_check) {
        (Some(path), _) => path.clone(),
        (None, Some(dir)) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            dir.join(format!("{}.fmu", out.model_identifier))
        }
        (None, None) => bail!("--output or --cross-check is required"),
    };
    let spec = out.take_build_spec();
    let compiler = compiler
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let mut report = build_fmu_with(&compiler, &spec, &output, Some(&cache))?;
    if platforms.contains(&Platform::Win64) {
        report.fmu_bytes = mofmu::package::win64::add_win64_binary(&output, &spec)?;
    }
    print_summary(&model, &output, &out, &report, started);
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

/// The refusal of an export or a listing: diagnostics, or a model name
/// that names no model (with close names); exit 1.
fn refuse(
    lib: &mofmu::library::Library,
    model: &str,
    e: ExportError,
    message_format: MessageFormat,
) -> ExitCode {
    match e {
        ExportError::Diagnostics(d) => print_diagnostics(lib, &d, message_format),
        e @ ExportError::UnknownModel(_) => {
            eprintln!(
                "error: {e}{}",
                mofmu::export::did_you_mean_model(lib, model)
            );
        }
        e => eprintln!("error: {e}"),
    }
    ExitCode::from(1)
}

/// `mofmu export --list-parameters`: one line per name `--set` takes,
/// with what it is.
fn list_settable(
    lib: &mofmu::library::Library,
    model: &str,
    message_format: MessageFormat,
) -> Result<ExitCode> {
    let names = match mofmu::export::settable_parameters(lib, model) {
        Ok(names) => names,
        Err(e) => return Ok(refuse(lib, model, e, message_format)),
    };
    // Columns: name, value at export, unit, what it is, description.
    let value = |s: &mofmu::instantiate::Settable| s.value.clone().unwrap_or("(no value)".into());
    let unit = |s: &mofmu::instantiate::Settable| s.unit.clone().unwrap_or_default();
    let width = |f: &dyn Fn(&mofmu::instantiate::Settable) -> String| {
        names
            .iter()
            .map(|s| f(s).chars().count())
            .max()
            .unwrap_or(0)
    };
    let (nw, vw, uw) = (width(&|s| s.name.clone()), width(&value), width(&unit));
    for s in &names {
        let line = format!(
            "{:nw$}  {:vw$}  {:uw$}  {}{}",
            s.name,
            value(s),
            unit(s),
            s.what,
            s.description
                .as_deref()
                .map(|d| format!("  \"{d}\""))
                .unwrap_or_default()
        );
        println!("{}", line.trim_end());
    }
    if names.is_empty() {
        println!("{model} has no parameters or states to set");
    }
    Ok(ExitCode::SUCCESS)
}

/// The library's export options for the command's.
fn export_options(
    interface: ExportInterface,
    expose: ExportExpose,
    fmi_version: ExportFmiVersion,
    schedule: ExportSchedule,
) -> ExportOptions {
    let interfaces = match interface {
        ExportInterface::Me => Interfaces::MODEL_EXCHANGE,
        ExportInterface::Cs => Interfaces::CO_SIMULATION,
        ExportInterface::Both => Interfaces::BOTH,
    };
    ExportOptions {
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
        schedule: match schedule {
            ExportSchedule::Compiled => ScheduleTier::Compiled,
            ExportSchedule::Interpreted => ScheduleTier::Interpreted,
        },
    }
}

/// What the export wrote: a line of the FMU's size and contents and of the
/// compiler's cache, the export's notes, the structural parameter and the
/// description's size with `--expose`.
fn print_summary(
    model: &str,
    output: &Path,
    out: &ExportOutput,
    report: &BuildReport,
    started: Instant,
) {
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
    println!("schedule: {}", out.schedule.reason);
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
