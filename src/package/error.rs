//! Every way packaging can fail.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("no usable C compiler: {0}")]
    CompilerNotFound(String),
    #[error("the C compiler rejected {source_name}:\n{stderr}")]
    Compile { source_name: String, stderr: String },
    #[error("linking {library} failed:\n{stderr}")]
    Link { library: String, stderr: String },
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing the archive {}: {source}", path.display())]
    Zip {
        path: PathBuf,
        source: zip::result::ZipError,
    },
    #[error("invalid FMU build: {0}")]
    InvalidSpec(String),
    #[error(
        "cannot choose an object cache directory: set MOFMU_CACHE_DIR, XDG_CACHE_HOME or HOME"
    )]
    NoCacheDir,
    #[error("{0}")]
    UnsupportedPlatform(String),
}

pub(crate) fn io_error(action: &'static str, path: &Path, source: std::io::Error) -> PackageError {
    PackageError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}
