//! `mofmu export --cross-check DIR`: a directory in the layout of the FMI
//! Cross-Check, so that the exported FMU can be submitted and checked by
//! the tools that read that layout (FMPy's `fmpy.cross_check` among them).
//!
//! The directory holds `<Model>.fmu`; `<Model>_ref.csv`, the reference
//! result (comma-separated, a header of double-quoted names exactly as in
//! `modelDescription.xml`, `time` first, times non-decreasing);
//! `<Model>_ref.opt` (`StartTime`, `StopTime`, `StepSize`, `RelTol`, one
//! `name,value` per line); `<Model>_in.csv` when the model has inputs; and a
//! `README.md` that says where the reference came from. `<Model>` is the
//! model identifier.
//!
//! The reference is the CSV given with `--reference` (a result computed
//! independently of mofmu), cut to the experiment's time span, or else the
//! FMU simulated by mofmu's own harness, which the README then says is no
//! independent check.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::compare::report::{read_table, CompareError};
use crate::fmu::description::table::{Causality, ModelTable, VariableType};
use crate::harness::{simulate, HarnessError, SimOptions};

/// Output points of the reference when no output interval is given.
pub const DEFAULT_INTERVALS: f64 = 500.0;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// An independent reference CSV; without one the harness simulates.
    pub reference: Option<PathBuf>,
    /// `StepSize` and the reference's output interval.
    pub output_interval: Option<f64>,
}

#[derive(Debug, Error)]
pub enum CrossCheckError {
    #[error("cannot write {path}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("reading the reference: {0}")]
    Reference(#[from] CompareError),
    #[error("the reference column `{0}` is not a variable of the model")]
    UnknownVariable(String),
    #[error("the reference has fewer than two rows between {start} and {stop}")]
    ShortReference { start: f64, stop: f64 },
    #[error(
        "the output interval {0} must be positive and at most the stop time minus the start time"
    )]
    Interval(f64),
    #[error("simulating the FMU for the reference")]
    Simulate(#[source] HarnessError),
}

/// Writes the cross-check files next to (or copies) the FMU at `fmu` and
/// returns the names of the files written.
pub fn write_directory(
    dir: &Path,
    fmu: &Path,
    table: &ModelTable,
    options: &Options,
) -> Result<Vec<String>, CrossCheckError> {
    let write = |path: PathBuf, text: &[u8]| {
        fs::write(&path, text).map_err(|source| CrossCheckError::Write { path, source })
    };
    fs::create_dir_all(dir).map_err(|source| CrossCheckError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let model = &table.model_identifier;
    let mut written = Vec::new();

    let fmu_name = format!("{model}.fmu");
    let fmu_target = dir.join(&fmu_name);
    if !same_file(fmu, &fmu_target) {
        fs::copy(fmu, &fmu_target).map_err(|source| CrossCheckError::Write {
            path: fmu_target.clone(),
            source,
        })?;
    }
    written.push(fmu_name);

    let experiment = &table.default_experiment;
    let (start, stop) = (experiment.start_time, experiment.stop_time);
    let step = options
        .output_interval
        .unwrap_or((stop - start) / DEFAULT_INTERVALS);
    if !(step > 0.0 && step <= stop - start) {
        return Err(CrossCheckError::Interval(step));
    }
    let opt = format!(
        "StartTime,{start:?}\nStopTime,{stop:?}\nStepSize,{step:?}\nRelTol,{:?}\n",
        experiment.tolerance
    );
    write(dir.join(format!("{model}_ref.opt")), opt.as_bytes())?;
    written.push(format!("{model}_ref.opt"));

    let (reference_csv, origin) = match &options.reference {
        Some(path) => (
            independent_reference(path, table, start, stop)?,
            Origin::Independent(path.clone()),
        ),
        None => {
            let sim = SimOptions {
                start_time: Some(start),
                stop_time: Some(stop),
                output_interval: Some(step),
                relative_tolerance: Some(experiment.tolerance),
                ..SimOptions::default()
            };
            let result = simulate(fmu, &sim).map_err(CrossCheckError::Simulate)?;
            (result.to_csv(), Origin::Harness)
        }
    };
    write(
        dir.join(format!("{model}_ref.csv")),
        reference_csv.as_bytes(),
    )?;
    written.push(format!("{model}_ref.csv"));

    let inputs: Vec<(&str, f64)> = table
        .variables
        .iter()
        .filter(|v| v.causality == Causality::Input)
        .map(|v| {
            let start_value = match &v.ty {
                VariableType::Real { start } => start.unwrap_or(0.0),
                VariableType::Integer { start } | VariableType::Enumeration { start, .. } => {
                    start.unwrap_or(0) as f64
                }
                VariableType::Boolean { start } => f64::from(u8::from(start.unwrap_or(false))),
            };
            (v.name.as_str(), start_value)
        })
        .collect();
    if !inputs.is_empty() {
        let mut text = header(inputs.iter().map(|i| i.0));
        for t in [start, stop] {
            let row: Vec<f64> = std::iter::once(t)
                .chain(inputs.iter().map(|i| i.1))
                .collect();
            push_row(&mut text, &row);
        }
        write(dir.join(format!("{model}_in.csv")), text.as_bytes())?;
        written.push(format!("{model}_in.csv"));
    }

    let readme = readme(table, &origin, step, !inputs.is_empty());
    write(dir.join("README.md"), readme.as_bytes())?;
    written.push("README.md".to_string());
    Ok(written)
}

enum Origin {
    Independent(PathBuf),
    Harness,
}

/// The given reference in the Cross-Check's CSV rules: its columns must be
/// variables of the model; rows outside `[start, stop]` are left out.
fn independent_reference(
    path: &Path,
    table: &ModelTable,
    start: f64,
    stop: f64,
) -> Result<String, CrossCheckError> {
    let reference = read_table(path)?;
    for name in &reference.names {
        if !table.variables.iter().any(|v| &v.name == name) {
            return Err(CrossCheckError::UnknownVariable(name.clone()));
        }
    }
    let mut text = header(reference.names.iter().map(String::as_str));
    let mut rows = 0;
    for (i, &t) in reference.time.iter().enumerate() {
        if t < start || t > stop {
            continue;
        }
        let row: Vec<f64> = std::iter::once(t)
            .chain(reference.columns.iter().map(|c| c[i]))
            .collect();
        push_row(&mut text, &row);
        rows += 1;
    }
    if rows < 2 {
        return Err(CrossCheckError::ShortReference { start, stop });
    }
    Ok(text)
}

fn header<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut text = String::from("\"time\"");
    for name in names {
        let _ = write!(text, ",\"{}\"", name.replace('"', "\"\""));
    }
    text.push('\n');
    text
}

fn push_row(text: &mut String, row: &[f64]) {
    for (i, value) in row.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        // `{:?}` is the shortest text that reads back as the same f64.
        let _ = write!(text, "{value:?}");
    }
    text.push('\n');
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn readme(table: &ModelTable, origin: &Origin, step: f64, has_inputs: bool) -> String {
    let model = &table.model_identifier;
    let experiment = &table.default_experiment;
    let mut text = format!(
        "# {model}: FMI Cross-Check files\n\n\
         `{model}.fmu` is the Modelica model `{}` exported by {} as an FMI 2.0 Model Exchange FMU \
         (binaries for linux64; `sources/` holds all C code, listed in `<SourceFiles>`, so an \
         importer can rebuild the binary for its own platform).\n\n\
         | file | what it is |\n| --- | --- |\n\
         | `{model}_ref.opt` | StartTime {}, StopTime {}, StepSize {step}, RelTol {} |\n",
        table.model_name,
        table.generation_tool,
        experiment.start_time,
        experiment.stop_time,
        experiment.tolerance,
    );
    match origin {
        Origin::Independent(path) => {
            let source = path.file_name().map_or_else(
                || path.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            );
            let _ = writeln!(
                text,
                "| `{model}_ref.csv` | the reference, computed independently of mofmu (from `{source}`: \
                 the model's equations solved in closed form or by a separate numerical solver), \
                 restricted to the experiment's time span |"
            );
        }
        Origin::Harness => {
            let _ = writeln!(
                text,
                "| `{model}_ref.csv` | the reference, simulated by mofmu's own harness (BDF \
                 integrator, RelTol as above) from this FMU: no independent reference exists for this \
                 model, so this file shows what mofmu computes, not that it is right |"
            );
        }
    }
    if has_inputs {
        let _ = writeln!(
            text,
            "| `{model}_in.csv` | the inputs, held at their start values over the whole experiment |"
        );
    }
    text
}
