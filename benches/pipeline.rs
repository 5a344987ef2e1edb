//! Benchmarks of the whole tool, run with `cargo bench --bench pipeline`
//! (options after `--`: `--runs N`, default 5; `--only-twin` runs only the
//! comparison with the hand-written twin; `--large-export` runs only the
//! export of rods of 10^4 to 10^6 volumes; `--chain` runs only the
//! component-array group; `--line` only the transmission line's export).
//!
//! Every benchmark is repeated `runs` times and reported as the median, with
//! the fastest and slowest run beside it. The repetitions are interleaved
//! (run 1 of every benchmark of a group, then run 2, ...), so that a burst of
//! load on a shared machine hits all rows of a group alike instead of one.
//!
//! Groups:
//! - With `--large-export`: `mofmu export` of the rod at n = 10^4, 10^5 and
//!   10^6 after a first export has filled the cache, wall time and peak
//!   resident memory of the process, the growth exponent of the time, and
//!   whether the shared library is byte-identical to the one for n = 5.
//! - With `--line`: issue 58's bar for circuits. `mofmu export` of
//!   `Electrical.Examples.TransmissionLine` at N = 10^5 (1.6 million
//!   variables, 3·10^5 instances), FMI 2.0, after an export at N = 1000 has
//!   filled the cache: wall time, user and system CPU time, peak memory,
//!   against the bound of 5 s.
//! - With `--chain`: issue 21's scale bar for component arrays. `mofmu
//!   export` of Acc4's chain (`test_data/language/Acc4.mo`, n conductor and
//!   capacitor pairs) at n = 10^4 and 10^5 beside the rod at the same n,
//!   warm cache: wall time, user and system CPU time, peak memory; then
//!   `fmi2SetContinuousStates` + `fmi2GetDerivatives` per state of the chain
//!   against the rod at the same n, with the ratio against the bound 2, and
//!   beside them the chain's hand-written C twin (`benches/twins/chain_twin.c`:
//!   the derivatives alone, and every variable the FMU exposes), which the
//!   FMU's derivatives must equal bit for bit.
//! - `mofmu export` and `mofmu check` through the release binary, wall time;
//!   cold cache means a fresh `MOFMU_CACHE_DIR` for every run.
//! - `fmi2SetContinuousStates` + `fmi2GetDerivatives` through the harness's
//!   `Instance` API, the cost of one right-hand-side evaluation.
//! - The rod's `fmi2GetDerivatives` and `fmi2GetDirectionalDerivative`
//!   against a hand-written C twin of the same equations
//!   (`benches/twins/rod_twin.c`, compiled with mofmu's flags), side by
//!   side at n = 10^4 and 10^5, with the ratios and a bit-identity check.
//! - `mofmu simulate` (the binary, wall time) against FMPy's `simulate_fmu`
//!   with CVode (timed inside one long-lived Python process, so interpreter
//!   start-up and imports are not counted), both at the same tolerance. The
//!   Python is `$MOFMU_BENCH_PYTHON`, else the project's `.venv/bin/python`;
//!   without FMPy those rows are skipped with a note.

use std::path::Path;
use std::time::{Duration, Instant};

use mofmu::harness::{Fmu, Instance};

#[path = "common/mod.rs"]
mod common;
use common::{mofmu, mofmu_export, path_arg, rod_export_args, show, time, Row, THERMAL};

#[path = "fmpy/mod.rs"]
mod fmpy;
use fmpy::{FmPy, Run};

#[path = "twins/mod.rs"]
mod twins;

const SIGNALS: &[&str] = &["examples/Base.mo", "examples/Signals.mo"];

/// The bound on a warm-cache export of the 10,000-volume rod.
const EXPORT_10000_LIMIT: Duration = Duration::from_secs(5);
/// Rod sizes for the evaluation benchmark.
const EVAL_SIZES: &[u32] = &[5, 100, 10_000];
/// Rod sizes for the end-to-end simulation benchmark. The harness's
/// integrator factors a dense Jacobian, so 10,000 states is out of reach.
const SIM_SIZES: &[u32] = &[5, 100];
const SIM_STOP_TIME: f64 = 100.0;
const SIM_OUTPUT_INTERVAL: f64 = 0.5;
const SIM_TOLERANCE: f64 = 1e-8;
/// FMPy's run with the same settings as `mofmu simulate`, recording FMPy's default outputs.
const FMPY_RUN: Run = Run {
    stop_time: SIM_STOP_TIME,
    output_interval: SIM_OUTPUT_INTERVAL,
    tolerance: SIM_TOLERANCE,
    output: "",
};
/// How long one timed sample of the evaluation benchmark should take.
const EVAL_SAMPLE_TARGET: Duration = Duration::from_millis(100);

fn main() {
    common::bench_main(run);
}

/// Reads `--runs N`; ignores the `--bench` flag cargo passes and anything
/// else cargo's test-harness conventions add.
fn run(runs: usize) -> Result<(), String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let scratch = scratch.path();
    let warm_cache = scratch.join("warm-cache");

    println!("mofmu benchmarks: median of {runs} interleaved runs (min .. max)");
    println!();
    if std::env::args().any(|a| a == "--only-twin") {
        return twin_group(repo, scratch, &warm_cache, runs);
    }
    if std::env::args().any(|a| a == "--large-export") {
        return large_export_group(repo, scratch, &warm_cache, runs);
    }
    if std::env::args().any(|a| a == "--chain") {
        return chain_group(repo, scratch, &warm_cache, runs);
    }
    if std::env::args().any(|a| a == "--line") {
        return line_group(repo, scratch, &warm_cache, runs);
    }

    // --- Export and check ---------------------------------------------------
    let fmu = |n: u32| scratch.join(format!("RodHeating_{n}.fmu"));
    // Fill the warm cache, and make every FMU the later groups need.
    for &n in EVAL_SIZES {
        mofmu_export(repo, n, &fmu(n), &warm_cache)?;
    }
    let mut cold_counter = 0;
    let mut export_rows: Vec<Row> = vec![
        Row::new("export RodHeating n=5, cold cache"),
        Row::new("export RodHeating n=5, warm cache"),
        Row::new("export RodHeating n=10000, warm cache"),
        Row::new("check Base + Thermal"),
        Row::new("check Base + Signals"),
    ];
    for _ in 0..runs {
        cold_counter += 1;
        let cold_cache = scratch.join(format!("cold-cache-{cold_counter}"));
        let out = scratch.join("bench-export.fmu");
        export_rows[0].add(time(|| mofmu_export(repo, 5, &out, &cold_cache))?);
        export_rows[1].add(time(|| mofmu_export(repo, 5, &out, &warm_cache))?);
        export_rows[2].add(time(|| mofmu_export(repo, 10_000, &out, &warm_cache))?);
        export_rows[3].add(time(|| mofmu_check(repo, THERMAL))?);
        export_rows[4].add(time(|| mofmu_check(repo, SIGNALS))?);
        std::fs::remove_dir_all(&cold_cache).map_err(|e| format!("removing a cache: {e}"))?;
    }
    print_group("export and check (release binary, wall time)", &export_rows);
    let limit_met = export_rows[2].median() < EXPORT_10000_LIMIT;
    println!(
        "  n=10000 warm export under {} s: {}",
        EXPORT_10000_LIMIT.as_secs(),
        if limit_met { "yes" } else { "NO" }
    );
    for n in [5, 10_000] {
        let bytes = std::fs::metadata(fmu(n))
            .map_err(|e| format!("size of {}: {e}", fmu(n).display()))?
            .len();
        println!(
            "  FMU size, n={n}: {bytes} bytes ({:.1} KiB)",
            bytes as f64 / 1024.0
        );
    }
    println!();

    // --- Right-hand-side evaluation ------------------------------------------
    let loaded: Vec<Fmu> = EVAL_SIZES
        .iter()
        .map(|&n| Fmu::load(&fmu(n)).map_err(|e| format!("loading n={n}: {e}")))
        .collect::<Result<_, _>>()?;
    let mut evaluators: Vec<Evaluator> = loaded
        .iter()
        .zip(EVAL_SIZES)
        .map(|(fmu, &n)| Evaluator::new(fmu).map_err(|e| format!("n={n}: {e}")))
        .collect::<Result<_, _>>()?;
    let mut eval_rows: Vec<Row> = EVAL_SIZES
        .iter()
        .map(|n| Row::new(&format!("RodHeating n={n}")))
        .collect();
    for _ in 0..runs {
        for (evaluator, row) in evaluators.iter_mut().zip(&mut eval_rows) {
            row.add(evaluator.sample()?);
        }
    }
    println!("fmi2SetContinuousStates + fmi2GetDerivatives (harness Instance API)");
    println!(
        "  {:<40} {:>12} {:>12} {:>8}",
        "", "ns per call", "ns per state", "states"
    );
    for (evaluator, row) in evaluators.iter().zip(&eval_rows) {
        let per_call = row.median().as_secs_f64() * 1e9;
        println!(
            "  {:<40} {:>12.0} {:>12.2} {:>8}   ({:.0} .. {:.0} ns)",
            row.name,
            per_call,
            per_call / evaluator.states.len() as f64,
            evaluator.states.len(),
            row.min().as_secs_f64() * 1e9,
            row.max().as_secs_f64() * 1e9
        );
    }
    drop(evaluators);
    drop(loaded);
    println!();

    // --- Generated kernels against the hand-written twin -----------------------
    twin_group(repo, scratch, &warm_cache, runs)?;

    // --- End-to-end simulation ------------------------------------------------
    let title = format!(
        "simulate to t={SIM_STOP_TIME}, output every {SIM_OUTPUT_INTERVAL}, rtol {SIM_TOLERANCE:e} (wall time)"
    );
    let mut fmpy = match FmPy::start(repo) {
        Ok(fmpy) => Some(fmpy),
        Err(note) => {
            println!("note: FMPy rows skipped: {note}");
            None
        }
    };
    let mut sim_rows: Vec<(Row, Option<Row>)> = SIM_SIZES
        .iter()
        .map(|n| {
            (
                Row::new(&format!("mofmu simulate n={n} (binary)")),
                fmpy.as_ref()
                    .map(|_| Row::new(&format!("FMPy simulate_fmu CVode n={n}"))),
            )
        })
        .collect();
    let csv = scratch.join("bench-simulate.csv");
    // One untimed round first: the first FMPy call imports more of FMPy and
    // the first run of each FMU warms the file cache.
    for &n in SIM_SIZES {
        mofmu_simulate(&fmu(n), &csv)?;
        if let Some(fmpy) = fmpy.as_mut() {
            fmpy.simulate(&fmu(n), &FMPY_RUN)?;
        }
    }
    for _ in 0..runs {
        for (&n, (ours, theirs)) in SIM_SIZES.iter().zip(&mut sim_rows) {
            ours.add(time(|| mofmu_simulate(&fmu(n), &csv))?);
            if let (Some(fmpy), Some(theirs)) = (fmpy.as_mut(), theirs.as_mut()) {
                theirs.add(fmpy.simulate(&fmu(n), &FMPY_RUN)?);
            }
        }
    }
    let mut flat = Vec::new();
    for (ours, theirs) in &sim_rows {
        flat.push(ours.clone());
        flat.extend(theirs.clone());
    }
    print_group(&title, &flat);
    for (&n, (ours, theirs)) in SIM_SIZES.iter().zip(&sim_rows) {
        if let Some(theirs) = theirs {
            println!(
                "  n={n}: mofmu / FMPy = {:.2}",
                ours.median().as_secs_f64() / theirs.median().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn print_group(title: &str, rows: &[Row]) {
    println!("{title}");
    for row in rows {
        println!(
            "  {:<40} {:>10}   ({} .. {})",
            row.name,
            show(row.median()),
            show(row.min()),
            show(row.max())
        );
    }
}

fn mofmu_check(repo: &Path, paths: &[&str]) -> Result<(), String> {
    let mut args = vec!["check"];
    args.extend_from_slice(paths);
    mofmu(repo, &args, None)
}

fn mofmu_simulate(fmu: &Path, csv: &Path) -> Result<(), String> {
    let stop = SIM_STOP_TIME.to_string();
    let interval = SIM_OUTPUT_INTERVAL.to_string();
    let tolerance = SIM_TOLERANCE.to_string();
    let args = [
        "simulate",
        path_arg(fmu)?,
        "--stop-time",
        &stop,
        "--output-interval",
        &interval,
        "--tolerance",
        &tolerance,
        "-o",
        path_arg(csv)?,
    ];
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    mofmu(repo, &args, None)
}

/// One FMU instance in continuous-time mode, ready to evaluate.
struct Evaluator<'fmu> {
    instance: Instance<'fmu>,
    states: Vec<f64>,
    /// The states shifted slightly, alternated with `states` so that no call
    /// can reuse the previous evaluation.
    shifted: Vec<f64>,
    derivatives: Vec<f64>,
    /// Calls per sample, chosen on the first sample.
    calls: Option<u32>,
}

impl<'fmu> Evaluator<'fmu> {
    fn new(fmu: &'fmu Fmu) -> Result<Evaluator<'fmu>, String> {
        let n = fmu.model_description().derivatives.len();
        let mut instance = fmu.instantiate("bench", false).map_err(|e| e.to_string())?;
        enter_continuous_time_mode(&mut instance).map_err(|e| e.to_string())?;
        let mut states = vec![0.0; n];
        instance
            .get_continuous_states(&mut states)
            .map_err(|e| e.to_string())?;
        let shifted = states.iter().map(|x| x + 1e-3 * (1.0 + x.abs())).collect();
        Ok(Evaluator {
            instance,
            states,
            shifted,
            derivatives: vec![0.0; n],
            calls: None,
        })
    }

    fn call(&mut self, shifted: bool) -> Result<(), String> {
        let states = if shifted { &self.shifted } else { &self.states };
        self.instance
            .set_continuous_states(states)
            .and_then(|()| self.instance.get_derivatives(&mut self.derivatives))
            .map_err(|e| e.to_string())
    }

    /// The time of one call, averaged over a sample of about
    /// [`EVAL_SAMPLE_TARGET`].
    fn sample(&mut self) -> Result<Duration, String> {
        let calls = match self.calls {
            Some(calls) => calls,
            None => {
                // Calibrate: double until a batch takes a tenth of the target.
                let mut calls: u32 = 1;
                loop {
                    let started = Instant::now();
                    for i in 0..calls {
                        self.call(i % 2 == 1)?;
                    }
                    let elapsed = started.elapsed();
                    if elapsed >= EVAL_SAMPLE_TARGET / 10 || calls >= 1 << 30 {
                        let per_call = elapsed.as_secs_f64() / f64::from(calls);
                        let wanted = EVAL_SAMPLE_TARGET.as_secs_f64() / per_call;
                        break wanted.clamp(2.0, f64::from(u32::MAX)) as u32;
                    }
                    calls *= 2;
                }
            }
        };
        self.calls = Some(calls);
        let started = Instant::now();
        for i in 0..calls {
            self.call(i % 2 == 1)?;
        }
        Ok(started.elapsed() / calls)
    }
}

/// Initialises an instance the way an importer does before integrating.
fn enter_continuous_time_mode(
    instance: &mut Instance<'_>,
) -> Result<(), mofmu::harness::HarnessError> {
    instance.setup_experiment(Some(SIM_TOLERANCE), 0.0, Some(SIM_STOP_TIME))?;
    instance.enter_initialization_mode()?;
    instance.exit_initialization_mode()?;
    // The event iteration of a well-behaved FMU ends at once; stop anyway
    // if one keeps asking.
    for _ in 0..100 {
        if instance.new_discrete_states()?.new_discrete_states_needed == 0 {
            break;
        }
    }
    instance.enter_continuous_time_mode()
}

/// Rod sizes of the twin comparison.
const TWIN_SIZES: &[u32] = &[10_000, 100_000];
/// The bounds: generated / hand-written.
const TWIN_DERIVATIVES_LIMIT: f64 = 1.3;
const TWIN_TANGENT_LIMIT: f64 = 2.0;

/// One right-hand side (or tangent) per call, timed over a sample of about
/// [`EVAL_SAMPLE_TARGET`]; `calls` is calibrated on the first sample.
fn sample_calls(
    calls: &mut Option<u32>,
    f: &mut dyn FnMut(bool) -> Result<(), String>,
) -> Result<Duration, String> {
    let n = match *calls {
        Some(n) => n,
        None => {
            let mut n: u32 = 1;
            loop {
                let started = Instant::now();
                for i in 0..n {
                    f(i % 2 == 1)?;
                }
                let elapsed = started.elapsed();
                if elapsed >= EVAL_SAMPLE_TARGET / 10 || n >= 1 << 30 {
                    let per_call = elapsed.as_secs_f64() / f64::from(n);
                    let wanted = EVAL_SAMPLE_TARGET.as_secs_f64() / per_call;
                    break wanted.clamp(2.0, f64::from(u32::MAX)) as u32;
                }
                n *= 2;
            }
        }
    };
    *calls = Some(n);
    let started = Instant::now();
    for i in 0..n {
        f(i % 2 == 1)?;
    }
    Ok(started.elapsed() / n)
}

/// The rod's FMU against its hand-written twin, interleaved: derivatives
/// (`fmi2SetContinuousStates` + `fmi2GetDerivatives` against copying the
/// states and calling the twin) and the full tangent
/// (`fmi2GetDirectionalDerivative` of all derivatives along a seed of all
/// states against the twin's tangent).
fn twin_group(repo: &Path, scratch: &Path, cache: &Path, runs: usize) -> Result<(), String> {
    let twin = twins::RodTwin::build()?;
    let mut fmus = Vec::new();
    for &n in TWIN_SIZES {
        let path = scratch.join(format!("RodHeating_twin_{n}.fmu"));
        mofmu_export(repo, n, &path, cache)?;
        fmus.push(Fmu::load(&path).map_err(|e| format!("loading n={n}: {e}"))?);
    }
    struct Case<'f> {
        n: usize,
        instance: Instance<'f>,
        state_vr: Vec<u32>,
        der_vr: Vec<u32>,
        states: [Vec<f64>; 2],
        seed: Vec<f64>,
        out: Vec<f64>,
        buffer: Vec<f64>,
        calls: [Option<u32>; 4],
        rows: [Row; 4],
    }
    let mut cases = Vec::new();
    for (fmu, &n) in fmus.iter().zip(TWIN_SIZES) {
        let (state_vr, der_vr) = fmu
            .model_description()
            .state_and_derivative_references()
            .map_err(|e| e.to_string())?;
        let mut instance = fmu.instantiate("twin", false).map_err(|e| e.to_string())?;
        enter_continuous_time_mode(&mut instance).map_err(|e| e.to_string())?;
        let n = n as usize;
        let a: Vec<f64> = (0..n)
            .map(|i| 300.0 + 50.0 * ((i as f64) * 0.01).sin())
            .collect();
        let b: Vec<f64> = a.iter().map(|x| x + 1e-3 * (1.0 + x.abs())).collect();
        // Bit identity at this size before timing anything.
        let (mut ours, mut theirs) = (vec![0.0; n], vec![0.0; n]);
        instance
            .set_continuous_states(&a)
            .map_err(|e| e.to_string())?;
        instance
            .get_derivatives(&mut ours)
            .map_err(|e| e.to_string())?;
        twin.derivatives(&a, &mut theirs);
        if ours
            .iter()
            .zip(&theirs)
            .any(|(x, y)| x.to_bits() != y.to_bits())
        {
            return Err(format!(
                "n={n}: the FMU's derivatives differ from the twin's"
            ));
        }
        cases.push(Case {
            n,
            instance,
            state_vr,
            der_vr,
            states: [a, b],
            seed: (0..n).map(|i| 1.0 + ((i as f64) * 1.3).cos()).collect(),
            out: vec![0.0; n],
            buffer: vec![0.0; n],
            calls: [None; 4],
            rows: [
                Row::new(&format!("FMU derivatives n={n}")),
                Row::new(&format!("twin derivatives n={n}")),
                Row::new(&format!("FMU directional derivative n={n}")),
                Row::new(&format!("twin tangent n={n}")),
            ],
        });
    }
    for _ in 0..runs {
        for c in cases.iter_mut() {
            let Case {
                instance,
                states,
                out,
                buffer,
                calls,
                rows,
                seed,
                state_vr,
                der_vr,
                ..
            } = c;
            rows[0].add(sample_calls(&mut calls[0], &mut |odd| {
                instance
                    .set_continuous_states(&states[usize::from(odd)])
                    .and_then(|()| instance.get_derivatives(out))
                    .map_err(|e| e.to_string())
            })?);
            rows[1].add(sample_calls(&mut calls[1], &mut |odd| {
                buffer.copy_from_slice(&states[usize::from(odd)]);
                twin.derivatives(buffer, out);
                Ok(())
            })?);
            rows[2].add(sample_calls(&mut calls[2], &mut |_| {
                instance
                    .get_directional_derivative_into(der_vr, state_vr, seed, out)
                    .map_err(|e| e.to_string())
            })?);
            rows[3].add(sample_calls(&mut calls[3], &mut |_| {
                twin.tangent(seed, out);
                Ok(())
            })?);
        }
    }
    println!("rod: generated kernels (FMU) against the hand-written C twin, same compiler flags");
    println!("  derivatives bit-identical to the twin at every size: yes");
    for c in &cases {
        for row in &c.rows {
            let per_call = row.median().as_secs_f64() * 1e9;
            println!(
                "  {:<40} {:>12.0} ns {:>8.2} ns/state   ({:.0} .. {:.0} ns)",
                row.name,
                per_call,
                per_call / c.n as f64,
                row.min().as_secs_f64() * 1e9,
                row.max().as_secs_f64() * 1e9
            );
        }
        let ratio = |a: &Row, b: &Row| a.median().as_secs_f64() / b.median().as_secs_f64();
        let d = ratio(&c.rows[0], &c.rows[1]);
        let t = ratio(&c.rows[2], &c.rows[3]);
        println!(
            "  n={}: derivatives FMU / twin = {d:.2} (bound {TWIN_DERIVATIVES_LIMIT}: {}), tangent FMU / twin = {t:.2} (bound {TWIN_TANGENT_LIMIT}: {})",
            c.n,
            if d <= TWIN_DERIVATIVES_LIMIT { "met" } else { "NOT met" },
            if t <= TWIN_TANGENT_LIMIT { "met" } else { "NOT met" },
        );
    }
    println!();
    Ok(())
}

/// Rod sizes of the large-export group, and the bounds at the largest.
const LARGE_SIZES: &[u32] = &[10_000, 100_000, 1_000_000];
const LARGE_EXPORT_LIMIT: Duration = Duration::from_secs(10);
const LARGE_EXPORT_MEMORY_LIMIT: u64 = 2_000_000_000;
const LIBRARY_ENTRY: &str = "binaries/linux64/Thermal_Examples_RodHeating.so";

/// What one run of the release binary took: wall time, the process's own
/// user and system CPU time, and its peak resident memory in bytes.
#[derive(Clone, Copy)]
struct Measured {
    wall: Duration,
    user: Duration,
    system: Duration,
    peak: u64,
}

/// `mofmu export` of the rod with `n` volumes: wall time and the process's
/// peak resident memory in bytes.
fn export_measured(
    repo: &Path,
    n: u32,
    out: &Path,
    cache: &Path,
) -> Result<(Duration, u64), String> {
    let m = run_measured(repo, &rod_export_args(n, out)?, cache)?;
    Ok((m.wall, m.peak))
}

/// Runs the release binary with `args` in the repository and measures it.
#[cfg(unix)]
fn run_measured(repo: &Path, args: &[String], cache: &Path) -> Result<Measured, String> {
    use std::process::Command;
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_mofmu"))
        .args(args)
        .current_dir(repo)
        .env("MOFMU_CACHE_DIR", cache)
        .stdout(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("running mofmu: {e}"))?;
    // wait4 instead of Child::wait: it reports the child's own peak RSS
    // and CPU times.
    let mut status = 0;
    // SAFETY: rusage is plain data, and the pid is our own unwaited child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    if waited != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("mofmu {} failed (status {status})", args.join(" ")));
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Ok(Measured {
        wall,
        user: time(usage.ru_utime),
        system: time(usage.ru_stime),
        // ru_maxrss is in KiB on Linux.
        peak: usage.ru_maxrss as u64 * 1024,
    })
}

#[cfg(not(unix))]
fn run_measured(_: &Path, _: &[String], _: &Path) -> Result<Measured, String> {
    Err("the export benchmarks measure memory and CPU time with wait4 (Unix only)".into())
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

fn large_export_group(
    repo: &Path,
    scratch: &Path,
    cache: &Path,
    runs: usize,
) -> Result<(), String> {
    let fmu = |n: u32| scratch.join(format!("RodHeating_large_{n}.fmu"));
    // The first export fills the cache; every size after it reuses the
    // same library.
    let small = scratch.join("RodHeating_5.fmu");
    mofmu_export(repo, 5, &small, cache)?;
    let library = zip_entry(&small, LIBRARY_ENTRY)?;
    let mut rows: Vec<Row> = LARGE_SIZES
        .iter()
        .map(|n| Row::new(&format!("export RodHeating n={n}, warm cache")))
        .collect();
    let mut peaks = vec![0u64; LARGE_SIZES.len()];
    for _ in 0..runs {
        for (i, &n) in LARGE_SIZES.iter().enumerate() {
            let (elapsed, peak) = export_measured(repo, n, &fmu(n), cache)?;
            rows[i].add(elapsed);
            peaks[i] = peaks[i].max(peak);
        }
    }
    print_group("export of large rods (release binary, wall time)", &rows);
    for (i, &n) in LARGE_SIZES.iter().enumerate() {
        let so = zip_entry(&fmu(n), LIBRARY_ENTRY)?;
        let fmu_bytes = std::fs::metadata(fmu(n)).map_err(|e| e.to_string())?.len();
        println!(
            "  n={n}: peak RSS {:.0} MB, .fmu {:.1} MB, .so {:.2} MB, .so identical to n=5: {}",
            peaks[i] as f64 / 1e6,
            fmu_bytes as f64 / 1e6,
            so.len() as f64 / 1e6,
            if so == library { "yes" } else { "NO" }
        );
    }
    let t = |i: usize| rows[i].median().as_secs_f64();
    let last = LARGE_SIZES.len() - 1;
    let exponent = (t(last) / t(0)).ln() / (LARGE_SIZES[last] as f64 / LARGE_SIZES[0] as f64).ln();
    println!("  time growth exponent n=10^4..10^6: {exponent:.3} (bound 1.05)");
    println!(
        "  n=10^6 under {} s: {}; under {:.0} GB: {}",
        LARGE_EXPORT_LIMIT.as_secs(),
        if rows[last].median() < LARGE_EXPORT_LIMIT {
            "yes"
        } else {
            "NO"
        },
        LARGE_EXPORT_MEMORY_LIMIT as f64 / 1e9,
        if peaks[last] < LARGE_EXPORT_MEMORY_LIMIT {
            "yes"
        } else {
            "NO"
        }
    );
    Ok(())
}

/// Export rows with the processes' measures: wall time (median, min ..
/// max), and the medians of user and system CPU time and the largest peak
/// resident memory of the runs.
fn print_measured(title: &str, rows: &[(Row, Vec<Measured>)]) {
    println!("{title}");
    println!(
        "  {:<32} {:>10} {:>10} {:>10} {:>9}   wall (min .. max)",
        "", "wall", "user", "system", "peak"
    );
    let median = |mut v: Vec<Duration>| {
        v.sort();
        let mid = v.len() / 2;
        if v.len() % 2 == 1 {
            v[mid]
        } else {
            (v[mid - 1] + v[mid]) / 2
        }
    };
    for (row, measured) in rows {
        println!(
            "  {:<32} {:>10} {:>10} {:>10} {:>6.0} MB   ({} .. {})",
            row.name,
            show(row.median()),
            show(median(measured.iter().map(|m| m.user).collect())),
            show(median(measured.iter().map(|m| m.system).collect())),
            measured.iter().map(|m| m.peak).max().unwrap_or(0) as f64 / 1e6,
            show(row.min()),
            show(row.max())
        );
    }
}

/// The transmission line's size in the `--line` group and the bound
/// on its warm-cache export.
const LINE_SEGMENTS: u32 = 100_000;
const LINE_EXPORT_LIMIT: Duration = Duration::from_secs(5);

/// The arguments of `mofmu export` of the transmission line with `n`
/// segments (the built-in Base; Planar for the EMF's rotational side).
fn line_export_args(n: u32, out: &Path) -> Result<Vec<String>, String> {
    Ok([
        "export",
        "examples/Signals.mo",
        "examples/Planar",
        "examples/Electrical",
        "--model",
        "Electrical.Examples.TransmissionLine",
        "--set",
        &format!("N={n}"),
        "-o",
        path_arg(out)?,
    ]
    .map(str::to_string)
    .to_vec())
}

/// Issue 58's bar: the transmission line's export at N = 10^5, warm cache.
fn line_group(repo: &Path, scratch: &Path, cache: &Path, runs: usize) -> Result<(), String> {
    let out = scratch.join("TransmissionLine.fmu");
    // Fills the cache: the FMU at any N links the same library.
    run_measured(repo, &line_export_args(1000, &out)?, cache)?;
    let mut rows = vec![(
        Row::new(&format!("export TransmissionLine N={LINE_SEGMENTS}")),
        Vec::new(),
    )];
    for _ in 0..runs {
        let m = run_measured(repo, &line_export_args(LINE_SEGMENTS, &out)?, cache)?;
        rows[0].0.add(m.wall);
        rows[0].1.push(m);
    }
    print_measured(
        "export of the transmission line, warm cache (release binary)",
        &rows,
    );
    let median = rows[0].0.median();
    println!(
        "  .fmu {:.1} MB; median under {} s: {}",
        std::fs::metadata(&out).map_err(|e| e.to_string())?.len() as f64 / 1e6,
        LINE_EXPORT_LIMIT.as_secs(),
        if median < LINE_EXPORT_LIMIT {
            "yes"
        } else {
            "NO"
        }
    );
    Ok(())
}

/// Chain sizes of the component-array group (each element is a conductor
/// and a capacitor: two instances, twelve variables, one state).
const CHAIN_SIZES: &[u32] = &[10_000, 100_000];
/// The bounds: a warm-cache export of the chain at n = 10^5 (on a
/// quiet machine), and the chain's derivatives per state against the rod's.
const CHAIN_EXPORT_LIMIT: Duration = Duration::from_secs(5);
const CHAIN_DERIVATIVES_LIMIT: f64 = 2.0;
const ACC4: &str = "test_data/language/Acc4.mo";

/// The arguments of `mofmu export` of Acc4's chain with `n` elements.
fn chain_export_args(n: u32, out: &Path) -> Result<Vec<String>, String> {
    let mut args = vec!["export".to_string()];
    args.extend(THERMAL.iter().map(|s| s.to_string()));
    args.push(ACC4.to_string());
    args.extend(
        [
            "--model",
            "Acc4.Chain",
            "--set",
            &format!("n={n}"),
            "-o",
            path_arg(out)?,
        ]
        .map(str::to_string),
    );
    Ok(args)
}

/// Issue 21's scale bar for component arrays: the chain's export and its
/// derivatives, each side by side with the rod at the same n.
fn chain_group(repo: &Path, scratch: &Path, cache: &Path, runs: usize) -> Result<(), String> {
    let chain = |n: u32| scratch.join(format!("Chain_{n}.fmu"));
    let rod = |n: u32| scratch.join(format!("RodHeating_chain_{n}.fmu"));
    // Fill the cache: every size after these compiles nothing.
    mofmu(
        repo,
        &chain_export_args(3, &chain(3))?
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        Some(cache),
    )?;
    mofmu_export(repo, 5, &rod(5), cache)?;
    let library = zip_entry(&chain(3), "binaries/linux64/Acc4_Chain.so")?;
    let mut rows: Vec<(Row, Vec<Measured>)> = Vec::new();
    for &n in CHAIN_SIZES {
        rows.push((Row::new(&format!("export Acc4.Chain n={n}")), Vec::new()));
        rows.push((Row::new(&format!("export RodHeating n={n}")), Vec::new()));
    }
    for _ in 0..runs {
        for (i, &n) in CHAIN_SIZES.iter().enumerate() {
            let m = run_measured(repo, &chain_export_args(n, &chain(n))?, cache)?;
            rows[2 * i].0.add(m.wall);
            rows[2 * i].1.push(m);
            let m = run_measured(repo, &rod_export_args(n, &rod(n))?, cache)?;
            rows[2 * i + 1].0.add(m.wall);
            rows[2 * i + 1].1.push(m);
        }
    }
    print_measured(
        "export of the chain and the rod, warm cache (release binary)",
        &rows,
    );
    for (i, &n) in CHAIN_SIZES.iter().enumerate() {
        let so = zip_entry(&chain(n), "binaries/linux64/Acc4_Chain.so")?;
        let ratio = rows[2 * i].0.median().as_secs_f64() / rows[2 * i + 1].0.median().as_secs_f64();
        println!(
            "  n={n}: chain / rod export time = {ratio:.2}; chain .so identical to n=3: {}",
            if so == library { "yes" } else { "NO" }
        );
    }
    let last = 2 * (CHAIN_SIZES.len() - 1);
    println!(
        "  chain n={} under {} s: {}",
        CHAIN_SIZES[CHAIN_SIZES.len() - 1],
        CHAIN_EXPORT_LIMIT.as_secs(),
        if rows[last].0.median() <= CHAIN_EXPORT_LIMIT {
            "yes"
        } else {
            "NO"
        }
    );
    println!();

    // --- Derivatives per state: the chain's FMU, its twin, the rod ------------
    let twin = twins::ChainTwin::build()?;
    let loaded: Vec<(u32, Fmu, Fmu)> = CHAIN_SIZES
        .iter()
        .map(|&n| {
            let c = Fmu::load(&chain(n)).map_err(|e| format!("loading the chain n={n}: {e}"))?;
            let r = Fmu::load(&rod(n)).map_err(|e| format!("loading the rod n={n}: {e}"))?;
            Ok((n, c, r))
        })
        .collect::<Result<_, String>>()?;
    /// One size: the chain's FMU, its twin (derivatives only, and every
    /// variable), the rod's FMU; rows in that order.
    struct Case<'f> {
        chain: Evaluator<'f>,
        rod: Evaluator<'f>,
        out: Vec<f64>,
        variables: Vec<f64>,
        calls: [Option<u32>; 2],
        rows: [Row; 4],
    }
    let mut cases = Vec::new();
    for (n, c, r) in &loaded {
        let mut chain = Evaluator::new(c).map_err(|e| format!("chain n={n}: {e}"))?;
        let states = chain.states.len();
        // Bit identity of the FMU and both twin entries before timing.
        let mut ours = vec![0.0; states];
        chain
            .instance
            .set_continuous_states(&chain.shifted)
            .and_then(|()| chain.instance.get_derivatives(&mut ours))
            .map_err(|e| e.to_string())?;
        let (mut theirs, mut all) = (vec![0.0; states], vec![0.0; states]);
        let mut variables = vec![0.0; twins::CHAIN_VARIABLES * states];
        twin.derivatives(&chain.shifted, &mut theirs);
        twin.all(&chain.shifted, &mut all, &mut variables);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        if bits(&ours) != bits(&theirs) || bits(&ours) != bits(&all) {
            return Err(format!(
                "n={n}: the chain FMU's derivatives differ from the twin's"
            ));
        }
        cases.push(Case {
            chain,
            rod: Evaluator::new(r).map_err(|e| format!("rod n={n}: {e}"))?,
            out: theirs,
            variables,
            calls: [None; 2],
            rows: [
                Row::new(&format!("chain FMU derivatives n={n}")),
                Row::new(&format!("chain twin, derivatives n={n}")),
                Row::new(&format!("chain twin, every variable n={n}")),
                Row::new(&format!("rod FMU derivatives n={n}")),
            ],
        });
    }
    for _ in 0..runs {
        for c in cases.iter_mut() {
            let Case {
                chain,
                rod,
                out,
                variables,
                calls,
                rows,
            } = c;
            rows[0].add(chain.sample()?);
            let (a, b) = (&chain.states, &chain.shifted);
            rows[1].add(sample_calls(&mut calls[0], &mut |odd| {
                twin.derivatives(if odd { b } else { a }, out);
                Ok(())
            })?);
            rows[2].add(sample_calls(&mut calls[1], &mut |odd| {
                twin.all(if odd { b } else { a }, out, variables);
                Ok(())
            })?);
            rows[3].add(rod.sample()?);
        }
    }
    println!(
        "fmi2SetContinuousStates + fmi2GetDerivatives of the chain, against its hand-written C twin \
         (derivatives bit-identical at every size: yes) and the rod's FMU"
    );
    for c in &cases {
        let n = c.chain.states.len() as f64;
        let per_state: Vec<f64> = c
            .rows
            .iter()
            .map(|row| row.median().as_secs_f64() * 1e9 / n)
            .collect();
        for (row, per) in c.rows.iter().zip(&per_state) {
            println!(
                "  {:<40} {:>12.0} ns {:>8.2} ns/state   ({:.0} .. {:.0} ns)",
                row.name,
                row.median().as_secs_f64() * 1e9,
                per,
                row.min().as_secs_f64() * 1e9,
                row.max().as_secs_f64() * 1e9
            );
        }
        let ratio = per_state[0] / per_state[3];
        println!(
            "  n={n}: chain / rod per state = {ratio:.2} (bound {CHAIN_DERIVATIVES_LIMIT}: {}); \
             chain twin (every variable) / rod = {:.2}; chain FMU / twin (every variable) = {:.2}, \
             / twin (derivatives) = {:.2}",
            if ratio <= CHAIN_DERIVATIVES_LIMIT {
                "met"
            } else {
                "NOT met"
            },
            per_state[2] / per_state[3],
            per_state[0] / per_state[2],
            per_state[0] / per_state[1],
        );
    }
    Ok(())
}
