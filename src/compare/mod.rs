//! `mofmu compare`: a result against a reference, signal by signal, inside
//! csv-compare's tube (see [`tube`]), with a verdict per signal and a
//! summary that serialises to JSON.
//!
//! [`table`] reads the CSV files, [`tube`] builds the tube and checks
//! points, [`plot`] draws a signal's reference, tube, result and error (and
//! any result for `mofmu simulate --plot`), [`report`] writes the report
//! directory. Everything but [`report`] and the file-writing functions of
//! [`plot`] works on text and numbers only.

pub mod plot;
pub mod report;
pub mod table;
pub mod tube;

use serde::Serialize;

pub use table::{parse_signal_list, parse_table, Table, TableError};
pub use tube::{Tube, TubeSize};

/// csv-compare's default tube width: 0.2 % of the time span.
pub const DEFAULT_TOLERANCE: f64 = 0.002;

/// The outcome of one signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every result point within the tube's span lies inside it.
    Pass,
    /// Some result points lie outside the tube.
    OutsideTube,
    /// The signal is in the reference (or the signal list) but not in the
    /// result.
    MissingInResult,
    /// The signal is in the signal list but not in the reference.
    MissingInReference,
    /// The result does not cover the reference's time span.
    ShortResult,
    /// The reference spans no time or holds a non-finite value, so it has
    /// no tube.
    InvalidReference,
}

impl Verdict {
    pub fn passed(self) -> bool {
        self == Verdict::Pass
    }

    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::OutsideTube => "outside the tube",
            Verdict::MissingInResult => "missing in the result",
            Verdict::MissingInReference => "missing in the reference",
            Verdict::ShortResult => "the result does not cover the reference's time span",
            Verdict::InvalidReference => {
                "the reference has no tube (no time span, or a value that is not finite)"
            }
        }
    }
}

/// One signal's verdict and figures. Times and values are `null` in JSON
/// where they do not apply (or are not finite).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignalReport {
    pub name: String,
    pub verdict: Verdict,
    pub passed: bool,
    /// Result samples in all, and those inside the tube's time span.
    pub points: usize,
    pub checked: usize,
    /// Result samples outside the tube.
    pub outliers: usize,
    /// The largest distance of a result sample from the tube, and when.
    pub largest_violation: Option<f64>,
    pub largest_violation_time: Option<f64>,
    /// The first time a result sample lies outside the tube.
    pub first_failure_time: Option<f64>,
    /// The tube's half-width (time) and half-height (value).
    pub tube_half_width: Option<f64>,
    pub tube_half_height: Option<f64>,
}

/// All signals, and whether they all passed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub reference: String,
    pub result: String,
    pub tolerance: f64,
    pub passed: bool,
    pub signals_passed: usize,
    pub signals_failed: usize,
    pub signals: Vec<SignalReport>,
}

impl Summary {
    pub fn to_json(&self) -> String {
        // Serialising plain data into a String cannot fail.
        serde_json::to_string_pretty(self).expect("a summary serialises")
    }
}

/// Compares `result` with `reference` for every signal of the reference,
/// or for `signals` when given. `tolerance` is the tube's relative width
/// (0.002 in csv-compare).
pub fn compare(
    reference: &Table,
    result: &Table,
    signals: Option<&[String]>,
    tolerance: f64,
) -> Vec<SignalReport> {
    let names: Vec<String> = match signals {
        Some(list) => list.to_vec(),
        None => reference.names.clone(),
    };
    names
        .iter()
        .map(|name| compare_signal(name, reference, result, tolerance))
        .collect()
}

/// Puts reports together into a [`Summary`].
pub fn summarize(
    reference: &str,
    result: &str,
    tolerance: f64,
    signals: Vec<SignalReport>,
) -> Summary {
    let signals_passed = signals.iter().filter(|s| s.passed).count();
    Summary {
        reference: reference.to_string(),
        result: result.to_string(),
        tolerance,
        passed: signals_passed == signals.len(),
        signals_passed,
        signals_failed: signals.len() - signals_passed,
        signals,
    }
}

/// Result samples outside the tube: time, value and distance from the tube
/// (infinite for a value that is not a number).
pub fn outliers(tube: &Tube<'_>, time: &[f64], values: &[f64]) -> Vec<(f64, f64, f64)> {
    time.iter()
        .zip(values)
        .filter_map(|(&t, &y)| {
            let (low, high) = tube.bounds(t)?;
            let distance = violation(y, low, high);
            (distance > 0.0).then_some((t, y, distance))
        })
        .collect()
}

/// How far `y` lies outside `[low, high]`; infinite for NaN.
pub(crate) fn violation(y: f64, low: f64, high: f64) -> f64 {
    if y.is_nan() {
        f64::INFINITY
    } else if y < low {
        low - y
    } else if y > high {
        y - high
    } else {
        0.0
    }
}

fn compare_signal(name: &str, reference: &Table, result: &Table, tolerance: f64) -> SignalReport {
    let mut report = SignalReport {
        name: name.to_string(),
        verdict: Verdict::Pass,
        passed: false,
        points: 0,
        checked: 0,
        outliers: 0,
        largest_violation: None,
        largest_violation_time: None,
        first_failure_time: None,
        tube_half_width: None,
        tube_half_height: None,
    };
    let Some(reference_values) = reference.column(name) else {
        report.verdict = Verdict::MissingInReference;
        return report;
    };
    let Some(result_values) = result.column(name) else {
        report.verdict = Verdict::MissingInResult;
        return report;
    };
    report.points = result_values.len();
    let Some(tube) = Tube::new(&reference.time, reference_values, tolerance) else {
        report.verdict = Verdict::InvalidReference;
        return report;
    };
    report.tube_half_width = Some(tube.size.half_width);
    report.tube_half_height = Some(tube.size.half_height);
    report.checked = result
        .time
        .iter()
        .filter(|&&t| tube.bounds(t).is_some())
        .count();
    let outside = outliers(&tube, &result.time, result_values);
    report.outliers = outside.len();
    report.first_failure_time = outside.first().map(|o| o.0);
    if let Some(worst) = outside.iter().max_by(|a, b| a.2.total_cmp(&b.2)) {
        report.largest_violation = Some(worst.2).filter(|v| v.is_finite());
        report.largest_violation_time = Some(worst.0);
    }
    // A result that stops early (or starts late) would otherwise pass on
    // the part it has; it must reach the reference's ends within the tube's
    // half-width.
    let (first, last) = (result.time[0], result.time[result.time.len() - 1]);
    let (ref_first, ref_last) = (reference.time[0], reference.time[reference.time.len() - 1]);
    let reach = tube.size.half_width;
    report.verdict = if !outside.is_empty() {
        Verdict::OutsideTube
    } else if first > ref_first + reach || last < ref_last - reach {
        Verdict::ShortResult
    } else {
        Verdict::Pass
    };
    report.passed = report.verdict.passed();
    report
}
