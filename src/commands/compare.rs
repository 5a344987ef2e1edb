//! `mofmu compare`: a result against a reference, inside csv-compare's tube.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

#[derive(Args)]
pub struct CompareArgs {
    /// The reference CSV (`;` or `,`, a time column `time`, `t` or `Time`).
    reference: PathBuf,
    /// The result CSV to check.
    result: PathBuf,
    /// Width of the tube relative to the time span (csv-compare's -t).
    #[arg(long, default_value_t = mofmu::compare::DEFAULT_TOLERANCE)]
    tolerance: f64,
    /// Compare only these signals (one name per line); default: every
    /// signal of the reference.
    #[arg(long, value_name = "FILE")]
    signals: Option<PathBuf>,
    /// Write summary.json, index.html and one SVG per signal here
    /// (default: no report).
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Write the JSON summary to this file (`-` for standard output;
    /// default: none).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// `mofmu compare` ([`compare`]).
pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let CompareArgs {
        reference,
        result,
        tolerance,
        signals,
        report,
        json,
    } = args;
    compare(&reference, &result, tolerance, signals, report, json)
}

/// `mofmu compare`: exit 0 when every signal passes, 1 when one fails, 2
/// when an input cannot be read or the report cannot be written.
fn compare(
    reference_path: &std::path::Path,
    result_path: &std::path::Path,
    tolerance: f64,
    signals: Option<PathBuf>,
    report: Option<PathBuf>,
    json: Option<PathBuf>,
) -> Result<ExitCode> {
    use mofmu::compare::{self, report as files};
    if !(tolerance > 0.0 && tolerance <= 1.0) {
        bail!("--tolerance {tolerance}: the tube width is relative to the time span, in (0, 1]");
    }
    let reference = files::read_table(reference_path)?;
    let result = files::read_table(result_path)?;
    let signals = signals.map(|p| files::read_signal_list(&p)).transpose()?;
    let reports = compare::compare(&reference, &result, signals.as_deref(), tolerance);
    let summary = compare::summarize(
        &reference_path.display().to_string(),
        &result_path.display().to_string(),
        tolerance,
        reports,
    );
    for s in &summary.signals {
        if s.passed {
            println!("pass  {} ({} points checked)", s.name, s.checked);
        } else if s.outliers > 0 {
            println!(
                "FAIL  {}: {} of {} points outside the tube, first at t = {}, largest violation {} at t = {}",
                s.name,
                s.outliers,
                s.checked,
                s.first_failure_time.unwrap_or(f64::NAN),
                s.largest_violation.map_or_else(|| "not a number".to_string(), |v| format!("{v:e}")),
                s.largest_violation_time.unwrap_or(f64::NAN),
            );
        } else {
            println!("FAIL  {}: {}", s.name, s.verdict.describe());
        }
    }
    println!(
        "compare: {} of {} signals passed (tolerance {})",
        summary.signals_passed,
        summary.signals.len(),
        tolerance
    );
    if let Some(dir) = &report {
        files::write_report(dir, &summary, &reference, &result)?;
        println!("report -> {}", dir.join("index.html").display());
    }
    match json.as_deref() {
        Some(p) if p == std::path::Path::new("-") => println!("{}", summary.to_json()),
        Some(p) => std::fs::write(p, summary.to_json())
            .with_context(|| format!("writing {}", p.display()))?,
        None => {}
    }
    Ok(if summary.passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
