//! Safe extraction of an FMU archive into a private temporary directory.

use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use tempfile::TempDir;

use super::error::HarnessError;

/// Refuse archives that unpack to more than this many bytes (2 GiB): far above any real
/// FMU, low enough to stop a zip bomb from filling the disk.
pub const MAX_EXTRACTED_BYTES: u64 = 2 << 30;

/// Unpacks `fmu` into a new temporary directory that is removed when the result drops.
///
/// Rejects entries with absolute paths, `..` components or symlink modes, and stops
/// once more than [`MAX_EXTRACTED_BYTES`] have been written (counted on the actual data,
/// not on the sizes the archive claims).
pub fn extract(fmu: &Path) -> Result<TempDir, HarnessError> {
    let io_error = |source| HarnessError::Io {
        path: fmu.to_path_buf(),
        source,
    };
    let bad_zip = |error: zip::result::ZipError| HarnessError::BadZip {
        path: fmu.to_path_buf(),
        message: error.to_string(),
    };
    let file = fs::File::open(fmu).map_err(io_error)?;
    let mut archive = zip::ZipArchive::new(io::BufReader::new(file)).map_err(bad_zip)?;
    let dir = tempfile::Builder::new()
        .prefix("mofmu-fmu-")
        .tempdir()
        .map_err(io_error)?;

    let mut written: u64 = 0;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(bad_zip)?;
        let name = entry.name().to_string();
        let relative = safe_relative_path(&name)?;
        if entry.is_symlink() {
            return Err(HarnessError::UnsafeZipEntry {
                entry: name,
                reason: "symbolic links are not allowed",
            });
        }
        let target = dir.path().join(&relative);
        if entry.is_dir() {
            fs::create_dir_all(&target).map_err(io_error)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io_error)?;
        }
        let mut out = fs::File::create(&target).map_err(io_error)?;
        let remaining = MAX_EXTRACTED_BYTES - written;
        let copied = io::copy(&mut (&mut entry).take(remaining + 1), &mut out).map_err(|e| {
            HarnessError::BadZip {
                path: fmu.to_path_buf(),
                message: format!("cannot extract `{name}`: {e}"),
            }
        })?;
        if copied > remaining {
            return Err(HarnessError::ZipTooLarge {
                limit: MAX_EXTRACTED_BYTES,
            });
        }
        written += copied;
    }
    Ok(dir)
}

/// Checks one archive entry name and turns it into a relative path with only normal
/// components.
fn safe_relative_path(name: &str) -> Result<PathBuf, HarnessError> {
    let unsafe_entry = |reason| HarnessError::UnsafeZipEntry {
        entry: name.to_string(),
        reason,
    };
    if name.contains('\0') {
        return Err(unsafe_entry("the name contains a NUL byte"));
    }
    // Archives written on Windows may use backslashes; treat them as separators so a
    // `..\evil` entry cannot slip through as one odd file name.
    let normalized = name.replace('\\', "/");
    if normalized.starts_with('/') || normalized.as_bytes().get(1) == Some(&b':') {
        return Err(unsafe_entry("absolute paths are not allowed"));
    }
    let mut path = PathBuf::new();
    for component in Path::new(&normalized).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir => return Err(unsafe_entry("`..` components are not allowed")),
            Component::RootDir | Component::Prefix(_) => {
                return Err(unsafe_entry("absolute paths are not allowed"))
            }
        }
    }
    if path.as_os_str().is_empty() {
        return Err(unsafe_entry("the name is empty"));
    }
    Ok(path)
}
