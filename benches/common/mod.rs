//! What the `pipeline` and `simulate` benches share: the `--runs` option,
//! rows of interleaved samples with their median, and running the release
//! binary on the repository's examples.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const MOFMU: &str = env!("CARGO_BIN_EXE_mofmu");
const ROD_HEATING: &str = "Thermal.Examples.RodHeating";
pub const THERMAL: &[&str] = &["examples/Base.mo", "examples/Thermal"];

/// A bench's `main`: reads `--runs N` (exit status 2 when malformed) and
/// runs `run` with it (exit status 1 and its message when it fails).
pub fn bench_main(run: fn(usize) -> Result<(), String>) {
    let runs = match parse_runs(std::env::args().skip(1)) {
        Ok(runs) => runs,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    };
    if let Err(message) = run(runs) {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

pub fn parse_runs(args: impl Iterator<Item = String>) -> Result<usize, String> {
    let mut runs = 5;
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            let value = args.next().ok_or("--runs needs a number")?;
            runs = value
                .parse()
                .ok()
                .filter(|&n: &usize| n > 0)
                .ok_or(format!("--runs {value}: expected a positive whole number"))?;
        }
    }
    Ok(runs)
}

/// The timings of one benchmark.
#[derive(Clone)]
pub struct Row {
    pub name: String,
    samples: Vec<Duration>,
}

impl Row {
    pub fn new(name: &str) -> Row {
        Row {
            name: name.to_string(),
            samples: Vec::new(),
        }
    }

    pub fn add(&mut self, sample: Duration) {
        self.samples.push(sample);
    }

    pub fn sorted(&self) -> Vec<Duration> {
        let mut sorted = self.samples.clone();
        sorted.sort();
        sorted
    }

    /// The middle sample, or the mean of the two middle ones.
    pub fn median(&self) -> Duration {
        let sorted = self.sorted();
        let mid = sorted.len() / 2;
        if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2
        }
    }

    pub fn min(&self) -> Duration {
        self.sorted().first().copied().unwrap_or_default()
    }

    pub fn max(&self) -> Duration {
        self.sorted().last().copied().unwrap_or_default()
    }
}

pub fn show(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1e3)
    } else {
        format!("{ms:.1} ms")
    }
}

pub fn time(f: impl FnOnce() -> Result<(), String>) -> Result<Duration, String> {
    let started = Instant::now();
    f()?;
    Ok(started.elapsed())
}

/// Runs the binary in the repository root; fails with its stderr.
pub fn mofmu(repo: &Path, args: &[&str], cache: Option<&Path>) -> Result<(), String> {
    let mut command = Command::new(MOFMU);
    command.args(args).current_dir(repo);
    if let Some(cache) = cache {
        command.env("MOFMU_CACHE_DIR", cache);
    }
    let output = command
        .output()
        .map_err(|e| format!("running {MOFMU}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "mofmu {} failed ({}):\n{}{}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

pub fn mofmu_export(repo: &Path, n: u32, out: &Path, cache: &Path) -> Result<(), String> {
    let args = rod_export_args(n, out)?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    mofmu(repo, &args, Some(cache))
}

/// The arguments of `mofmu export` of the rod with `n` volumes into `out`.
pub fn rod_export_args(n: u32, out: &Path) -> Result<Vec<String>, String> {
    let mut args = vec!["export".to_string()];
    args.extend(THERMAL.iter().map(|s| s.to_string()));
    args.extend(
        [
            "--model",
            ROD_HEATING,
            "--set",
            &format!("rod.n={n}"),
            "-o",
            path_arg(out)?,
        ]
        .map(str::to_string),
    );
    Ok(args)
}

pub fn path_arg(path: &Path) -> Result<&str, String> {
    path.to_str()
        .ok_or_else(|| format!("{} is not UTF-8", path.display()))
}
