//! How long `check` takes on a large compliant library, run with
//! `cargo bench --bench check` (options after `--`: `--runs N`, default 11;
//! `--lines N`, the size of the generated library, default 10,000;
//! `--baseline PATH`, another `mofmu` binary, e.g. one built from an earlier
//! commit, timed on the same files in the same interleaved runs, with the
//! ratio of the medians; `--watch-edit`, the incremental re-check of
//! `check --watch` instead, see below).
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
//!
//! With `--watch-edit`, the library is loaded into a `CheckSession` (what
//! `check --watch` re-checks through) once per kind of edit, and each run
//! edits it again, alternating two versions of the edited text (a changed
//! literal, an inserted comment line): one example model (a class nothing
//! else uses), one block that some models use, and a comment between two
//! blocks (which moves every class after it and changes only the
//! package's own text). Each re-check is timed, interleaved with a full
//! check of the same library in this process (`load_library` +
//! `check_library`); every result must equal the full check's, and the
//! session's counters must show that only the edited class and the
//! classes that use it were checked again. Freeing the previous check,
//! which `check --watch` does after printing, is timed on its own row. The
//! bench fails if the median re-check after the one-model edit is above
//! 20 ms.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mofmu::library::{check_library, load_library};
use mofmu::session::CheckSession;

const MOFMU: &str = env!("CARGO_BIN_EXE_mofmu");
/// The bound the compliance checker must meet on a 10,000-line library.
const LIMIT: Duration = Duration::from_millis(200);
/// The bound a re-check in `check --watch` must meet after an edit of one
/// class of that library.
const WATCH_LIMIT: Duration = Duration::from_millis(20);

fn main() {
    let baseline = baseline_arg(std::env::args().skip(1));
    let (runs, lines) = match parse_args(std::env::args().skip(1)) {
        Ok(x) => x,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    };
    let watch_edit = std::env::args().any(|a| a == "--watch-edit");
    let outcome = if watch_edit {
        run_watch_edit(runs, lines)
    } else {
        run(runs, lines, baseline.as_deref())
    };
    if let Err(message) = outcome {
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
    let library = generate(lines).text;
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

/// One kind of edit for `--watch-edit`: a session that holds the library,
/// the two versions of the text it alternates between, and the classes a
/// re-check must check again.
struct WatchEdit {
    what: String,
    session: CheckSession,
    versions: [String; 2],
    rechecked: Vec<String>,
    samples: Vec<Duration>,
}

/// `text` with `from` replaced by `to` once, inside the part of the text
/// that starts at `start` (the first occurrence after it).
fn edit_after(text: &str, start: &str, from: &str, to: &str) -> Result<String, String> {
    let at = text
        .find(start)
        .ok_or(format!("`{start}` not in the library"))?;
    let offset = text[at..]
        .find(from)
        .ok_or(format!("`{from}` not after `{start}`"))?;
    let mut out = text.to_string();
    out.replace_range(at + offset..at + offset + from.len(), to);
    Ok(out)
}

fn run_watch_edit(runs: usize, lines: usize) -> Result<(), String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = std::fs::read_to_string(repo.join("examples/Base.mo"))
        .map_err(|e| format!("examples/Base.mo: {e}"))?;
    let generated = generate(lines);
    let library = &generated.text;
    let files = |big: &str| {
        vec![
            ("Base.mo".to_string(), base.clone()),
            ("Big.mo".to_string(), big.to_string()),
        ]
    };
    let full = load_library(files(library));
    if let Some(d) = check_library(&full).first() {
        return Err(format!(
            "the generated library does not check clean: {}",
            d.render_short(&full.sources)
        ));
    }
    let n_classes = full.tree.classes.len();
    drop(full);

    // A model in the middle of the examples (nothing uses a model), the
    // Gain block that most models use, and a comment between two blocks
    // in the middle.
    let gains = &generated.gain_of_example;
    let j = gains.len() / 2;
    let users_of = |g: usize| gains.iter().filter(|&&b| b == g).count();
    let gain = (0..gains.len())
        .map(|k| gains[k])
        .max_by_key(|&g| (users_of(g), std::cmp::Reverse(g)))
        .ok_or("the library has no examples")?;
    let users: Vec<String> = (0..gains.len())
        .filter(|&k| gains[k] == gain)
        .map(|k| format!("Big.Examples.Loop{k}"))
        .collect();
    let middle = gains[j];
    let model = format!("    model Loop{j} ");
    let block = format!("    block Gain{gain} ");
    let between = format!("    block Add{middle} ");
    let mut gain_rechecked = vec![format!("Big.Blocks.Gain{gain}")];
    gain_rechecked.extend(users.iter().cloned());
    let mut edits = vec![
        WatchEdit {
            what: "one model edited".to_string(),
            session: CheckSession::new(),
            versions: [
                edit_after(library, &model, "controller(k = 3)", "controller(k = 4)")?,
                edit_after(
                    library,
                    &model,
                    "    equation\n",
                    "      // edited\n    equation\n",
                )?,
            ],
            rechecked: vec![format!("Big.Examples.Loop{j}")],
            samples: Vec::new(),
        },
        WatchEdit {
            what: format!("a block that {} models use edited", users.len()),
            session: CheckSession::new(),
            versions: [
                edit_after(library, &block, "y = k*u;", "y = 2*k*u;")?,
                edit_after(
                    library,
                    &block,
                    "    equation\n",
                    "      // edited\n    equation\n",
                )?,
            ],
            rechecked: gain_rechecked,
            samples: Vec::new(),
        },
        WatchEdit {
            what: "a comment between blocks".to_string(),
            session: CheckSession::new(),
            versions: [
                edit_after(
                    library,
                    &between,
                    &between,
                    &format!("    // one\n{between}"),
                )?,
                edit_after(
                    library,
                    &between,
                    &between,
                    &format!("    // two\n{between}"),
                )?,
            ],
            rechecked: vec!["Big.Blocks".to_string()],
            samples: Vec::new(),
        },
    ];
    for e in &mut edits {
        if !e.session.check(files(library), true).is_empty() {
            return Err("the session's first check is not clean".into());
        }
        e.session.release_previous();
    }

    let mut full_samples = Vec::new();
    let mut release_samples = Vec::new();
    for run in 0..runs {
        let started = Instant::now();
        let lib = load_library(files(library));
        let diags = check_library(&lib);
        full_samples.push(started.elapsed());
        assert!(diags.is_empty());
        drop(lib);
        for e in &mut edits {
            let text = &e.versions[run % 2];
            let started = Instant::now();
            let incremental = e.session.check(files(text), true);
            e.samples.push(started.elapsed());
            let started = Instant::now();
            e.session.release_previous();
            release_samples.push(started.elapsed());
            let expected = check_library(&load_library(files(text)));
            if incremental != expected {
                return Err(format!(
                    "after an edit of {}, the re-check gave {} diagnostics, a full check {}",
                    e.what,
                    incremental.len(),
                    expected.len()
                ));
            }
            if e.session.stats().rechecked != e.rechecked {
                return Err(format!(
                    "after an edit of {}, the session checked {:?} again, expected {:?}",
                    e.what,
                    e.session.stats().rechecked,
                    e.rechecked
                ));
            }
        }
    }
    println!(
        "mofmu check --watch on a generated library of {} lines ({n_classes} classes): median of {runs} interleaved runs (min .. max)",
        library.lines().count()
    );
    let (_, full) = summary(&mut full_samples);
    println!("  {:<56}{full}", "full check, in process");
    let mut one_model = Duration::ZERO;
    for (k, e) in edits.iter_mut().enumerate() {
        let (median, text) = summary(&mut e.samples);
        if k == 0 {
            one_model = median;
        }
        let n = e.rechecked.len();
        let label = format!(
            "re-check, {} ({n} class{})",
            e.what,
            if n == 1 { "" } else { "es" }
        );
        println!("  {label:<56}{text}");
    }
    let (_, release) = summary(&mut release_samples);
    println!(
        "  {:<56}{release}",
        "freeing the previous check, after output"
    );
    let ok = one_model < WATCH_LIMIT;
    println!(
        "  one-model re-check under {} ms: {}",
        WATCH_LIMIT.as_millis(),
        if ok { "yes" } else { "no" }
    );
    if ok {
        Ok(())
    } else {
        Err("the re-check after a one-class edit is slower than the bound".into())
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

/// A generated library: its text, and for each example model (`Loop{j}`)
/// the number of the `Gain` block it uses.
struct Generated {
    text: String,
    gain_of_example: Vec<usize>,
}

/// A compliant library of about `lines` lines. Every block kind appears
/// many times under numbered names, and each example connects a few of
/// them, so the checker does the work it does on a real library: name
/// lookup without look-ahead, elaboration, causalisation, units and the
/// system check of every model.
fn generate(lines: usize) -> Generated {
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
    let mut groups = 0;
    let mut gain_of_example = Vec::new();
    while 10 + blocks.lines().count() + examples.lines().count() < lines {
        block_group(&mut blocks, groups);
        groups += 1;
        while examples.lines().count() * 4 < blocks.lines().count() {
            gain_of_example.push(example(&mut examples, gain_of_example.len(), groups));
        }
    }
    let _ = writeln!(w, "  package Blocks \"Sources and continuous blocks\"");
    w.push_str(&blocks);
    let _ = writeln!(w, "  end Blocks;");
    let _ = writeln!(w, "  package Examples \"Control loops of the blocks\"");
    w.push_str(&examples);
    let _ = writeln!(w, "  end Examples;");
    let _ = writeln!(w, "end Big;");
    Generated {
        text: out,
        gain_of_example,
    }
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

/// The `j`-th example, made of blocks of the first `groups` groups;
/// returns the number of the `Gain` block it uses.
fn example(w: &mut String, j: usize, groups: usize) -> usize {
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
    b
}
