//! `mofmu simulate`: an FMU loaded through its shared library and
//! simulated into a CSV (and a plot).

use std::path::{Path, PathBuf};

use mofmu::harness::ModelDescription;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use super::common::{split_names, Experiment, SimulateInterface};

#[derive(Args)]
pub struct SimulateArgs {
    /// The FMI 2.0 or 3.0 FMU to load (any tool's, not only mofmu's; a .mo file
    /// is exported first with `mofmu export`).
    fmu: PathBuf,
    /// List the FMU's variables (name, causality, variability, type) and
    /// exit without simulating.
    #[arg(long)]
    list_variables: bool,
    #[command(flatten)]
    experiment: Experiment,
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
    /// --start-value NAME VALUE or --start-value NAME=VALUE; a value may
    /// be negative (--start-value w -5).
    #[arg(
        long = "start-value",
        num_args = 1..=2,
        value_names = ["NAME", "VALUE"],
        allow_negative_numbers = true
    )]
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
}

/// `mofmu simulate`: the CSV of the recorded variables.
pub fn run(args: SimulateArgs) -> Result<ExitCode> {
    let SimulateArgs {
        fmu,
        experiment,
        output,
        variables,
        output_variables,
        start_values,
        solver,
        plot,
        stats,
        interface,
        input,
        list_variables,
    } = args;
    refuse_non_fmu(&fmu)?;
    let loaded = mofmu::harness::Fmu::load(&fmu)?;
    let model = loaded.model_description();
    if list_variables {
        print_variables(model);
        return Ok(ExitCode::SUCCESS);
    }
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
    for name in &variables {
        known_variable(&fmu, model, name, "--variables")?;
    }
    let start_values = start_values_of(&start_values)?;
    for (name, _) in &start_values {
        known_variable(&fmu, model, name, "--start-value")?;
    }
    let opts = mofmu::harness::SimOptions {
        start_time: experiment.start_time,
        stop_time: experiment.stop_time,
        output_interval: experiment.output_interval,
        relative_tolerance: experiment.tolerance,
        start_values,
        output: variables,
        interface: interface.map(Into::into),
        input,
    };
    // A progress bar on a terminal, nothing in a pipe or a log.
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let result = mofmu::harness::simulate_fmu_with_progress(&loaded, &opts, progress)?;
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

/// A file that is not an FMU (a .mo file, or anything that is not a zip
/// archive) is refused with the command that makes one.
fn refuse_non_fmu(path: &Path) -> Result<()> {
    let modelica = path.extension().is_some_and(|e| e == "mo");
    let mut magic = [0u8; 4];
    let zip = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .map(|()| &magic == b"PK\x03\x04")
        // An unreadable file is reported by the loader, with its cause.
        .unwrap_or(true);
    if modelica || !zip {
        let stem = path
            .file_stem()
            .map_or_else(|| "Model".into(), |s| s.to_string_lossy().into_owned());
        let what = if modelica {
            "a Modelica file"
        } else {
            "not a zip archive"
        };
        bail!(
            "`{}` is {what}, not an FMU; export it first: mofmu export examples/Base.mo {} \
             --model {stem} -o {stem}.fmu, then mofmu simulate {stem}.fmu",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

/// A variable name given on the command line names a variable of the
/// FMU, or is refused with the close names (or how to list them).
fn known_variable(fmu: &Path, model: &ModelDescription, name: &str, option: &str) -> Result<()> {
    if model.variable(name).is_some() {
        return Ok(());
    }
    let close = mofmu::names::close_names(name, model.variables.iter().map(|v| v.name.as_str()));
    let list = format!("mofmu simulate {} --list-variables", fmu.display());
    bail!(
        "{option} {name}: the FMU has no variable `{name}`{}",
        mofmu::names::close_names_hint(&close, &list)
    )
}

/// `mofmu simulate --list-variables`: one line per variable of the model
/// description: its name, causality, variability and type, and whether it
/// is a state.
fn print_variables(model: &ModelDescription) {
    let states = model.states().unwrap_or_default();
    let width = model
        .variables
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for (i, v) in model.variables.iter().enumerate() {
        let state = if states.contains(&i) { ", state" } else { "" };
        let what = format!("{:?} {:?} {:?}", v.causality, v.variability, v.kind);
        println!("{:width$}  {}{state}", v.name, what.to_lowercase());
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

/// The `--start-value` options' values, as clap gives them one after the
/// other: each is `NAME=VALUE` in one word or `NAME VALUE` in two (a name
/// holds no `=`, and a value none either).
fn start_values_of(words: &[String]) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name, value),
            None => match words.next() {
                Some(value) => (word.as_str(), value.as_str()),
                None => bail!(
                    "--start-value {word}: give it a value, `--start-value {word} VALUE` or \
                     `--start-value {word}=VALUE`"
                ),
            },
        };
        let number: f64 = value
            .trim()
            .parse()
            .with_context(|| format!("--start-value {name} {value}: not a number"))?;
        out.push((name.trim().to_string(), number));
    }
    Ok(out)
}
