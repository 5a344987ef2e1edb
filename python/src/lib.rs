//! `mofmu._native`: the compiled half of the Python package `mofmu`.
//!
//! Each function is a thin layer over the library API that the command line
//! uses (check, export, simulate), so a result from Python equals the result
//! of the same command. Values cross the boundary in plain shapes (strings,
//! numbers, bytes); the Python half (`mofmu/__init__.py`) turns them into
//! exceptions, dataclasses and numpy arrays. The GIL is released while the
//! compiler or a simulation runs, so Python threads can run cases side by
//! side on one loaded FMU.

use std::path::PathBuf;
use std::sync::Arc;

use mofmu::diagnostic::Diagnostic;
use mofmu::export::{did_you_mean_model, export_model_with, ExportError};
use mofmu::fmu::description::table::Interfaces;
use mofmu::harness::{Fmu, Interface, SimOptions};
use mofmu::instantiate::{SetLiteral, SetValue};
use mofmu::library::{check_library_with, load_library, Library};
use mofmu::loader::load_paths;
use mofmu::package::{build_fmu, ObjectCache};
use mofmu::sweep::{Cases, SweepError, SweepOptions};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

create_exception!(
    _native,
    MofmuError,
    PyException,
    "An error of mofmu that is not a diagnostic of the Modelica text."
);

fn error(e: impl std::fmt::Display) -> PyErr {
    MofmuError::new_err(e.to_string())
}

/// The library at `paths`; a file that cannot be read is an error.
fn library(paths: &[PathBuf]) -> PyResult<Library> {
    Ok(load_library(load_paths(paths).map_err(error)?))
}

/// Each diagnostic as the one-line JSON object of `--message-format json`.
fn json(lib: &Library, diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d.render_json(&lib.sources))
        .collect()
}

/// Checks the library at `paths`: the number of classes and the diagnostics.
#[pyfunction]
#[pyo3(signature = (paths, units = true))]
fn check(py: Python<'_>, paths: Vec<PathBuf>, units: bool) -> PyResult<(usize, Vec<String>)> {
    py.detach(|| {
        let lib = library(&paths)?;
        let diagnostics = check_library_with(&lib, units);
        Ok((lib.tree.classes.len(), json(&lib, &diagnostics)))
    })
}

/// What `export` reports: the figures the command line prints.
struct Exported {
    bytes: u64,
    variables: usize,
    states: usize,
    instances: usize,
    classes: usize,
    objects_compiled: usize,
    objects_from_cache: usize,
}

/// Exports `model` of the library at `paths` to the FMU `output`.
///
/// Returns `(report, diagnostics)`: a dict of figures when the FMU was
/// written, or `None` and the diagnostics that refused the model.
#[pyfunction]
#[pyo3(signature = (paths, model, output, sets, stop_time = None, interface = "both"))]
fn export<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    model: String,
    output: PathBuf,
    sets: Vec<(String, String)>,
    stop_time: Option<f64>,
    interface: &str,
) -> PyResult<(Option<Bound<'py, PyDict>>, Vec<String>)> {
    let interfaces = match interface {
        "me" => Interfaces::MODEL_EXCHANGE,
        "cs" => Interfaces::CO_SIMULATION,
        "both" => Interfaces::BOTH,
        other => {
            return Err(error(format!(
                "interface={other:?}: expected \"me\", \"cs\" or \"both\""
            )))
        }
    };
    let sets = sets
        .into_iter()
        .map(|(path, value)| match SetLiteral::parse(&value) {
            Ok(value) => Ok(SetValue { path, value }),
            Err(why) => Err(error(format!("set {path}={value}: {why}"))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let outcome = py.detach(|| -> PyResult<Result<Exported, Vec<String>>> {
        let lib = library(&paths)?;
        let mut out = match export_model_with(&lib, &model, &sets, stop_time, interfaces) {
            Ok(out) => out,
            Err(ExportError::Diagnostics(d)) => return Ok(Err(json(&lib, &d))),
            Err(e @ ExportError::UnknownModel(_)) => {
                return Err(error(format!("{e}{}", did_you_mean_model(&lib, &model))))
            }
            Err(e) => return Err(error(e)),
        };
        let cache = ObjectCache::from_env().map_err(error)?;
        let spec = out.take_build_spec();
        let report = build_fmu(&spec, &output, Some(&cache)).map_err(error)?;
        Ok(Ok(Exported {
            bytes: report.fmu_bytes,
            variables: out.table.variables.len(),
            states: out.table.derivatives.len(),
            instances: out.n_instances,
            classes: out.kernels.len(),
            objects_compiled: report.objects_compiled,
            objects_from_cache: report.objects_from_cache,
        }))
    })?;
    match outcome {
        Err(diagnostics) => Ok((None, diagnostics)),
        Ok(e) => {
            let d = PyDict::new(py);
            d.set_item("path", output.to_string_lossy().into_owned())?;
            d.set_item("bytes", e.bytes)?;
            d.set_item("variables", e.variables)?;
            d.set_item("states", e.states)?;
            d.set_item("instances", e.instances)?;
            d.set_item("classes", e.classes)?;
            d.set_item("objects_compiled", e.objects_compiled)?;
            d.set_item("objects_from_cache", e.objects_from_cache)?;
            Ok((Some(d), Vec::new()))
        }
    }
}

/// An FMU unpacked and loaded once; every `simulate` is a fresh instance.
#[pyclass(module = "mofmu._native", frozen)]
struct LoadedFmu {
    fmu: Arc<Fmu>,
    path: PathBuf,
}

#[pymethods]
impl LoadedFmu {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<LoadedFmu> {
        let fmu = py.detach(|| Fmu::load(&path)).map_err(error)?;
        Ok(LoadedFmu {
            fmu: Arc::new(fmu),
            path,
        })
    }

    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    #[getter]
    fn model_name(&self) -> String {
        self.fmu.model_description().model_name.clone()
    }

    /// Simulates a fresh instance; `(names, row-major float64 bytes, rows)`.
    #[pyo3(signature = (start_time, stop_time, output_interval, tolerance, start_values, outputs, interface))]
    #[allow(clippy::too_many_arguments)]
    fn simulate<'py>(
        &self,
        py: Python<'py>,
        start_time: Option<f64>,
        stop_time: Option<f64>,
        output_interval: Option<f64>,
        tolerance: Option<f64>,
        start_values: Vec<(String, f64)>,
        outputs: Vec<String>,
        interface: Option<&str>,
    ) -> PyResult<(Vec<String>, Bound<'py, PyBytes>, usize)> {
        let interface = interface_of(interface)?;
        let opts = SimOptions {
            start_time,
            stop_time,
            output_interval,
            relative_tolerance: tolerance,
            start_values,
            output: outputs,
            interface,
            input: None,
        };
        let fmu = Arc::clone(&self.fmu);
        let result = py
            .detach(move || mofmu::harness::simulate_fmu(&fmu, &opts))
            .map_err(error)?;
        let rows = result.rows.len();
        let mut bytes = Vec::with_capacity(rows * result.names.len() * 8);
        for row in &result.rows {
            for v in row {
                bytes.extend_from_slice(&v.to_ne_bytes());
            }
        }
        Ok((result.names, PyBytes::new(py, &bytes), rows))
    }
}

fn sweep_error(e: SweepError) -> PyErr {
    MofmuError::new_err(format!("{}: {e}", e.code()))
}

fn interface_of(interface: Option<&str>) -> PyResult<Option<Interface>> {
    match interface {
        None => Ok(None),
        Some("me") => Ok(Some(Interface::ModelExchange)),
        Some("cs") => Ok(Some(Interface::CoSimulation)),
        Some(other) => Err(error(format!(
            "interface={other:?}: expected \"me\" or \"cs\""
        ))),
    }
}

/// The case table of a sweep: from grids (`NAME=SPEC`) or a CSV or Parquet file.
#[pyfunction]
#[pyo3(signature = (grids, table = None))]
fn sweep_cases(
    grids: Vec<String>,
    table: Option<PathBuf>,
) -> PyResult<(Vec<String>, Vec<Vec<f64>>)> {
    let cases = match table {
        Some(path) => Cases::from_file(&path),
        None => Cases::from_grids(&grids),
    }
    .map_err(sweep_error)?;
    Ok((cases.names, cases.rows))
}

#[allow(clippy::too_many_arguments)]
fn sweep_options(
    outputs: Vec<String>,
    dir: PathBuf,
    start_time: Option<f64>,
    stop_time: Option<f64>,
    output_interval: Option<f64>,
    tolerance: Option<f64>,
    interface: Option<&str>,
    workers: Option<usize>,
) -> PyResult<SweepOptions> {
    Ok(SweepOptions {
        start_time,
        stop_time,
        output_interval,
        relative_tolerance: tolerance,
        interface: interface_of(interface)?,
        outputs,
        dir,
        workers,
    })
}

/// The cases of the table that the dataset `out` does not hold yet.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn sweep_pending(
    py: Python<'_>,
    fmu: PathBuf,
    names: Vec<String>,
    rows: Vec<Vec<f64>>,
    outputs: Vec<String>,
    out: PathBuf,
    start_time: Option<f64>,
    stop_time: Option<f64>,
    output_interval: Option<f64>,
    tolerance: Option<f64>,
    interface: Option<&str>,
) -> PyResult<Vec<usize>> {
    let opts = sweep_options(
        outputs,
        out,
        start_time,
        stop_time,
        output_interval,
        tolerance,
        interface,
        None,
    )?;
    let cases = Cases { names, rows };
    py.detach(|| mofmu::sweep::pending(&fmu, &cases, &opts))
        .map_err(sweep_error)
}

/// Runs the cases (`only`, or all) that the dataset `out` lacks on `workers` threads,
/// as `mofmu sweep` does; returns `ran`, `skipped` and `failed`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn sweep<'py>(
    py: Python<'py>,
    fmu: PathBuf,
    names: Vec<String>,
    rows: Vec<Vec<f64>>,
    outputs: Vec<String>,
    out: PathBuf,
    start_time: Option<f64>,
    stop_time: Option<f64>,
    output_interval: Option<f64>,
    tolerance: Option<f64>,
    interface: Option<&str>,
    workers: Option<usize>,
    only: Option<Vec<usize>>,
    progress: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = sweep_options(
        outputs,
        out,
        start_time,
        stop_time,
        output_interval,
        tolerance,
        interface,
        workers,
    )?;
    let cases = Cases { names, rows };
    let summary = py
        .detach(|| mofmu::sweep::run_selected(&fmu, &cases, &opts, only.as_deref(), progress))
        .map_err(sweep_error)?;
    let d = PyDict::new(py);
    d.set_item("ran", summary.ran)?;
    d.set_item("skipped", summary.skipped)?;
    d.set_item("failed", summary.failed())?;
    Ok(d)
}

/// Draws every output of every case of the dataset `out` into the SVG or PNG file `file`, as
/// `mofmu sweep --plot` does; returns what it drew.
#[pyfunction]
fn plot_sweep<'py>(py: Python<'py>, out: PathBuf, file: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let report = py
        .detach(|| mofmu::sweep::plot(&out, &file))
        .map_err(sweep_error)?;
    let d = PyDict::new(py);
    d.set_item("cases", report.cases)?;
    d.set_item("drawn", report.drawn)?;
    d.set_item(
        "style",
        match report.style {
            mofmu::sweep::PlotStyle::Lines => "lines",
            mofmu::sweep::PlotStyle::Bands => "bands",
        },
    )?;
    d.set_item("outputs", report.outputs)?;
    d.set_item("colour_by", report.colour_by)?;
    Ok(d)
}

/// Refuses a plot file name that is not `.svg` or `.png` (before a sweep runs).
#[pyfunction]
fn check_plot_path(file: PathBuf) -> PyResult<()> {
    mofmu::sweep::check_plot_path(&file).map_err(sweep_error)
}

#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MofmuError", m.py().get_type::<MofmuError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_cases, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_pending, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(plot_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(check_plot_path, m)?)?;
    m.add_class::<LoadedFmu>()?;
    Ok(())
}
