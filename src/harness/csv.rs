//! Writing a result as CSV in the shape FMPy writes: a header of double-quoted names,
//! then one row of numbers per output point.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use super::error::HarnessError;
use super::result::SimResult;

impl SimResult {
    /// Writes the result as CSV (header of double-quoted names, full-precision numbers).
    pub fn write_csv(&self, path: &Path) -> Result<(), HarnessError> {
        write_csv(self, path)
    }

    /// The CSV text that [`SimResult::write_csv`] writes.
    pub fn to_csv(&self) -> String {
        to_csv(self)
    }
}

/// Renders the whole CSV text.
pub fn to_csv(result: &SimResult) -> String {
    let mut text = String::new();
    let header: Vec<String> = result
        .names
        .iter()
        .map(|name| format!("\"{}\"", name.replace('"', "\"\"")))
        .collect();
    text.push_str(&header.join(","));
    text.push('\n');
    for row in &result.rows {
        for (i, value) in row.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            write_number(&mut text, *value);
        }
        text.push('\n');
    }
    text
}

pub fn write_csv(result: &SimResult, path: &Path) -> Result<(), HarnessError> {
    fs::write(path, to_csv(result)).map_err(|source| HarnessError::WriteCsv {
        path: path.to_path_buf(),
        source,
    })
}

/// Shortest text that reads back to the same `f64` (Rust's formatting guarantees the
/// round trip), in plain notation for ordinary magnitudes and exponent notation
/// otherwise; Python's `float()` parses both, and `nan`/`inf` too.
fn write_number(text: &mut String, value: f64) {
    let magnitude = value.abs();
    let result = if value == 0.0 || (1e-5..1e16).contains(&magnitude) || !value.is_finite() {
        write!(text, "{value}")
    } else {
        write!(text, "{value:e}")
    };
    // Writing into a String cannot fail.
    debug_assert!(result.is_ok());
}
