//! Parameter sweeps: many simulations of one FMU, one per case of a table of start
//! values, with the results in a Parquet dataset (`mofmu sweep`, docs/sweep.md).
//!
//! The pieces: [`Cases`] (a grid or a CSV table, checked against the FMU's model
//! description before anything runs), [`run_local`] (worker threads, each with its own
//! unpacked and loaded copy of the FMU, a fresh instance per case through the same
//! code path as `mofmu simulate`), and `dataset` (the Parquet files, written
//! atomically, read back to resume).
//!
//! Why threads and not processes: the sweep is a library function that the Python
//! package calls inside the Python process, which has no `mofmu` executable to start
//! as workers. Each worker loads its own copy of the shared library (unpacked into
//! its own folder, so `dlopen` gives each a separate copy with its own globals), so
//! workers share nothing but the case counter; an FMI error, a solver failure, a
//! non-finite value or a panic of the harness is recorded as the case's status. A
//! case that crashes the whole process (a segmentation fault inside the FMU) ends the
//! sweep; every case finished before it is on disk, and re-running resumes.

mod cases;
mod dataset;
mod error;
mod outcome;
mod plot;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::harness::{simulate_fmu, Fmu, HarnessError, Interface, SimOptions, SimResult};

pub use cases::{validate_outputs, Cases};
use dataset::CaseRecord;
pub use error::SweepError;
pub use outcome::{CaseResult, Status, Summary};
pub use plot::{
    check_plot_path, figure, plot, Figure, Line, Panel, PlotReport, PlotStyle, MAX_LINES,
};

/// A sweep's settings besides its cases.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepOptions {
    pub start_time: Option<f64>,
    pub stop_time: Option<f64>,
    pub output_interval: Option<f64>,
    pub relative_tolerance: Option<f64>,
    pub interface: Option<Interface>,
    /// The variables recorded in each case's trajectory (and whose final values go into
    /// the summary).
    pub outputs: Vec<String>,
    /// The dataset folder.
    pub dir: PathBuf,
    /// Worker threads (default: the number of cores).
    pub workers: Option<usize>,
}

/// Runs every case of `cases` that the dataset in `opts.dir` does not hold yet, on
/// worker threads, and rewrites `summary.parquet` with every case. `progress` draws a
/// progress bar (done, failed, ETA) on standard error.
pub fn run_local(
    fmu: &Path,
    cases: &Cases,
    opts: &SweepOptions,
    progress: bool,
) -> Result<Summary, SweepError> {
    run_selected(fmu, cases, opts, None, progress)
}

/// The cases of `cases` that the dataset in `opts.dir` does not hold yet (with the same
/// settings and values), in case order: what [`run_local`] would run. The Dask
/// executor of the Python package asks this before it sends cases to its workers.
pub fn pending(fmu: &Path, cases: &Cases, opts: &SweepOptions) -> Result<Vec<usize>, SweepError> {
    let (_, results) = known_results(fmu, cases, opts)?;
    Ok((0..cases.rows.len())
        .filter(|&case| results[case].is_none())
        .collect())
}

/// What the dataset holds for `cases`, after checking the cases and outputs against
/// the FMU: the settings key and, per case, its row when its file has the same
/// settings and values.
fn known_results(
    fmu: &Path,
    cases: &Cases,
    opts: &SweepOptions,
) -> Result<(String, Vec<Option<CaseResult>>), SweepError> {
    let loaded = Fmu::load(fmu)?;
    cases.validate(loaded.model_description())?;
    validate_outputs(&opts.outputs, loaded.model_description())?;
    drop(loaded);
    let settings = settings_key(fmu, opts)?;
    let dir = &opts.dir;
    std::fs::create_dir_all(dir).map_err(|source| SweepError::Io {
        path: dir.clone(),
        source,
    })?;
    dataset::tidy(dir, cases.rows.len())?;
    let results = (0..cases.rows.len())
        .map(|case| {
            let record = dataset::read_case(dir, case)?;
            let same = record.settings == settings
                && record.names == cases.names
                && record.values == bits(&cases.rows[case]);
            same.then(|| record.result(case)).flatten()
        })
        .collect();
    Ok((settings, results))
}

/// [`run_local`] restricted to the cases `only` (every case when `None`); the summary
/// holds every case the dataset has. A worker of the Dask executor runs its batch so.
pub fn run_selected(
    fmu: &Path,
    cases: &Cases,
    opts: &SweepOptions,
    only: Option<&[usize]>,
    progress: bool,
) -> Result<Summary, SweepError> {
    if let Some(&case) = only.and_then(|o| o.iter().find(|&&c| c >= cases.rows.len())) {
        return Err(SweepError::BadOptions(format!(
            "case {case} is not a case of the table ({} cases)",
            cases.rows.len()
        )));
    }
    let workers = match opts.workers {
        Some(0) => {
            return Err(SweepError::BadOptions(
                "--workers must be at least 1".into(),
            ))
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // What the dataset already holds: cases with the same settings and values.
    let (settings, mut results) = known_results(fmu, cases, opts)?;
    let dir = &opts.dir;
    let selected: Vec<usize> = match only {
        Some(only) => only.to_vec(),
        None => (0..cases.rows.len()).collect(),
    };
    let pending: Vec<usize> = selected
        .iter()
        .copied()
        .filter(|&case| results[case].is_none())
        .collect();
    let skipped = selected.len() - pending.len();

    let run = Run {
        fmu,
        cases,
        opts,
        settings: &settings,
    };
    let bar = Bar::new(progress, pending.len());
    let mut last_summary = Instant::now();
    let mut error = None;
    let (sender, receiver) = mpsc::channel::<Result<CaseResult, SweepError>>();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers.min(pending.len()) {
            let sender = sender.clone();
            let (run, pending, next) = (&run, &pending, &next);
            scope.spawn(move || run.worker(pending, next, &sender));
        }
        drop(sender);
        for message in receiver {
            match message {
                Ok(result) => {
                    bar.advance(result.status != Status::Ok);
                    let case = result.case;
                    results[case] = Some(result);
                    // The summary so far, every few seconds: an interrupted sweep
                    // leaves a summary of what it finished.
                    if last_summary.elapsed() > Duration::from_secs(5) {
                        let done: Vec<CaseResult> = results.iter().flatten().cloned().collect();
                        if let Err(e) =
                            dataset::write_summary(dir, &cases.names, &opts.outputs, &done)
                        {
                            error.get_or_insert(e);
                        }
                        last_summary = Instant::now();
                    }
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
    });
    bar.finish();
    let complete = selected.iter().all(|&case| results[case].is_some());
    let results: Vec<CaseResult> = results.into_iter().flatten().collect();
    dataset::write_summary(dir, &cases.names, &opts.outputs, &results)?;
    if let Some(error) = error {
        return Err(error);
    }
    if !complete {
        return Err(SweepError::BadOptions(
            "some cases did not run (every worker stopped)".into(),
        ));
    }
    Ok(Summary {
        names: cases.names.clone(),
        outputs: opts.outputs.clone(),
        ran: pending.len(),
        skipped,
        results,
    })
}

/// What every worker shares.
struct Run<'a> {
    fmu: &'a Path,
    cases: &'a Cases,
    opts: &'a SweepOptions,
    settings: &'a str,
}

impl Run<'_> {
    /// One worker: loads the FMU once, then takes the next pending case until none is
    /// left, writes each case's file and sends its row.
    fn worker(
        &self,
        pending: &[usize],
        next: &AtomicUsize,
        sender: &mpsc::Sender<Result<CaseResult, SweepError>>,
    ) {
        let fmu = match Fmu::load(self.fmu) {
            Ok(fmu) => fmu,
            Err(e) => {
                let _ = sender.send(Err(e.into()));
                return;
            }
        };
        loop {
            let Some(&case) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let message = self.case(&fmu, case);
            let stop = message.is_err();
            if sender.send(message).is_err() || stop {
                return;
            }
        }
    }

    /// Simulates one case and writes its file; a failed simulation is a row with its
    /// status and message, only a failure to write is an error.
    fn case(&self, fmu: &Fmu, case: usize) -> Result<CaseResult, SweepError> {
        let values = &self.cases.rows[case];
        let options = self.sim_options(values);
        let started = Instant::now();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| simulate_fmu(fmu, &options)));
        let wall_s = started.elapsed().as_secs_f64();
        let outputs = &self.opts.outputs;
        let (status, message, columns) = match outcome {
            Ok(Ok(result)) => {
                let columns = columns(&result, outputs);
                match first_non_finite(&columns, outputs) {
                    Some(message) => (Status::NotFinite, message, columns),
                    None => (Status::Ok, String::new(), columns),
                }
            }
            Ok(Err(e)) => (Status::Failed, e.to_string(), Vec::new()),
            Err(panic) => {
                let text = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                (
                    Status::Failed,
                    format!("the harness panicked: {text}"),
                    Vec::new(),
                )
            }
        };
        let finals: Vec<f64> = (0..outputs.len())
            .map(|o| {
                columns
                    .get(o + 1)
                    .and_then(|c| c.last().copied())
                    .unwrap_or(f64::NAN)
            })
            .collect();
        let record = CaseRecord {
            settings: self.settings.to_string(),
            names: self.cases.names.clone(),
            values: bits(values),
            status: status.name().to_string(),
            message: message.clone(),
            wall_s,
            finals: finals
                .iter()
                .map(|&v| Some(v).filter(|v| v.is_finite()))
                .collect(),
        };
        let columns = if columns.is_empty() {
            vec![Vec::new(); outputs.len() + 1]
        } else {
            columns
        };
        dataset::write_case(&self.opts.dir, case, outputs, &columns, &record)?;
        Ok(CaseResult {
            case,
            values: values.clone(),
            status,
            message,
            wall_s,
            finals,
        })
    }

    /// The options of `mofmu simulate` that this case is: the sweep's settings and the
    /// case's values as start values, in the order of the table's columns.
    fn sim_options(&self, values: &[f64]) -> SimOptions {
        let opts = self.opts;
        SimOptions {
            start_time: opts.start_time,
            stop_time: opts.stop_time,
            output_interval: opts.output_interval,
            relative_tolerance: opts.relative_tolerance,
            start_values: self
                .cases
                .names
                .iter()
                .cloned()
                .zip(values.iter().copied())
                .collect(),
            output: opts.outputs.clone(),
            interface: opts.interface,
            input: None,
        }
    }
}

/// The columns `time`, then the outputs in the order asked.
fn columns(result: &SimResult, outputs: &[String]) -> Vec<Vec<f64>> {
    std::iter::once("time")
        .chain(outputs.iter().map(String::as_str))
        .map(|name| result.column(name).unwrap_or_default())
        .collect()
}

/// The first value of an output that is not finite, as a message.
fn first_non_finite(columns: &[Vec<f64>], outputs: &[String]) -> Option<String> {
    let time = &columns[0];
    (0..time.len()).find_map(|row| {
        outputs.iter().enumerate().find_map(|(o, name)| {
            let value = columns[o + 1][row];
            (!value.is_finite()).then(|| format!("`{name}` is {value} at t = {}", time[row]))
        })
    })
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// A digest of everything besides the parameter values that decides a case's result:
/// the FMU's bytes, the times, the tolerance, the interface and the outputs.
fn settings_key(fmu: &Path, opts: &SweepOptions) -> Result<String, SweepError> {
    let bytes = std::fs::read(fmu).map_err(|source| HarnessError::Io {
        path: fmu.to_path_buf(),
        source,
    })?;
    let mut hash = Sha256::new();
    hash.update(&bytes);
    let described = format!(
        "{:?} {:?} {:?} {:?} {:?} {:?}",
        opts.start_time.map(f64::to_bits),
        opts.stop_time.map(f64::to_bits),
        opts.output_interval.map(f64::to_bits),
        opts.relative_tolerance.map(f64::to_bits),
        opts.interface,
        opts.outputs
    );
    hash.update(described.as_bytes());
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The sweep's progress bar: cases done against cases to run, failures, ETA.
struct Bar {
    bar: Option<indicatif::ProgressBar>,
    failed: AtomicUsize,
}

impl Bar {
    fn new(show: bool, cases: usize) -> Bar {
        let bar = show.then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(cases as u64),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "sweeping {bar:40} {pos}/{len} cases, {msg} failed ({elapsed} elapsed, {eta} left)",
            ) {
                bar.set_style(style);
            }
            bar.set_message("0");
            bar
        });
        Bar {
            bar,
            failed: AtomicUsize::new(0),
        }
    }

    fn advance(&self, failed: bool) {
        if let Some(bar) = &self.bar {
            if failed {
                let count = self.failed.fetch_add(1, Ordering::Relaxed) + 1;
                bar.set_message(count.to_string());
            }
            bar.inc(1);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}
