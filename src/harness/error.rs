//! Every way loading or simulating an FMU can fail.

use std::path::PathBuf;

/// A failure of the FMU harness, with enough context to act on it.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("cannot read FMU `{path}`: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{path}` is not a valid zip archive: {message}")]
    BadZip { path: PathBuf, message: String },
    #[error("FMU archive entry `{entry}` is unsafe: {reason}")]
    UnsafeZipEntry { entry: String, reason: &'static str },
    #[error("FMU archive unpacks to more than {limit} bytes; refusing to extract it")]
    ZipTooLarge { limit: u64 },
    #[error("FMU has no modelDescription.xml at its root")]
    MissingModelDescription,
    #[error("modelDescription.xml is invalid: {0}")]
    ModelDescription(String),
    #[error(
        "this is an FMI {0} FMU, and mofmu's harness (simulate, compare, sweep, cosim, the \
         cross-check reference) loads FMI 2.0 and FMI 3.0 FMUs: run this FMU with another \
         importer"
    )]
    UnsupportedFmiVersion(String),
    #[error("FMU does not contain the binary `{path}` for this platform")]
    MissingBinary { path: String },
    #[error("cannot load shared library `{path}`: {message}")]
    LoadLibrary { path: PathBuf, message: String },
    #[error("shared library `{library}` does not export the FMI function `{symbol}`")]
    MissingSymbol { library: String, symbol: String },
    #[error("instantiating the FMU returned NULL{}", format_log(.log))]
    InstantiateFailed { log: Vec<String> },
    #[error("{function} returned {status}{}", format_log(.log))]
    FmiStatus {
        function: &'static str,
        status: &'static str,
        log: Vec<String>,
    },
    #[error("no variable named `{0}` in the model description")]
    UnknownVariable(String),
    #[error("cannot set variable `{name}`: {reason}")]
    BadStartValue { name: String, reason: String },
    #[error("invalid simulation options: {0}")]
    BadOptions(String),
    #[error("integrator failed at t = {time}: {reason}")]
    Integrator { time: f64, reason: String },
    #[error("cannot write CSV file `{path}`: {source}")]
    WriteCsv {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Appends the FMU's own log messages to an error message, one per line.
fn format_log(log: &[String]) -> String {
    if log.is_empty() {
        return String::new();
    }
    let mut text = String::from("; the FMU logged:");
    for line in log {
        text.push_str("\n  ");
        text.push_str(line);
    }
    text
}
