//! How long `check` takes on a large compliant library, run with
//! `cargo bench --bench check` (options after `--`: `--runs N`, default 11;
//! `--lines N`, the size of the generated library, default 10,000;
//! `--baseline PATH`, another `mofmu` binary, e.g. one built from an earlier
//! commit, timed on the same files in the same interleaved runs, with the
//! ratio of the medians).
//!
//! The library is generated in the style of `examples/Signals.mo`: an
//! encapsulated package with connectors, then sources and continuous blocks
//! (gains, sums, first-order lags, integrators, PI controllers, with states,
//! units and descriptions), then example models that connect them in
//! chains with fan-out and feedback. It is loaded after `examples/Base.mo`.
//!
//! Two rows, each the median of the runs (fastest and slowest beside it),
//! interleaved: `load_library` + `check_library` in this process, and the
//! release binary `mofmu check` end to end (process start, reading the
//! files and printing included). The bench fails if the library does not
//! check clean or if either median is above the issue's bound of 200 ms.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mofmu::export::{check_library, load_library};

const MOFMU: &str = env!("CARGO_BIN_EXE_mofmu");
/// The bound the compliance checker must meet on a 10,000-line library.
const LIMIT: Duration = Duration::from_millis(200);

fn main() {
    let baseline = baseline_arg(std::env::args().skip(1));
    let (runs, lines) = match parse_args(std::env::args().skip(1)) {
        Ok(x) => x,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    };
    if let Err(message) = run(runs, lines, baseline.as_deref()) {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

/// `--baseline PATH`, if given.
fn baseline_arg(mut args: impl Iterator<Item = String>) -> Option<std::path::PathBuf> {
    while let Some(arg) = args.next() {
        if arg == "--baseline" {
            return args.next().map(Into::into);
        }
    }
    None
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<(usize, usize), String> {
    let (mut runs, mut lines) = (11, 10_000);
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let target = match arg.as_str() {
            "--runs" => &mut runs,
            "--lines" => &mut lines,
            _ => continue,
        };
        let value = args.next().ok_or(format!("{arg} needs a number"))?;
        *target = value
            .parse()
            .ok()
            .filter(|&n: &usize| n > 0)
            .ok_or(format!("{arg} {value}: expected a positive whole number"))?;
    }
    Ok((runs, lines))
}

fn time_cli(binary: &Path, base: &Path, big: &Path) -> Result<Duration, String> {
    let started = Instant::now();
    let status = Command::new(binary)
        .args(["check", "--message-format", "short"])
        .arg(base)
        .arg(big)
        .status()
        .map_err(|e| format!("running {}: {e}", binary.display()))?;
    let elapsed = started.elapsed();
    if status.success() {
        Ok(elapsed)
    } else {
        Err(format!("{} check exited with {status}", binary.display()))
    }
}

fn run(runs: usize, lines: usize, baseline: Option<&Path>) -> Result<(), String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = std::fs::read_to_string(repo.join("examples/Base.mo"))
        .map_err(|e| format!("examples/Base.mo: {e}"))?;
    let library = generate(lines);
    let n_lines = library.lines().count();
    let files = vec![
        ("Base.mo".to_string(), base.clone()),
        ("Big.mo".to_string(), library.clone()),
    ];

    // The library must be compliant, or the bench would time error paths.
    let lib = load_library(files.clone());
    let diags = check_library(&lib);
    if let Some(d) = diags.first() {
        return Err(format!(
            "the generated library has {} diagnostics, first: {}",
            diags.len(),
            d.render_short(&lib.sources)
        ));
    }
    let n_classes = lib.tree.classes.len();

    let scratch = tempfile::tempdir().map_err(|e| format!("temporary directory: {e}"))?;
    let base_path = scratch.path().join("Base.mo");
    let big_path = scratch.path().join("Big.mo");
    std::fs::write(&base_path, &base).map_err(|e| e.to_string())?;
    std::fs::write(&big_path, &library).map_err(|e| e.to_string())?;

    let mut in_process = Vec::new();
    let mut cli = Vec::new();
    let mut baseline_cli = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let lib = load_library(files.clone());
        let diags = check_library(&lib);
        in_process.push(started.elapsed());
        assert!(diags.is_empty());

        cli.push(time_cli(Path::new(MOFMU), &base_path, &big_path)?);
        if let Some(binary) = baseline {
            baseline_cli.push(time_cli(binary, &base_path, &big_path)?);
        }
    }
    println!(
        "mofmu check on a generated library of {n_lines} lines ({n_classes} classes): median of {runs} interleaved runs (min .. max)"
    );
    let in_process = summary(&mut in_process);
    let cli = summary(&mut cli);
    println!(
        "  load_library + check_library, in process {}",
        in_process.1
    );
    println!("  mofmu check, release binary, wall time   {}", cli.1);
    if let Some(binary) = baseline {
        let base = summary(&mut baseline_cli);
        println!("  baseline {}, wall time {}", binary.display(), base.1);
        println!(
            "  baseline / this binary = {:.2}",
            base.0.as_secs_f64() / cli.0.as_secs_f64()
        );
    }
    let ok = in_process.0 < LIMIT && cli.0 < LIMIT;
    println!(
        "  both under {} ms: {}",
        LIMIT.as_millis(),
        if ok { "yes" } else { "no" }
    );
    if ok {
        Ok(())
    } else {
        Err("check is slower than the bound".into())
    }
}

/// The median, and a printable "median (min .. max)".
fn summary(samples: &mut [Duration]) -> (Duration, String) {
    samples.sort();
    let median = samples[samples.len() / 2];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let text = format!(
        "{:8.1} ms   ({:.1} ms .. {:.1} ms)",
        ms(median),
        ms(samples[0]),
        ms(samples[samples.len() - 1])
    );
    (median, text)
}

/// A compliant library of about `lines` lines. Every block kind appears
/// many times under numbered names, and each example connects a few of
/// them, so the checker does the work it does on a real library: name
/// lookup without look-ahead, elaboration, causalisation, units and the
/// system check of every model.
fn generate(lines: usize) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "// Generated for the check benchmark.");
    let _ = writeln!(w, "encapsulated package Big \"A large generated library\"");
    let _ = writeln!(w, "  import B = Base;");
    let _ = writeln!(w, "  import SI = Base.Units;");
    let _ = writeln!(w, "  package Interfaces \"Signal connectors\"");
    let _ = writeln!(w, "    connector RealInput = input Real;");
    let _ = writeln!(w, "    connector RealOutput = output Real;");
    let _ = writeln!(w, "  end Interfaces;");
    // Blocks and examples are generated in step (about four lines of
    // blocks to one of examples) until the library has `lines` lines; an
    // example uses only blocks generated before it.
    let mut blocks = String::new();
    let mut examples = String::new();
    let (mut groups, mut n_examples) = (0, 0);
    while 10 + blocks.lines().count() + examples.lines().count() < lines {
        block_group(&mut blocks, groups);
        groups += 1;
        while examples.lines().count() * 4 < blocks.lines().count() {
            example(&mut examples, n_examples, groups);
            n_examples += 1;
        }
    }
    let _ = writeln!(w, "  package Blocks \"Sources and continuous blocks\"");
    w.push_str(&blocks);
    let _ = writeln!(w, "  end Blocks;");
    let _ = writeln!(w, "  package Examples \"Control loops of the blocks\"");
    w.push_str(&examples);
    let _ = writeln!(w, "  end Examples;");
    let _ = writeln!(w, "end Big;");
    out
}

fn block_group(w: &mut String, i: usize) {
    let k = 1 + i % 7;
    let _ = write!(
        w,
        r#"
    block Sine{i} "Sine wave number {i}"
      parameter Real amplitude = {k} "Amplitude";
      parameter SI.Frequency freqHz = 0.5 "Frequency";
      parameter Real offset = 0 "Mean value";
      Interfaces.RealOutput y "Sine signal";
    protected
      parameter Real omega = 2*3.141592653589793*freqHz "Angular frequency";
    equation
      y = offset + amplitude*sin(omega*time);
    end Sine{i};
    block Gain{i} "Gain number {i}"
      parameter Real k(unit = "1") = {k} "Gain";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Amplified signal";
    equation
      y = k*u;
    end Gain{i};
    block Add{i} "Weighted sum number {i}"
      parameter Real k1(unit = "1") = 1 "Weight of u1";
      parameter Real k2(unit = "1") = -1 "Weight of u2";
      Interfaces.RealInput u1 "First input";
      Interfaces.RealInput u2 "Second input";
      Interfaces.RealOutput y "k1*u1 + k2*u2";
    equation
      y = k1*u1 + k2*u2;
    end Add{i};
    block FirstOrder{i} "First-order lag number {i}"
      parameter Real k = 1 "Static gain";
      parameter SI.Time T = 0.{k} "Time constant";
      Interfaces.RealInput u "Input signal";
      Interfaces.RealOutput y "Lagged signal";
      B.ContinuousState x(start = 0) "Lag state";
    equation
      y = x;
      der(x) = (k*u - x)/T;
    end FirstOrder{i};
    block PI{i} "PI controller number {i}"
      parameter Real k = {k} "Proportional gain";
      parameter SI.Time T = 1 "Integral time constant";
      Interfaces.RealInput u "Control error";
      Interfaces.RealOutput y "Control signal";
      B.ContinuousState x(start = 0) "Integrated error over T";
    equation
      der(x) = u/T;
      y = k*(x + u);
    end PI{i};
"#
    );
}

/// The `j`-th example, made of blocks of the first `groups` groups.
fn example(w: &mut String, j: usize, groups: usize) {
    let (a, b, c) = (j % groups, (j * 7 + 3) % groups, (j * 13 + 5) % groups);
    let _ = write!(
        w,
        r#"
    model Loop{j} "PI control of a lag, with a gained sine as setpoint"
      Blocks.Sine{a} setpoint(amplitude = 2);
      Blocks.Gain{b} scale(k = 0.5);
      Blocks.Add{c} error;
      Blocks.PI{a} controller(k = 3);
      Blocks.FirstOrder{b} plant(T = 2);
    equation
      connect(setpoint.y, scale.u);
      connect(scale.y, error.u1);
      connect(error.y, controller.u);
      connect(controller.y, plant.u);
      connect(plant.y, error.u2);
    end Loop{j};
"#
    );
}
