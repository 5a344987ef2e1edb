//! Reads library files from disk in load order. Directories are loaded
//! through `package.mo` and `package.order`. A library that uses the
//! methodology's `Base` without loading one gets the copy built into the
//! binary, loaded first ([`crate::library::with_base`]).

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} is not a .mo file or a library directory with package.mo")]
    NotALibrary(PathBuf),
    #[error("{dir}: package.order names `{entry}`, but neither {entry}.mo nor {entry}/package.mo exists")]
    MissingEntry { dir: PathBuf, entry: String },
    #[error("{0}: a library directory with more than package.mo needs a package.order file (the load order matters: no look-ahead)")]
    NoOrder(PathBuf),
}

/// Files as (name for messages, text), in the order they must be read,
/// with the bundled `Base` first when they use it and none declares it.
pub fn load_paths(paths: &[PathBuf]) -> Result<Vec<(String, String)>, LoadError> {
    Ok(crate::library::with_base(read_paths(paths)?))
}

/// The files of `paths` as they are on disk, in load order, nothing added.
pub fn read_paths(paths: &[PathBuf]) -> Result<Vec<(String, String)>, LoadError> {
    let mut out = Vec::new();
    for p in paths {
        load(p, &mut out)?;
    }
    Ok(out)
}

fn read(path: &Path) -> Result<String, LoadError> {
    std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn load(path: &Path, out: &mut Vec<(String, String)>) -> Result<(), LoadError> {
    if path.is_file() {
        out.push((path.display().to_string(), read(path)?));
        return Ok(());
    }
    if !path.is_dir() {
        if !path.exists() {
            return Err(LoadError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file or directory",
                ),
            });
        }
        return Err(LoadError::NotALibrary(path.to_path_buf()));
    }
    let package = path.join("package.mo");
    if !package.is_file() {
        return Err(LoadError::NotALibrary(path.to_path_buf()));
    }
    out.push((package.display().to_string(), read(&package)?));
    let order = path.join("package.order");
    if !order.is_file() {
        let others = std::fs::read_dir(path)
            .map_err(|source| LoadError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .filter_map(|e| e.ok())
            .any(|e| {
                let n = e.file_name();
                let n = n.to_string_lossy();
                n != "package.mo" && (n.ends_with(".mo") || e.path().join("package.mo").is_file())
            });
        if others {
            return Err(LoadError::NoOrder(path.to_path_buf()));
        }
        return Ok(());
    }
    for line in read(&order)?.lines() {
        let entry = line.trim();
        if entry.is_empty() {
            continue;
        }
        let file = path.join(format!("{entry}.mo"));
        let dir = path.join(entry);
        if file.is_file() {
            load(&file, out)?;
        } else if dir.join("package.mo").is_file() {
            load(&dir, out)?;
        } else {
            // A class declared inside package.mo itself is listed too.
            let text = &out
                .iter()
                .rev()
                .find(|(n, _)| *n == package.display().to_string())
                .map(|x| x.1.clone())
                .unwrap_or_default();
            if !text.contains(entry) {
                return Err(LoadError::MissingEntry {
                    dir: path.to_path_buf(),
                    entry: entry.to_string(),
                });
            }
        }
    }
    Ok(())
}
