//! Every way a sweep can fail, each with its stable code.

use std::path::PathBuf;

use crate::harness::HarnessError;

/// Every way a sweep can fail before or around its cases (a case's own failure is
/// recorded in its row instead). Each has a stable code, SW001…SW014 (docs/sweep.md).
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("--grid {grid}: {reason}")]
    Grid { grid: String, reason: String },
    #[error("the FMU has no variable `{name}`{}", did_you_mean(.close))]
    UnknownParameter { name: String, close: Vec<String> },
    #[error("`{name}` cannot be given a start value: it is {what}{}", did_you_mean(.close))]
    NotSettable {
        name: String,
        what: String,
        close: Vec<String>,
    },
    #[error("case {case}: `{name}` = {reason}")]
    BadValue {
        name: String,
        case: usize,
        reason: String,
    },
    #[error("the parameter `{0}` is given twice")]
    DuplicateParameter(String),
    #[error("{}:{line}: {message}", .path.display())]
    Cases {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error("no cases: {0}")]
    NoCases(String),
    #[error("{}", unknown_output(.name, .close))]
    UnknownOutput { name: String, close: Vec<String> },
    #[error("the output `{0}` is named twice")]
    DuplicateOutput(String),
    #[error(transparent)]
    Harness(#[from] HarnessError),
    #[error("cannot write `{}`: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("Parquet: {0}")]
    Parquet(String),
    #[error("invalid sweep options: {0}")]
    BadOptions(String),
    #[error("--plot: {0}")]
    Plot(String),
}

impl SweepError {
    /// The stable code of the error (docs/sweep.md).
    pub fn code(&self) -> &'static str {
        match self {
            SweepError::Grid { .. } => "SW001",
            SweepError::UnknownParameter { .. } => "SW002",
            SweepError::NotSettable { .. } => "SW003",
            SweepError::BadValue { .. } => "SW004",
            SweepError::DuplicateParameter(_) => "SW005",
            SweepError::Cases { .. } => "SW006",
            SweepError::NoCases(_) => "SW007",
            SweepError::UnknownOutput { .. } => "SW008",
            SweepError::DuplicateOutput(_) => "SW009",
            SweepError::Harness(_) => "SW010",
            SweepError::Io { .. } => "SW011",
            SweepError::Parquet(_) => "SW012",
            SweepError::BadOptions(_) => "SW013",
            SweepError::Plot(_) => "SW014",
        }
    }
}

impl From<parquet::errors::ParquetError> for SweepError {
    fn from(e: parquet::errors::ParquetError) -> SweepError {
        SweepError::Parquet(e.to_string())
    }
}

fn did_you_mean(close: &[String]) -> String {
    crate::names::close_names_hint(close, "mofmu simulate FMU --list-variables")
}

fn unknown_output(name: &str, close: &[String]) -> String {
    if name.is_empty() {
        return "no outputs: name the variables to record (--outputs a,b,...)".into();
    }
    format!(
        "the FMU has no numeric variable `{name}` to record{}",
        did_you_mean(close)
    )
}
