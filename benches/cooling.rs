//! Issue 22's scale row for ThermoFluid Stream Lite, run with `cargo bench
//! --bench cooling` (options after `--`: `--runs N`, default 5):
//! `ThermoFluidStream.Examples.CoolingLoop` with `--set n=10000` radiator
//! cells beside the heated rod (`Thermal.Examples.RodHeating`, `--set
//! rod.n=10000`), per cell (per state). Every figure is a CPU time (user +
//! system), because the machine the benches run on is shared; each row is
//! the median of interleaved runs with the fastest and slowest beside it.
//!
//! - `mofmu export`, warm cache (a first export at n = 10 fills it; the
//!   shared library at n = 10^4 must be byte-identical to it), the child's
//!   own CPU time from `wait4`.
//! - `fmi2SetContinuousStates` + `fmi2GetDerivatives` through the harness's
//!   `Instance` API, this thread's CPU time per call, beside the loop's
//!   hand-written C twin (`benches/twins/cooling_twin.c`, the textbook
//!   equations with the path's pressures eliminated by hand), whose
//!   derivatives the FMU's must equal to 1e-10 before anything is timed.
//! - `mofmu simulate` of both to the same stop time at the same tolerance,
//!   recording two variables, the child's CPU time.

use std::path::Path;
use std::time::Duration;

use mofmu::harness::{Fmu, Instance};

// Shared with the other benches; this one does not time closures.
#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;
use common::{mofmu, mofmu_export, path_arg, rod_export_args, show, Row};

#[path = "twins/mod.rs"]
mod twins;

const CELLS: u32 = 10_000;
const LOOP: &str = "ThermoFluidStream.Examples.CoolingLoop";
const TFS: &[&str] = &[
    "examples/Base.mo",
    "examples/Signals.mo",
    "examples/Thermal",
    "examples/ThermoFluidStream",
];
const LOOP_SO: &str = "binaries/linux64/ThermoFluidStream_Examples_CoolingLoop.so";
/// A tenth of the loop's horizon: the start-up, where the integrator works
/// hardest, and some settling; the rod over the same time.
const SIM_STOP_TIME: f64 = 60.0;
const SIM_OUTPUT_INTERVAL: f64 = 0.5;
const SIM_TOLERANCE: f64 = 1e-8;
/// Derivative calls per timed sample.
const CALLS: u32 = 200;

fn main() {
    common::bench_main(run);
}

fn loop_export_args(n: u32, out: &Path) -> Result<Vec<String>, String> {
    let mut args = vec!["export".to_string()];
    args.extend(TFS.iter().map(|s| s.to_string()));
    args.extend(
        [
            "--model",
            LOOP,
            "--set",
            &format!("n={n}"),
            "-o",
            path_arg(out)?,
        ]
        .map(str::to_string),
    );
    Ok(args)
}

fn simulate_args(fmu: &Path, variables: &str, csv: &Path) -> Result<Vec<String>, String> {
    Ok([
        "simulate",
        path_arg(fmu)?,
        "--stop-time",
        &SIM_STOP_TIME.to_string(),
        "--output-interval",
        &SIM_OUTPUT_INTERVAL.to_string(),
        "--tolerance",
        &SIM_TOLERANCE.to_string(),
        "--variables",
        variables,
        "-o",
        path_arg(csv)?,
    ]
    .map(str::to_string)
    .to_vec())
}

fn run(runs: usize) -> Result<(), String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let scratch = scratch.path();
    let cache = scratch.join("cache");
    let small = scratch.join("CoolingLoop_10.fmu");
    let cooling = scratch.join(format!("CoolingLoop_{CELLS}.fmu"));
    let rod = scratch.join(format!("RodHeating_{CELLS}.fmu"));
    let args = loop_export_args(10, &small)?;
    mofmu(
        repo,
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        Some(&cache),
    )?;
    mofmu_export(repo, 5, &scratch.join("RodHeating_5.fmu"), &cache)?;
    println!("CoolingLoop n={CELLS} against RodHeating n={CELLS}: median of {runs} interleaved runs (min .. max), CPU time");
    println!();

    let mut export = [
        Row::new(&format!("export CoolingLoop n={CELLS}")),
        Row::new(&format!("export RodHeating n={CELLS}")),
    ];
    for _ in 0..runs {
        export[0].add(cpu_of(repo, &loop_export_args(CELLS, &cooling)?, &cache)?);
        export[1].add(cpu_of(repo, &rod_export_args(CELLS, &rod)?, &cache)?);
    }
    print_rows("mofmu export, warm cache", &export, f64::from(CELLS));
    let same = zip_entry(&small, LOOP_SO)? == zip_entry(&cooling, LOOP_SO)?;
    println!(
        "  CoolingLoop .so identical at n=10 and n={CELLS}: {}",
        if same { "yes" } else { "NO" }
    );
    println!();

    let loop_fmu = Fmu::load(&cooling).map_err(|e| format!("loading the loop: {e}"))?;
    let rod_fmu = Fmu::load(&rod).map_err(|e| format!("loading the rod: {e}"))?;
    let mut evaluators = [Evaluator::new(&loop_fmu)?, Evaluator::new(&rod_fmu)?];
    let mut derivatives = [
        Row::new(&format!("derivatives CoolingLoop n={CELLS}")),
        Row::new(&format!("derivatives RodHeating n={CELLS}")),
    ];
    for _ in 0..runs {
        for (evaluator, row) in evaluators.iter_mut().zip(derivatives.iter_mut()) {
            row.add(evaluator.sample()?);
        }
    }
    println!(
        "fmi2SetContinuousStates + fmi2GetDerivatives, per call (states: loop {}, rod {})",
        evaluators[0].states.len(),
        evaluators[1].states.len()
    );
    print_rows_per_state(&derivatives, &evaluators);
    let twin = twins::CoolingTwin::build()?;
    let loop_states = evaluators[0].states.clone();
    let loop_shifted = evaluators[0].shifted.clone();
    let mut ours = vec![0.0; loop_states.len()];
    evaluators[0]
        .instance
        .set_continuous_states(&loop_shifted)
        .and_then(|()| evaluators[0].instance.get_derivatives(&mut ours))
        .map_err(|e| e.to_string())?;
    let mut theirs = vec![0.0; ours.len()];
    twin.derivatives(&loop_shifted, &mut theirs);
    let worst = twins::CoolingTwin::worst_relative(&ours, &theirs);
    if worst > 1e-10 {
        return Err(format!(
            "the loop's derivatives differ from its twin's by {worst:.2e} (relative)"
        ));
    }
    let mut twin_row = Row::new(&format!("derivatives CoolingLoop twin n={CELLS}"));
    for _ in 0..runs {
        let started = thread_cpu();
        for i in 0..CALLS {
            let x = if i % 2 == 1 {
                &loop_shifted
            } else {
                &loop_states
            };
            twin.derivatives(x, &mut theirs);
        }
        twin_row.add((thread_cpu() - started) / CALLS);
    }
    let per_state = |row: &Row, states: usize| row.median().as_secs_f64() * 1e9 / states as f64;
    let (fmu, hand, rod_fmu_per_state) = (
        per_state(&derivatives[0], loop_states.len()),
        per_state(&twin_row, loop_states.len()),
        per_state(&derivatives[1], evaluators[1].states.len()),
    );
    println!(
        "  {:<36} {:>10} {:>10.2} ns/state   ({} .. {})",
        twin_row.name,
        show(twin_row.median()),
        hand,
        show(twin_row.min()),
        show(twin_row.max())
    );
    println!(
        "  loop FMU / loop twin = {:.2}; loop twin / rod FMU per state = {:.2} (the twin's derivatives within {worst:.1e} of the FMU's)",
        fmu / hand,
        hand / rod_fmu_per_state
    );
    println!();

    let mut simulate = [
        Row::new(&format!("simulate CoolingLoop n={CELLS}")),
        Row::new(&format!("simulate RodHeating n={CELLS}")),
    ];
    let rod_variables = format!("rod.T[1],rod.T[{CELLS}]");
    for _ in 0..runs {
        let args = simulate_args(&cooling, "volume.T,heater.T", &scratch.join("loop.csv"))?;
        simulate[0].add(cpu_of(repo, &args, &cache)?);
        let args = simulate_args(&rod, &rod_variables, &scratch.join("rod.csv"))?;
        simulate[1].add(cpu_of(repo, &args, &cache)?);
    }
    print_rows(
        &format!("mofmu simulate to {SIM_STOP_TIME} s at tolerance {SIM_TOLERANCE}"),
        &simulate,
        f64::from(CELLS),
    );
    Ok(())
}

/// The rows, with the median per cell and the loop / rod ratio.
fn print_rows(title: &str, rows: &[Row; 2], cells: f64) {
    println!("{title}");
    for row in rows {
        println!(
            "  {:<36} {:>10} {:>10.2} us/cell   ({} .. {})",
            row.name,
            show(row.median()),
            row.median().as_secs_f64() * 1e6 / cells,
            show(row.min()),
            show(row.max())
        );
    }
    println!(
        "  loop / rod per cell = {:.2}",
        rows[0].median().as_secs_f64() / rows[1].median().as_secs_f64()
    );
}

fn print_rows_per_state(rows: &[Row; 2], evaluators: &[Evaluator; 2]) {
    let per_state =
        |i: usize| rows[i].median().as_secs_f64() * 1e9 / evaluators[i].states.len() as f64;
    for (i, row) in rows.iter().enumerate() {
        println!(
            "  {:<36} {:>10} {:>10.2} ns/state   ({} .. {})",
            row.name,
            show(row.median()),
            per_state(i),
            show(row.min()),
            show(row.max())
        );
    }
    println!(
        "  loop / rod per state = {:.2}",
        per_state(0) / per_state(1)
    );
}

/// The CPU time (user + system) of one run of the release binary.
fn cpu_of(repo: &Path, args: &[String], cache: &Path) -> Result<Duration, String> {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(repo)
        .env("MOFMU_CACHE_DIR", cache)
        .stdout(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("running mofmu: {e}"))?;
    let mut status = 0;
    // SAFETY: rusage is plain data, and the pid is our own unwaited child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if waited != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("mofmu {} failed (status {status})", args.join(" ")));
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Ok(time(usage.ru_utime) + time(usage.ru_stime))
}

/// This thread's CPU time.
fn thread_cpu() -> Duration {
    // SAFETY: timespec is plain data; the clock id is a constant.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn zip_entry(fmu: &Path, name: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(fmu).map_err(|e| format!("{}: {e}", fmu.display()))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| e.to_string())?;
    let mut entry = archive.by_name(name).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// One FMU instance in continuous-time mode, evaluated at its start states
/// and at slightly shifted ones, alternately, so that no call can reuse the
/// one before.
struct Evaluator<'fmu> {
    instance: Instance<'fmu>,
    states: Vec<f64>,
    shifted: Vec<f64>,
    derivatives: Vec<f64>,
}

impl<'fmu> Evaluator<'fmu> {
    fn new(fmu: &'fmu Fmu) -> Result<Evaluator<'fmu>, String> {
        let n = fmu.model_description().derivatives.len();
        let mut instance = fmu.instantiate("bench", false).map_err(|e| e.to_string())?;
        let start = |instance: &mut Instance<'_>| -> Result<(), mofmu::harness::HarnessError> {
            instance.setup_experiment(Some(SIM_TOLERANCE), 0.0, Some(SIM_STOP_TIME))?;
            instance.enter_initialization_mode()?;
            instance.exit_initialization_mode()?;
            instance.new_discrete_states()?;
            instance.enter_continuous_time_mode()
        };
        start(&mut instance).map_err(|e| e.to_string())?;
        let mut states = vec![0.0; n];
        instance
            .get_continuous_states(&mut states)
            .map_err(|e| e.to_string())?;
        let shifted = states.iter().map(|x| x + 1e-6 * (1.0 + x.abs())).collect();
        Ok(Evaluator {
            instance,
            states,
            shifted,
            derivatives: vec![0.0; n],
        })
    }

    /// The CPU time of one call, averaged over [`CALLS`] calls.
    fn sample(&mut self) -> Result<Duration, String> {
        let started = thread_cpu();
        for i in 0..CALLS {
            let states = if i % 2 == 1 {
                &self.shifted
            } else {
                &self.states
            };
            self.instance
                .set_continuous_states(states)
                .and_then(|()| self.instance.get_derivatives(&mut self.derivatives))
                .map_err(|e| e.to_string())?;
        }
        Ok((thread_cpu() - started) / CALLS)
    }
}
