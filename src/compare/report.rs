//! The file side of `mofmu compare`: reading the two CSV files and the
//! signal list, and writing the report directory (`summary.json`,
//! `index.html` and one SVG per signal).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::plot::{signal_svg, PlotError};
use super::table::{parse_signal_list, parse_table, Table, TableError};
use super::tube::Tube;
use super::Summary;

#[derive(Debug, Error)]
pub enum CompareError {
    #[error("cannot read {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not UTF-8 text")]
    NotText { path: PathBuf },
    #[error("{path}: {source}")]
    Table {
        path: PathBuf,
        #[source]
        source: TableError,
    },
    #[error("{path} names no signal")]
    NoSignals { path: PathBuf },
    #[error("cannot write the report in {path}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("plotting {signal}: {source}")]
    Plot {
        signal: String,
        #[source]
        source: PlotError,
    },
}

/// Reads and parses one CSV file.
pub fn read_table(path: &Path) -> Result<Table, CompareError> {
    let text = read_text(path)?;
    parse_table(&text).map_err(|source| CompareError::Table {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a signal list (one name per line).
pub fn read_signal_list(path: &Path) -> Result<Vec<String>, CompareError> {
    let names = parse_signal_list(&read_text(path)?);
    if names.is_empty() {
        return Err(CompareError::NoSignals {
            path: path.to_path_buf(),
        });
    }
    Ok(names)
}

fn read_text(path: &Path) -> Result<String, CompareError> {
    let bytes = fs::read(path).map_err(|source| CompareError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|_| CompareError::NotText {
        path: path.to_path_buf(),
    })
}

/// Writes `summary.json`, `index.html` and one SVG per signal that has a
/// tube into `dir` (created if needed).
pub fn write_report(
    dir: &Path,
    summary: &Summary,
    reference: &Table,
    result: &Table,
) -> Result<(), CompareError> {
    let write_error = |source| CompareError::Write {
        path: dir.to_path_buf(),
        source,
    };
    fs::create_dir_all(dir).map_err(write_error)?;
    let mut plots: Vec<Option<String>> = Vec::new();
    for (index, signal) in summary.signals.iter().enumerate() {
        let (Some(reference_values), Some(result_values)) =
            (reference.column(&signal.name), result.column(&signal.name))
        else {
            plots.push(None);
            continue;
        };
        let Some(tube) = Tube::new(&reference.time, reference_values, summary.tolerance) else {
            plots.push(None);
            continue;
        };
        let svg = signal_svg(
            &signal.name,
            &tube,
            (&reference.time, reference_values),
            (&result.time, result_values),
        )
        .map_err(|source| CompareError::Plot {
            signal: signal.name.clone(),
            source,
        })?;
        let file = format!("{:03}_{}.svg", index + 1, file_stem(&signal.name));
        fs::write(dir.join(&file), svg).map_err(write_error)?;
        plots.push(Some(file));
    }
    fs::write(dir.join("summary.json"), summary.to_json()).map_err(write_error)?;
    fs::write(dir.join("index.html"), index_html(summary, &plots)).map_err(write_error)?;
    Ok(())
}

/// A file name stem from a signal name (`rod.T[3]` -> `rod.T_3_`).
fn file_stem(name: &str) -> String {
    name.chars()
        .take(80)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn index_html(summary: &Summary, plots: &[Option<String>]) -> String {
    let mut html = String::new();
    let verdict = if summary.passed { "passed" } else { "failed" };
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>mofmu compare: {verdict}</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; }}\n\
         table {{ border-collapse: collapse; }}\n\
         td, th {{ border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: left; }}\n\
         .pass {{ color: #1a7f37; }} .fail {{ color: #cf222e; font-weight: bold; }}\n\
         img {{ max-width: 100%; }}\n</style>\n</head>\n<body>\n\
         <h1>{} of {} signals passed</h1>\n\
         <p>Reference <code>{}</code>, result <code>{}</code>, tolerance {}.</p>\n\
         <table>\n<tr><th>signal</th><th>verdict</th><th>outliers</th><th>checked</th>\
         <th>largest violation</th><th>at time</th><th>first failure</th></tr>\n",
        summary.signals_passed,
        summary.signals.len(),
        escape(&summary.reference),
        escape(&summary.result),
        summary.tolerance
    );
    for (index, signal) in summary.signals.iter().enumerate() {
        let class = if signal.passed { "pass" } else { "fail" };
        let name = match &plots[index] {
            Some(_) => format!("<a href=\"#s{index}\">{}</a>", escape(&signal.name)),
            None => escape(&signal.name),
        };
        let _ = writeln!(
            html,
            "<tr><td>{name}</td><td class=\"{class}\">{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            signal.verdict.describe(),
            signal.outliers,
            signal.checked,
            number(signal.largest_violation),
            number(signal.largest_violation_time),
            number(signal.first_failure_time),
        );
    }
    html.push_str("</table>\n");
    for (index, signal) in summary.signals.iter().enumerate() {
        if let Some(file) = &plots[index] {
            let _ = writeln!(
                html,
                "<h2 id=\"s{index}\">{}</h2>\n<img src=\"{}\" alt=\"{}: reference, tube, result and error\">",
                escape(&signal.name),
                escape(file),
                escape(&signal.name)
            );
        }
    }
    html.push_str("</body>\n</html>\n");
    html
}

fn number(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |v| format!("{v:.6e}"))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
