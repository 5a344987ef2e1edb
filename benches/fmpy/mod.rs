//! A long-lived Python process that runs FMPy's `simulate_fmu` with CVode on
//! request and answers with the seconds the call took, shared by the
//! `pipeline` and `simulate` benches (interpreter start-up and `import fmpy`
//! are paid once, outside every timed call).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// What one FMPy run is asked to do.
pub struct Run<'a> {
    pub stop_time: f64,
    pub output_interval: f64,
    pub tolerance: f64,
    /// Comma-separated variables to record; empty records FMPy's default.
    pub output: &'a str,
}

/// A long-lived Python process that runs FMPy's `simulate_fmu` on request
/// and answers with the seconds the call took.
pub struct FmPy {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

const FMPY_SERVER: &str = r#"
import sys, time
from fmpy import simulate_fmu
print("ready", flush=True)
for line in sys.stdin:
    fmu, stop, interval, rtol, output = line.rstrip("\n").split("\t")
    try:
        started = time.perf_counter()
        simulate_fmu(fmu, validate=False, fmi_type="ModelExchange", solver="CVode",
                     relative_tolerance=float(rtol), start_time=0.0,
                     stop_time=float(stop), output_interval=float(interval),
                     output=output.split(",") if output else None)
        print("ok\t%r" % (time.perf_counter() - started), flush=True)
    except Exception as e:
        print("error\t%s" % str(e).replace("\n", " "), flush=True)
"#;

impl FmPy {
    /// Starts the server, or says why FMPy is not available.
    pub fn start(repo: &Path) -> Result<FmPy, String> {
        let python = match std::env::var_os("MOFMU_BENCH_PYTHON") {
            Some(p) => PathBuf::from(p),
            None => {
                let venv = repo.join(".venv/bin/python");
                if !venv.exists() {
                    return Err(
                        "no .venv/bin/python (run scripts/test-all once, or set MOFMU_BENCH_PYTHON)"
                            .to_string(),
                    );
                }
                venv
            }
        };
        let mut child = Command::new(&python)
            .args(["-c", FMPY_SERVER])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", python.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout pipe")?);
        let mut fmpy = FmPy {
            child,
            stdin,
            stdout,
        };
        let mut line = String::new();
        let ready = fmpy.stdout.read_line(&mut line).is_ok() && line.trim() == "ready";
        if !ready {
            let mut stderr = String::new();
            if let Some(mut pipe) = fmpy.child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
            }
            let last = stderr.lines().last().unwrap_or("no message").to_string();
            return Err(format!("{} cannot import fmpy: {last}", python.display()));
        }
        Ok(fmpy)
    }

    /// Runs FMPy on `fmu` and returns the time `simulate_fmu` took.
    pub fn simulate(&mut self, fmu: &Path, run: &Run) -> Result<Duration, String> {
        let path = fmu
            .to_str()
            .ok_or_else(|| format!("{} is not UTF-8", fmu.display()))?;
        writeln!(
            self.stdin,
            "{path}\t{}\t{}\t{}\t{}",
            run.stop_time, run.output_interval, run.tolerance, run.output
        )
        .and_then(|()| self.stdin.flush())
        .map_err(|e| format!("talking to FMPy: {e}"))?;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading from FMPy: {e}"))?;
        match line.trim_end().split_once('\t') {
            Some(("ok", seconds)) => seconds
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(Duration::from_secs_f64)
                .ok_or(format!("FMPy answered {line:?}")),
            Some(("error", message)) => Err(format!("FMPy failed on {}: {message}", fmu.display())),
            _ => Err(format!("FMPy answered {line:?}")),
        }
    }
}

impl Drop for FmPy {
    fn drop(&mut self) {
        // The server only waits for the next request: end it, and wait so
        // that no zombie is left.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
