//! `mofmu simulate` against FMPy's CVode on the heated rod at sizes where the
//! Jacobian's sparsity decides, run with `cargo bench --bench simulate`
//! (options after `--`: `--runs N`, default 5).
//!
//! The rod (`Thermal.Examples.RodHeating`, `--set rod.n=N`) is exported once
//! per size (not timed). Then, interleaved run by run:
//! - `mofmu simulate` through the release binary, wall time (unzip, load,
//!   integrate, write the CSV);
//! - FMPy's `simulate_fmu` with CVode on the same FMU and settings, timed
//!   inside one long-lived Python process (interpreter start-up and imports
//!   are not counted; unzipping and loading are).
//!
//! Both record the same two variables (the rod's ends), so that writing
//! results does not dominate at large sizes. FMPy's CVode factors a dense
//! Jacobian of finite differences, so it is left out at 100,000 states (80 GB
//! for the matrix alone). Each row is the median of the runs with the fastest
//! and slowest beside it; the ratios compare medians of the same run. The
//! Python is `$MOFMU_BENCH_PYTHON`, else the project's `.venv/bin/python`;
//! without FMPy those rows are skipped with a note.

use std::path::Path;
use std::time::{Duration, Instant};

#[path = "common/mod.rs"]
mod common;
use common::{mofmu, mofmu_export, path_arg, show, time, Row};

#[path = "fmpy/mod.rs"]
mod fmpy;
use fmpy::{FmPy, Run};

/// Sizes compared with FMPy, and the size simulated by mofmu alone.
const SIZES_WITH_FMPY: &[u32] = &[100, 2000];
const LARGE_SIZE: u32 = 100_000;
/// The bound on simulating the largest rod to the stop time.
const LARGE_LIMIT: Duration = Duration::from_secs(30);
const STOP_TIME: f64 = 100.0;
const OUTPUT_INTERVAL: f64 = 0.5;
const TOLERANCE: f64 = 1e-8;

fn main() {
    common::bench_main(run);
}

/// Reads `--runs N`; ignores the `--bench` flag cargo passes.
fn run(runs: usize) -> Result<(), String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let scratch = scratch.path();
    let cache = scratch.join("cache");
    let fmu = |n: u32| scratch.join(format!("RodHeating_{n}.fmu"));
    let csv = scratch.join("bench-simulate.csv");

    println!("mofmu simulate benchmarks: median of {runs} interleaved runs (min .. max)");
    println!(
        "rod heating, to t={STOP_TIME}, output every {OUTPUT_INTERVAL}, rtol {TOLERANCE:e}, \
         recording rod.T[1] and rod.T[n] (wall time)"
    );
    let mut sizes: Vec<u32> = SIZES_WITH_FMPY.to_vec();
    sizes.push(LARGE_SIZE);
    for &n in &sizes {
        let started = Instant::now();
        mofmu_export(repo, n, &fmu(n), &cache)?;
        println!("  (exported n={n} in {})", show(started.elapsed()));
    }

    let mut fmpy = match FmPy::start(repo) {
        Ok(fmpy) => Some(fmpy),
        Err(note) => {
            println!("note: FMPy rows skipped: {note}");
            None
        }
    };
    let mut ours: Vec<Row> = sizes
        .iter()
        .map(|n| Row::new(&format!("mofmu simulate n={n} (binary)")))
        .collect();
    let mut theirs: Vec<Option<Row>> = sizes
        .iter()
        .map(|&n| {
            (fmpy.is_some() && SIZES_WITH_FMPY.contains(&n))
                .then(|| Row::new(&format!("FMPy simulate_fmu CVode n={n}")))
        })
        .collect();
    // One untimed round of the small sizes first: the first FMPy call imports
    // more of FMPy, and the first run of each FMU warms the file cache.
    for &n in SIZES_WITH_FMPY {
        mofmu_simulate(&fmu(n), n, &csv)?;
        if let Some(fmpy) = fmpy.as_mut() {
            fmpy.simulate(&fmu(n), &fmpy_run(&recorded(n)))?;
        }
    }
    for _ in 0..runs {
        for (i, &n) in sizes.iter().enumerate() {
            ours[i].add(time(|| mofmu_simulate(&fmu(n), n, &csv))?);
            if let (Some(fmpy), Some(row)) = (fmpy.as_mut(), theirs[i].as_mut()) {
                row.add(fmpy.simulate(&fmu(n), &fmpy_run(&recorded(n)))?);
            }
        }
    }
    println!();
    for (row, other) in ours.iter().zip(&theirs) {
        print_row(row);
        if let Some(other) = other {
            print_row(other);
        }
    }
    for ((row, other), &n) in ours.iter().zip(&theirs).zip(&sizes) {
        if let Some(other) = other {
            let ratio = row.median().as_secs_f64() / other.median().as_secs_f64();
            println!(
                "  n={n}: mofmu / FMPy = {ratio:.3} ({})",
                if ratio < 1.0 {
                    "mofmu faster"
                } else {
                    "mofmu slower"
                }
            );
        }
    }
    if let Some(large) = ours.last() {
        println!(
            "  n={LARGE_SIZE} to t={STOP_TIME} under {} s: {}",
            LARGE_LIMIT.as_secs(),
            if large.median() < LARGE_LIMIT {
                "yes"
            } else {
                "no"
            }
        );
    }
    Ok(())
}

/// The timings of one benchmark.
fn print_row(row: &Row) {
    println!(
        "  {:<40} {:>10}   ({} .. {})",
        row.name,
        show(row.median()),
        show(row.min()),
        show(row.max())
    );
}

/// The variables both simulators record: the rod's two ends.
/// The FMPy run that matches `mofmu_simulate`, recording `output`.
fn fmpy_run(output: &str) -> Run<'_> {
    Run {
        stop_time: STOP_TIME,
        output_interval: OUTPUT_INTERVAL,
        tolerance: TOLERANCE,
        output,
    }
}

fn recorded(n: u32) -> String {
    format!("rod.T[1],rod.T[{n}]")
}

fn mofmu_simulate(fmu: &Path, n: u32, csv: &Path) -> Result<(), String> {
    let stop = STOP_TIME.to_string();
    let interval = OUTPUT_INTERVAL.to_string();
    let tolerance = TOLERANCE.to_string();
    let variables = recorded(n);
    let args = [
        "simulate",
        path_arg(fmu)?,
        "--stop-time",
        &stop,
        "--output-interval",
        &interval,
        "--tolerance",
        &tolerance,
        "--variables",
        &variables,
        "-o",
        path_arg(csv)?,
    ];
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    mofmu(repo, &args, None)
}
